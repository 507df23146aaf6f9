//! `pack`: a WGSL buffer type generated from the input, reflected by vgpu-core, and values packed
//! into it (`WritePlan::pack`, `pack_partial`, `pack_member`, `packed_size`,
//! `runtime_array_size`, `pack_bytes`), compared with the independent model in
//! `vgpu_fuzz::oracle` both ways.
//!
//! Invariants: no panic; `Ok` exactly when the model accepts the value (and the destination is
//! large enough); an accepted value's bytes decode back to it through the layout (NaN bitwise
//! where no conversion happens), padding is zero, bytes past the packed size and every byte on
//! `Err` are untouched; `Err` carries a `VGPU-` code; `packed_size` and `runtime_array_size`
//! agree with `pack`.

#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use vgpu_core::{LayoutKind, TypeLayout};
use vgpu_core::{ErrorCode, PackContext, Shader, Value, WritePlan};
use vgpu_fuzz::oracle::{self, Leaf};
use vgpu_fuzz::{FValue, check_code, printing, wgsl};

const FILL: u8 = 0xA5;

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});

fn run(data: &[u8]) -> arbitrary::Result<()> {
    let mut u = Unstructured::new(data);
    let generated = wgsl::generate(&mut u)?;
    if printing() {
        eprintln!("WGSL:\n{}", generated.source);
    }
    let features = vgpu::wgpu::Features::SHADER_F16
        | vgpu::wgpu::Features::SHADER_F64
        | vgpu::wgpu::Features::SHADER_INT64;
    let shader = match Shader::with_features("pack", &generated.source, features) {
        Ok(s) => s,
        Err(e) => {
            check_code("reflecting the generated type", e.code(), &e);
            return Ok(());
        }
    };
    let binding = shader
        .binding("u")
        .unwrap_or_else(|| panic!("binding `u` not reflected:\n{}", generated.source));
    let plan = binding
        .plan
        .clone()
        .unwrap_or_else(|| panic!("buffer binding without a plan:\n{}", generated.source));
    let layout = plan.layout().clone();
    assert!(*layout == *layout);
    assert!(layout.shape_difference(&layout).is_none());
    let _ = layout.gl_hazards(generated.space == "uniform");

    let ops = u.int_in_range(1u8..=4)?;
    for _ in 0..ops {
        let elements = u.int_in_range(0usize..=3)?;
        let value = match u.int_in_range(0u8..=9)? {
            0 | 1 => u.arbitrary::<FValue>()?.to_value(&[]),
            2..=5 => oracle::guided(&mut u, &layout, 0, elements)?,
            _ => {
                let noise = u.arbitrary()?;
                oracle::guided(&mut u, &layout, noise, elements)?
            }
        };
        if printing() {
            eprintln!("value: {value:?}");
        }
        let cx = Case {
            plan: &plan,
            layout: &layout,
            source: &generated.source,
            value: &value,
        };
        match u.int_in_range(0u8..=7)? {
            0..=3 => {
                let slack = u.int_in_range(0usize..=8)?;
                let short = u.int_in_range(0usize..=16)?;
                cx.full(if u.ratio(1u8, 8)? {
                    -(short as isize)
                } else {
                    slack as isize
                });
            }
            4 | 5 if plan.runtime_array().is_none() => {
                let prev = cx.previous(&mut u)?;
                cx.partial(prev, None);
            }
            6 if plan.runtime_array().is_none() => {
                let prev = cx.previous(&mut u)?;
                let member = u.int_in_range(0usize..=layout.members().len())?;
                cx.partial(prev, Some(member));
            }
            _ => {
                let len = u.int_in_range(0usize..=plan.size() + 64)?;
                cx.bytes(len);
            }
        }
    }
    Ok(())
}

struct Case<'a> {
    plan: &'a WritePlan,
    layout: &'a TypeLayout,
    source: &'a str,
    value: &'a Value,
}

