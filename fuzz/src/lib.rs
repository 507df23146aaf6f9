//! Shared parts of vgpu's fuzz targets (see `fuzz/README.md`): the noop device, created once per
//! process; the error-code invariant; naga panics that vgpu contains; an `Arbitrary` mirror of
//! [`Value`]; a WGSL type generator and an independent packing oracle for the `pack` target.

#![allow(clippy::unwrap_used)]

pub mod oracle;
pub mod wgsl;

use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Once, OnceLock};

use arbitrary::Arbitrary;
use vgpu::{Gpu, Value};
use vgpu_core::GpuContext;

/// The noop device context, created once per process (device creation is the slow part); every
/// target's `Gpu`s share it.
pub fn context() -> &'static Arc<GpuContext> {
    static CTX: OnceLock<Arc<GpuContext>> = OnceLock::new();
    CTX.get_or_init(|| {
        contain_naga_panics();
        GpuContext::noop()
    })
}

/// One `Gpu` on [`context`] for the whole process (targets whose inputs leave no state behind).
pub fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| Gpu::from_context(context().clone()))
}

/// A `Gpu` with fresh state (no draws, blocks, caches) on the shared device: an input of the
/// `api` and `typed` targets starts from nothing, so a crash reproduces from its input alone.
pub fn fresh_gpu() -> Gpu {
    Gpu::from_context(context().clone())
}

/// The invariant of every `Err`: a stable `VGPU-…` code, also at the start of its message.
#[track_caller]
pub fn check_code(what: &str, code: &str, message: &dyn std::fmt::Display) {
    let message = message.to_string();
    if printing() {
        eprintln!("{what}: Err({code})");
    }
    assert!(
        code.starts_with("VGPU-") && message.contains(code),
        "{what}: error without a VGPU- code (code {code:?}): {message}"
    );
}

/// [`check_code`] for `vgpu::Error`.
#[track_caller]
pub fn check_err(what: &str, e: &vgpu::Error) {
    check_code(what, e.code(), e);
}

/// [`check_err`] on the `Err` of `r`; returns whether it was `Ok`.
#[track_caller]
pub fn ok_or_coded<T>(what: &str, r: &vgpu::Result<T>) -> bool {
    match r {
        Ok(_) => {
            if printing() {
                eprintln!("{what}: Ok");
            }
            true
        }
        Err(e) => {
            check_err(what, e);
            false
        }
    }
}

/// naga panics seen on vgpu's naga thread (vgpu turns them into `VGPU-SHADER-INTERNAL`).
pub static NAGA_PANICS: AtomicU64 = AtomicU64::new(0);

/// libFuzzer's panic hook aborts on every panic, even one caught later. vgpu runs naga on a
/// thread named `vgpu-naga` under `catch_unwind` (crates/vgpu-core/src/shader/parse.rs) and
/// returns `VGPU-SHADER-INTERNAL`: such a panic is a naga bug that vgpu contains, so it is logged
/// (with naga's message and location) and counted instead of aborting. Every other panic still
/// aborts (a finding). `VGPU_FUZZ_NAGA_PANICS=abort` makes naga panics findings too.
fn contain_naga_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var("VGPU_FUZZ_NAGA_PANICS").is_ok_and(|v| v == "abort") {
            return;
        }
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some("vgpu-naga") {
                let n = NAGA_PANICS.fetch_add(1, Ordering::Relaxed);
                if n < 50 {
                    eprintln!("vgpu-fuzz: contained naga panic (VGPU-SHADER-INTERNAL): {info}");
                }
                return;
            }
            fuzzer_hook(info);
        }));
    });
}

/// Saves `data` under `$VGPU_FUZZ_CONTAINED_DIR/<hash>` (when set): inputs that hit a contained
/// naga panic, kept apart from libFuzzer's crash artifacts.
pub fn save_contained(data: &[u8]) {
    let Some(dir) = std::env::var_os("VGPU_FUZZ_CONTAINED_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let _ = std::fs::create_dir_all(&dir);
    // FNV-1a: a stable name per input.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    let _ = std::fs::write(dir.join(format!("naga-panic-{h:016x}")), data);
}

/// A struct field name of an arbitrary value: mostly names the targets' WGSL uses.
#[derive(Arbitrary, Clone, Debug)]
pub enum FName {
    /// `m0`..`m7` (the `pack` target's members).
    Member(u8),
    /// A name from the caller's list.
    Known(u8),
    /// Anything.
    Raw(String),
}

/// An `Arbitrary` mirror of [`vgpu::Value`].
#[derive(Arbitrary, Clone, Debug)]
pub enum FValue {
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
    F32s(Vec<f32>),
    I32s(Vec<i32>),
    U32s(Vec<u32>),
    Array(Vec<FValue>),
    Struct(Vec<(FName, FValue)>),
}

impl FValue {
    /// The [`Value`]; [`FName::Known`] indexes `known`.
    pub fn to_value(&self, known: &[&'static str]) -> Value {
        match self {
            FValue::F32(x) => Value::F32(*x),
            FValue::F64(x) => Value::F64(*x),
            FValue::I32(x) => Value::I32(*x),
            FValue::U32(x) => Value::U32(*x),
            FValue::F32s(v) => Value::from(v.clone()),
            FValue::I32s(v) => Value::from(v.clone()),
            FValue::U32s(v) => Value::from(v.clone()),
            FValue::Array(v) => Value::Array(v.iter().map(|e| e.to_value(known)).collect()),
            FValue::Struct(fields) => Value::Struct(
                fields
                    .iter()
                    .map(|(n, v)| (name(n, known), v.to_value(known)))
                    .collect(),
            ),
        }
    }
}

fn name(n: &FName, known: &[&'static str]) -> Cow<'static, str> {
    match n {
        FName::Member(i) => Cow::Owned(format!("m{}", i % 8)),
        FName::Known(i) if !known.is_empty() => Cow::Borrowed(known[*i as usize % known.len()]),
        FName::Known(i) => Cow::Owned(format!("m{}", i % 8)),
        FName::Raw(s) => Cow::Owned(s.clone()),
    }
}

/// `VGPU_FUZZ_PRINT=1`: targets print what they decoded from the input (to reproduce an
/// artifact by reading it).
pub fn printing() -> bool {
    static PRINT: OnceLock<bool> = OnceLock::new();
    *PRINT.get_or_init(|| std::env::var_os("VGPU_FUZZ_PRINT").is_some())
}