impl Case<'_> {
    #[track_caller]
    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\nvalue: {:?}\nlayout: {:#?}\nWGSL:\n{}",
            self.value, self.layout, self.source
        )
    }

    fn ctx(&self) -> PackContext<'static> {
        PackContext::new("pack", "u")
    }

    /// `pack` into a destination `delta` bytes longer (or shorter) than the model's size.
    fn full(&self, delta: isize) {
        let plan = self.plan;
        let model = oracle::model(self.layout, self.value, false);
        let n_model = match (&model, plan.runtime_array()) {
            (Ok(m), Some(rt)) => {
                let k = m.runtime_elements.unwrap_or_else(|| {
                    self.fail("model accepted a full value without the runtime-sized array")
                });
                rt.offset as usize + k * rt.stride as usize
            }
            _ => plan.size(),
        };
        let len = n_model.saturating_add_signed(delta);
        let mut dst = vec![FILL; len];
        let result = plan.pack(self.value, &mut dst, &self.ctx());
        if printing() {
            eprintln!(
                "pack into {len} bytes (model: {:?}): {:?}",
                model.as_ref().map(|_| n_model),
                result.as_ref().map_err(|e| e.code())
            );
        }
        let size = plan.packed_size(self.value, &self.ctx());
        match (&model, &size) {
            (Ok(_), Ok(s)) if *s != n_model => {
                self.fail(&format!("packed_size {s}, model size {n_model}"))
            }
            (Ok(_), Err(e)) => self.fail(&format!("packed_size refused an accepted value: {e}")),
            (Err(why), Ok(s)) => self.fail(&format!(
                "packed_size {s} for a value the model refuses ({why})"
            )),
            (_, Err(e)) => check_code("packed_size", e.code(), e),
            _ => {}
        }
        if let (Some(_), Ok(_)) = (plan.runtime_array(), &model) {
            match plan.runtime_array_size(self.value, &self.ctx()) {
                Ok(Some(s)) if s == n_model => {}
                other => self.fail(&format!(
                    "runtime_array_size {other:?}, model size {n_model}"
                )),
            }
        }
        match (result, model) {
            (Ok(n), Ok(m)) => {
                if n != n_model {
                    self.fail(&format!("pack wrote {n} bytes, model {n_model}"));
                }
                self.check_leaves(&m.leaves, &dst);
                let mask = oracle::component_mask(self.layout, m.runtime_elements.unwrap_or(0), n);
                if let Some(i) = (0..n).find(|&i| !mask[i] && dst[i] != 0) {
                    self.fail(&format!("padding byte {i} is {:#x}, not zero", dst[i]));
                }
                if let Some(i) = (n..len).find(|&i| dst[i] != FILL) {
                    self.fail(&format!("byte {i} past the packed {n} bytes was written"));
                }
            }
            (Ok(n), Err(why)) => self.fail(&format!(
                "pack accepted ({n} bytes) a value the model refuses: {why}"
            )),
            (Err(e), Ok(_)) if len >= n_model => {
                self.fail(&format!("pack refused a value the model accepts: {e}"))
            }
            (Err(e), _) => {
                check_code("pack", e.code(), &e);
                if dst.iter().any(|&b| b != FILL) {
                    self.fail(&format!("pack wrote bytes and then failed: {e}"));
                }
            }
        }
    }

    /// A previous full value: components from the input, padding zero.
    fn previous(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<u8>> {
        let size = self.plan.size();
        let mask = oracle::component_mask(self.layout, 0, size);
        let seed: u64 = u.arbitrary()?;
        let mut x = seed | 1;
        Ok((0..size)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if mask[i] { x as u8 } else { 0 }
            })
            .collect())
    }

    /// `pack_partial` (or `pack_member` of `member`) onto `prev`.
    fn partial(&self, prev: Vec<u8>, member: Option<usize>) {
        let plan = self.plan;
        let model = match member {
            None => oracle::model(self.layout, self.value, true),
            Some(i) => match &self.layout.kind {
                LayoutKind::Struct { members } if i < members.len() => {
                    let m = &members[i];
                    oracle::model(&m.layout, self.value, true).map(|mut model| {
                        for l in &mut model.leaves {
                            l.at += m.offset as usize;
                        }
                        model
                    })
                }
                _ => Err("no such member".to_owned()),
            },
        };
        let mut dst = prev.clone();
        let result = match member {
            None => plan.pack_partial(self.value, &mut dst, &self.ctx()),
            Some(i) => plan.pack_member(i, self.value, &mut dst, &self.ctx()),
        };
        let what = if member.is_some() {
            "pack_member"
        } else {
            "pack_partial"
        };
        if printing() {
            eprintln!(
                "{what} (model ok: {}): {:?}",
                model.is_ok(),
                result.as_ref().map_err(|e| e.code())
            );
        }
        match (result, model) {
            (Ok(end), Ok(m)) => {
                if end > dst.len() {
                    self.fail(&format!("{what} returned end {end} past {}", dst.len()));
                }
                self.check_leaves(&m.leaves, &dst);
                let mut given = vec![false; dst.len()];
                for l in &m.leaves {
                    for b in given.iter_mut().skip(l.at).take(l.scalar.width() as usize) {
                        *b = true;
                    }
                }
                if let Some(i) = (0..dst.len()).find(|&i| !given[i] && dst[i] != prev[i]) {
                    self.fail(&format!(
                        "{what} changed byte {i} ({:#x} -> {:#x}) that the value does not give",
                        prev[i], dst[i]
                    ));
                }
            }
            (Ok(_), Err(why)) => {
                self.fail(&format!("{what} accepted a value the model refuses: {why}"))
            }
            (Err(e), Ok(_)) => self.fail(&format!("{what} refused a value the model accepts: {e}")),
            (Err(e), Err(_)) => {
                check_code(what, e.code(), &e);
                if dst != prev {
                    self.fail(&format!("{what} wrote bytes and then failed: {e}"));
                }
            }
        }
    }

    /// `pack_bytes` of `len` bytes: the size rule of typed values.
    fn bytes(&self, len: usize) {
        let plan = self.plan;
        let bytes: Vec<u8> = (0..len)
            .map(|i| (i as u8).wrapping_mul(31) ^ 0x5a)
            .collect();
        let ok = match plan.runtime_array() {
            None => len == plan.size(),
            Some(rt) => {
                let (off, stride) = (rt.offset as usize, rt.stride.max(1) as usize);
                len >= off && (len - off) % stride == 0
            }
        };
        let mut dst = vec![FILL; len + 4];
        match (plan.pack_bytes(&bytes, &mut dst, &self.ctx()), ok) {
            (Ok(n), true) if n == len && dst[..len] == bytes[..] && dst[len..] == [FILL; 4] => {}
            (Ok(n), _) => self.fail(&format!(
                "pack_bytes of {len} bytes: Ok({n}), expected {ok}"
            )),
            (Err(e), false) => {
                check_code("pack_bytes", e.code(), &e);
                assert!(
                    dst.iter().all(|&b| b == FILL),
                    "pack_bytes wrote and failed"
                );
            }
            (Err(e), true) => self.fail(&format!("pack_bytes refused {len} bytes: {e}")),
        }
        assert_eq!(plan.check_pod_size(len, &self.ctx()).is_ok(), ok);
    }

    fn check_leaves(&self, leaves: &[Leaf], dst: &[u8]) {
        for leaf in leaves {
            if let Err(e) = oracle::check_leaf(leaf, dst) {
                self.fail(&format!("bytes do not decode to the value: {e}"));
            }
        }
    }
}
