//! An independent model of strict packing, written from vgpu-core's documented rules (value.rs,
//! plan/ docs) and the reflected [`TypeLayout`] alone: which values a type accepts, and which
//! bytes each accepted value puts where. The `pack` target compares `WritePlan` with it both
//! ways: an accepted value must be one the model accepts, a value the model accepts must be
//! packed, and the bytes must decode back to the value.
//!
//! The rules modelled:
//! - a numeric leaf (scalar, atomic, vector, matrix) takes a flat run of exactly its component
//!   count (`F32`/`I32`/`U32`/`F64` scalars are runs of one; `F32s`/`I32s`/`U32s`), column-major;
//!   a vector also takes an `Array` of one-component runs; a matrix an `Array` of columns, each
//!   a run of `rows` or an `Array` of one-component runs;
//! - an array takes an `Array` of its length (any length when runtime-sized), or, when its
//!   leaves are all numbers (fixed-size elements), one flat run of `len × components`
//!   (runtime-sized: a whole number of elements);
//! - a struct takes a `Struct` naming each member once (any order; all of them unless partial);
//! - each number converts per the rules of `convert` in plan/convert.rs: exact integers, floats
//!   in range, integers exactly representable in float targets.

use arbitrary::{Result as AResult, Unstructured};
use vgpu_core::Value;
use vgpu_core::{LayoutKind, ScalarType, TypeLayout};

/// One source number.
#[derive(Clone, Copy, Debug)]
pub enum Num {
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
}

impl Num {
    fn as_f64(self) -> f64 {
        match self {
            Num::F32(x) => f64::from(x),
            Num::F64(x) => x,
            Num::I32(x) => f64::from(x),
            Num::U32(x) => f64::from(x),
        }
    }
    fn as_int(self) -> Option<i128> {
        match self {
            Num::I32(x) => Some(x.into()),
            Num::U32(x) => Some(x.into()),
            _ => None,
        }
    }
}

/// The components of a flat run, if `v` is one.
pub fn run_of(v: &Value) -> Option<Vec<Num>> {
    Some(match v {
        Value::F32(x) => vec![Num::F32(*x)],
        Value::F64(x) => vec![Num::F64(*x)],
        Value::I32(x) => vec![Num::I32(*x)],
        Value::U32(x) => vec![Num::U32(*x)],
        Value::F32s(s) => s.iter().map(|x| Num::F32(*x)).collect(),
        Value::I32s(s) => s.iter().map(|x| Num::I32(*x)).collect(),
        Value::U32s(s) => s.iter().map(|x| Num::U32(*x)).collect(),
        _ => return None,
    })
}

/// What a leaf component must hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Expect {
    /// Exactly these bits (little-endian, the scalar's width).
    Bits(u64),
    /// Any NaN of the scalar's width (a conversion of a NaN).
    Nan,
}

/// A float source for an integer target: finite, integral, in `[min, max_plus_one)`.
fn float_int(v: f64, min: f64, max_plus_one: f64) -> Option<i128> {
    (v.is_finite() && v.trunc() == v && v >= min && v < max_plus_one).then_some(v as i128)
}

/// The model of one component's conversion: `None` if `scalar` cannot take `num`.
pub fn expect(num: Num, scalar: ScalarType) -> Option<Expect> {
    const P31: f64 = 2147483648.0;
    const P32: f64 = 4294967296.0;
    const P63: f64 = 9223372036854775808.0;
    const P64: f64 = 18446744073709551616.0;
    let int = |x: i128, min: i128, max: i128| (x >= min && x <= max).then_some(x);
    Some(match scalar {
        ScalarType::F32 => {
            let x = match num {
                Num::F32(x) => return Some(Expect::Bits(u64::from(x.to_bits()))),
                Num::F64(v) => {
                    if v.is_finite() && v.abs() > f64::from(f32::MAX) {
                        return None;
                    }
                    v as f32
                }
                Num::I32(_) | Num::U32(_) => {
                    let v = num.as_f64();
                    let x = v as f32;
                    if f64::from(x) != v {
                        return None;
                    }
                    x
                }
            };
            if x.is_nan() {
                Expect::Nan
            } else {
                Expect::Bits(u64::from(x.to_bits()))
            }
        }
        ScalarType::F16 => {
            let v = num.as_f64();
            if v.is_finite() && v.abs() > 65504.0 {
                return None;
            }
            let h = half::f16::from_f32(v as f32);
            if num.as_int().is_some() && f64::from(h) != v {
                return None;
            }
            if h.is_nan() {
                Expect::Nan
            } else {
                Expect::Bits(u64::from(h.to_bits()))
            }
        }
        // Every f32, i32 and u32 is exact in f64 (an f32 NaN keeps its payload): bits.
        ScalarType::F64 => Expect::Bits(num.as_f64().to_bits()),
        ScalarType::I32 => {
            let x = match num.as_int() {
                Some(x) => int(x, i32::MIN.into(), i32::MAX.into())?,
                None => float_int(num.as_f64(), -P31, P31)?,
            };
            Expect::Bits(u64::from((x as i32) as u32))
        }
        ScalarType::U32 => {
            let x = match num.as_int() {
                Some(x) => int(x, 0, u32::MAX.into())?,
                None => float_int(num.as_f64(), 0.0, P32)?,
            };
            Expect::Bits(x as u64)
        }
        ScalarType::I64 => {
            let x = match num.as_int() {
                Some(x) => x,
                None => float_int(num.as_f64(), -P63, P63)?,
            };
            Expect::Bits((x as i64) as u64)
        }
        ScalarType::U64 => {
            let x = match num.as_int() {
                Some(x) => int(x, 0, u64::MAX.into())?,
                None => float_int(num.as_f64(), 0.0, P64)?,
            };
            Expect::Bits(x as u64)
        }
    })
}

/// One component the model expects at `at`.
#[derive(Clone, Copy, Debug)]
pub struct Leaf {
    pub at: usize,
    pub scalar: ScalarType,
    pub expect: Expect,
}

/// The model's verdict on a value for a layout.
#[derive(Debug, Default)]
pub struct Model {
    /// Every component the value gives.
    pub leaves: Vec<Leaf>,
    /// Elements given for the runtime-sized array (when the value gives it).
    pub runtime_elements: Option<usize>,
}

/// Walks `value` along `layout`; `Err` says why the model refuses it.
pub fn model(layout: &TypeLayout, value: &Value, partial: bool) -> Result<Model, String> {
    let mut m = Model::default();
    Walk { m: &mut m, partial }.walk(layout, value, 0)?;
    Ok(m)
}

struct Walk<'m> {
    m: &'m mut Model,
    partial: bool,
}

/// Numbers of one scalar type in a fixed-size layout made only of numbers.
fn flat_count(layout: &TypeLayout) -> Option<usize> {
    match &layout.kind {
        LayoutKind::Scalar(_) | LayoutKind::Atomic(_) => Some(1),
        LayoutKind::Vector { components, .. } => Some(*components as usize),
        LayoutKind::Matrix { columns, rows, .. } => Some(*columns as usize * *rows as usize),
        LayoutKind::Array {
            element,
            length: Some(n),
            ..
        } => Some(*n as usize * flat_count(element)?),
        _ => None,
    }
}

impl Walk<'_> {
    fn leaf(&mut self, scalar: ScalarType, num: Num, at: usize) -> Result<(), String> {
        let expect = expect(num, scalar)
            .ok_or_else(|| format!("{num:?} does not convert to {}", scalar.wgsl_name()))?;
        self.m.leaves.push(Leaf { at, scalar, expect });
        Ok(())
    }

    /// Places a flat run into a numeric-only layout.
    fn flat(&mut self, layout: &TypeLayout, comps: &[Num], base: usize) -> Result<(), String> {
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => self.leaf(*s, comps[0], base),
            LayoutKind::Vector { scalar, .. } => {
                let w = scalar.width() as usize;
                for (k, c) in comps.iter().enumerate() {
                    self.leaf(*scalar, *c, base + k * w)?;
                }
                Ok(())
            }
            LayoutKind::Matrix {
                scalar,
                rows,
                column_stride,
                ..
            } => {
                let (w, rows) = (scalar.width() as usize, *rows as usize);
                for (k, c) in comps.iter().enumerate() {
                    let at = base + (k / rows) * *column_stride as usize + (k % rows) * w;
                    self.leaf(*scalar, *c, at)?;
                }
                Ok(())
            }
            LayoutKind::Array {
                element, stride, ..
            } => {
                let per = flat_count(element).ok_or("not flat")?;
                for (i, chunk) in comps.chunks(per).enumerate() {
                    self.flat(element, chunk, base + i * *stride as usize)?;
                }
                Ok(())
            }
            LayoutKind::Struct { .. } => Err("a struct from a flat run".to_owned()),
            _ => Err("unknown layout kind".to_owned()),
        }
    }

    /// The components of a value for a numeric leaf of `count` components (`rows` per column
    /// for matrices, 0 otherwise).
    fn leaf_components(v: &Value, count: usize, vector: bool, rows: usize) -> Option<Vec<Num>> {
        if let Some(run) = run_of(v) {
            return (run.len() == count).then_some(run);
        }
        let Value::Array(elems) = v else {
            return None;
        };
        let one = |e: &Value| run_of(e).filter(|r| r.len() == 1).map(|r| r[0]);
        let mut out = Vec::with_capacity(count);
        if vector {
            if elems.len() != count {
                return None;
            }
            for e in elems {
                out.push(one(e)?);
            }
            return Some(out);
        }
        if rows == 0 || elems.len() * rows != count {
            return None;
        }
        for col in elems {
            match run_of(col) {
                Some(r) if r.len() == rows => out.extend(r),
                Some(_) => return None,
                None => {
                    let Value::Array(c) = col else { return None };
                    if c.len() != rows {
                        return None;
                    }
                    for e in c {
                        out.push(one(e)?);
                    }
                }
            }
        }
        Some(out)
    }

    fn walk(&mut self, layout: &TypeLayout, v: &Value, base: usize) -> Result<(), String> {
        match &layout.kind {
            LayoutKind::Scalar(_) | LayoutKind::Atomic(_) => {
                let comps = Self::leaf_components(v, 1, false, 0).ok_or("not one number")?;
                self.flat(layout, &comps, base)
            }
            LayoutKind::Vector { components, .. } => {
                let n = *components as usize;
                let comps =
                    Self::leaf_components(v, n, true, 0).ok_or("not a vector's components")?;
                self.flat(layout, &comps, base)
            }
            LayoutKind::Matrix { columns, rows, .. } => {
                let (c, r) = (*columns as usize, *rows as usize);
                let comps =
                    Self::leaf_components(v, c * r, false, r).ok_or("not a matrix's columns")?;
                self.flat(layout, &comps, base)
            }
            LayoutKind::Array {
                element,
                length,
                stride,
            } => {
                let stride = *stride as usize;
                let n = match v {
                    Value::Array(elems) => {
                        if length.is_some_and(|n| n as usize != elems.len()) {
                            return Err("array length".to_owned());
                        }
                        for (i, e) in elems.iter().enumerate() {
                            self.walk(element, e, base + i * stride)?;
                        }
                        elems.len()
                    }
                    _ => {
                        let run = run_of(v).ok_or("not an array")?;
                        let per = flat_count(element).ok_or("array of non-numbers from a run")?;
                        let n = match length {
                            Some(n) if run.len() == *n as usize * per => *n as usize,
                            Some(_) => return Err("flat run length".to_owned()),
                            None if run.len() % per == 0 => run.len() / per,
                            None => return Err("flat run not whole elements".to_owned()),
                        };
                        for (i, chunk) in run.chunks(per).enumerate() {
                            self.flat(element, chunk, base + i * stride)?;
                        }
                        n
                    }
                };
                if length.is_none() {
                    self.m.runtime_elements = Some(n);
                }
                Ok(())
            }
            LayoutKind::Struct { members } => {
                let Value::Struct(fields) = v else {
                    return Err("not a struct".to_owned());
                };
                let mut seen = vec![false; members.len()];
                for (name, fv) in fields {
                    let i = members
                        .iter()
                        .position(|m| *m.name == **name)
                        .ok_or_else(|| format!("unknown field {name:?}"))?;
                    if std::mem::replace(&mut seen[i], true) {
                        return Err(format!("field {name:?} twice"));
                    }
                    let m = &members[i];
                    self.walk(&m.layout, fv, base + m.offset as usize)?;
                }
                if !self.partial && seen.iter().any(|s| !s) {
                    return Err("missing member".to_owned());
                }
                Ok(())
            }
            _ => Err("unknown layout kind".to_owned()),
        }
    }
}

/// Checks one expected component against `bytes`.
pub fn check_leaf(leaf: &Leaf, bytes: &[u8]) -> Result<(), String> {
    let w = leaf.scalar.width() as usize;
    let Some(b) = bytes.get(leaf.at..leaf.at + w) else {
        return Err(format!(
            "component at {} past the {} bytes",
            leaf.at,
            bytes.len()
        ));
    };
    let mut raw = [0u8; 8];
    raw[..w].copy_from_slice(b);
    let got = u64::from_le_bytes(raw);
    let ok = match leaf.expect {
        Expect::Bits(bits) => got == bits,
        Expect::Nan => match leaf.scalar {
            ScalarType::F16 => half::f16::from_bits(got as u16).is_nan(),
            ScalarType::F32 => f32::from_bits(got as u32).is_nan(),
            ScalarType::F64 => f64::from_bits(got).is_nan(),
            _ => false,
        },
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} at byte {}: expected {:?}, got bits {got:#x}",
            leaf.scalar.wgsl_name(),
            leaf.at,
            leaf.expect
        ))
    }
}

/// Bytes of the layout that are components (with `elements` elements of a runtime-sized
/// array): the rest is padding.
pub fn component_mask(layout: &TypeLayout, elements: usize, len: usize) -> Vec<bool> {
    let mut mask = vec![false; len];
    mark(layout, 0, elements, &mut mask);
    mask
}

fn mark(layout: &TypeLayout, base: usize, elements: usize, mask: &mut [bool]) {
    let mut set = |at: usize, w: usize| {
        for b in mask.iter_mut().skip(at).take(w) {
            *b = true;
        }
    };
    match &layout.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => set(base, s.width() as usize),
        LayoutKind::Vector { scalar, components } => {
            set(base, scalar.width() as usize * *components as usize)
        }
        LayoutKind::Matrix {
            scalar,
            columns,
            rows,
            column_stride,
        } => {
            for c in 0..*columns as usize {
                set(
                    base + c * *column_stride as usize,
                    *rows as usize * scalar.width() as usize,
                );
            }
        }
        LayoutKind::Array {
            element,
            length,
            stride,
        } => {
            let n = length.map_or(elements, |n| n as usize);
            for i in 0..n {
                mark(element, base + i * *stride as usize, elements, mask);
            }
        }
        LayoutKind::Struct { members } => {
            for m in members.iter() {
                mark(&m.layout, base + m.offset as usize, elements, mask);
            }
        }
        _ => {}
    }
}

/// A value for `layout` chosen by the input: mostly of the right shape in one of the
/// representations the rules allow, with numbers mostly in the leaf's own type; sometimes
/// wrong (a perturbation: an arbitrary value, a missing, repeated or unknown field, a wrong
/// length). `runtime_elements` is how many elements a runtime-sized array gets.
pub fn guided(
    u: &mut Unstructured<'_>,
    layout: &TypeLayout,
    noise: u8,
    runtime_elements: usize,
) -> AResult<Value> {
    Guide {
        noise,
        runtime_elements,
    }
    .value(u, layout)
}

struct Guide {
    /// Perturbation chance per node, out of 256.
    noise: u8,
    runtime_elements: usize,
}

impl Guide {
    fn perturb(&self, u: &mut Unstructured<'_>) -> AResult<bool> {
        Ok(self.noise > 0 && u.arbitrary::<u8>()? < self.noise)
    }

    fn num(&self, u: &mut Unstructured<'_>, s: ScalarType) -> AResult<Num> {
        if self.perturb(u)? {
            return Ok(match u.int_in_range(0u8..=3)? {
                0 => Num::F32(u.arbitrary()?),
                1 => Num::F64(u.arbitrary()?),
                2 => Num::I32(u.arbitrary()?),
                _ => Num::U32(u.arbitrary()?),
            });
        }
        Ok(match s {
            ScalarType::F32 => Num::F32(f32::from_bits(u.arbitrary()?)),
            ScalarType::F16 => Num::F32(half::f16::from_bits(u.arbitrary()?).to_f32()),
            ScalarType::F64 => Num::F64(f64::from_bits(u.arbitrary()?)),
            ScalarType::I32 | ScalarType::I64 => Num::I32(u.arbitrary()?),
            ScalarType::U32 | ScalarType::U64 => Num::U32(u.arbitrary()?),
        })
    }

    /// A run of `n` numbers for leaves of type `s`, as the value variant the type suggests.
    fn run(&self, u: &mut Unstructured<'_>, s: ScalarType, n: usize) -> AResult<Value> {
        let nums: Vec<Num> = (0..n).map(|_| self.num(u, s)).collect::<AResult<_>>()?;
        // One variant per run: the first number's.
        Ok(match nums.first() {
            None => Value::F32s(Default::default()),
            Some(Num::F32(_)) | Some(Num::F64(_)) if s == ScalarType::F64 && n == 1 => {
                Value::F64(nums[0].as_f64())
            }
            Some(Num::F32(_)) | Some(Num::F64(_)) => Value::from(
                nums.iter()
                    .map(|x| match x {
                        Num::F32(x) => *x,
                        other => other.as_f64() as f32,
                    })
                    .collect::<Vec<f32>>(),
            ),
            Some(Num::I32(_)) => Value::from(
                nums.iter()
                    .map(|x| match x {
                        Num::I32(x) => *x,
                        other => other.as_f64() as i32,
                    })
                    .collect::<Vec<i32>>(),
            ),
            Some(Num::U32(_)) => Value::from(
                nums.iter()
                    .map(|x| match x {
                        Num::U32(x) => *x,
                        other => other.as_f64() as u32,
                    })
                    .collect::<Vec<u32>>(),
            ),
        })
    }

    fn scalar_value(&self, u: &mut Unstructured<'_>, s: ScalarType) -> AResult<Value> {
        Ok(match self.num(u, s)? {
            Num::F32(x) => Value::F32(x),
            Num::F64(x) => Value::F64(x),
            Num::I32(x) => Value::I32(x),
            Num::U32(x) => Value::U32(x),
        })
    }

    fn value(&self, u: &mut Unstructured<'_>, layout: &TypeLayout) -> AResult<Value> {
        if self.perturb(u)? && u.ratio(1u8, 4)? {
            let v: crate::FValue = u.arbitrary()?;
            return Ok(v.to_value(&[]));
        }
        Ok(match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => match u.int_in_range(0u8..=3)? {
                0 => self.run(u, *s, 1)?,
                _ => self.scalar_value(u, *s)?,
            },
            LayoutKind::Vector { scalar, components } => {
                let n = *components as usize;
                if u.ratio(1u8, 4)? {
                    Value::Array(
                        (0..n)
                            .map(|_| self.scalar_value(u, *scalar))
                            .collect::<AResult<_>>()?,
                    )
                } else {
                    self.run(u, *scalar, n)?
                }
            }
            LayoutKind::Matrix {
                scalar,
                columns,
                rows,
                ..
            } => {
                let (c, r) = (*columns as usize, *rows as usize);
                match u.int_in_range(0u8..=3)? {
                    0 => Value::Array(
                        (0..c)
                            .map(|_| self.run(u, *scalar, r))
                            .collect::<AResult<_>>()?,
                    ),
                    1 => Value::Array(
                        (0..c)
                            .map(|_| {
                                Ok(Value::Array(
                                    (0..r)
                                        .map(|_| self.scalar_value(u, *scalar))
                                        .collect::<AResult<_>>()?,
                                ))
                            })
                            .collect::<AResult<_>>()?,
                    ),
                    _ => self.run(u, *scalar, c * r)?,
                }
            }
            LayoutKind::Array {
                element, length, ..
            } => {
                let mut n = length.map_or(self.runtime_elements, |n| n as usize);
                if self.perturb(u)? {
                    n = u.int_in_range(0..=n + 1)?;
                }
                match (flat_count(element), leaf_scalar(element)) {
                    (Some(per), Some(s)) if u.ratio(1u8, 2)? => self.run(u, s, n * per)?,
                    _ => Value::Array(
                        (0..n)
                            .map(|_| self.value(u, element))
                            .collect::<AResult<_>>()?,
                    ),
                }
            }
            LayoutKind::Struct { members } => {
                let mut fields: Vec<(vgpu_core::FieldName, Value)> = Vec::new();
                for m in members.iter() {
                    if self.perturb(u)? && u.ratio(1u8, 2)? {
                        continue; // missing
                    }
                    fields.push((m.name.to_string().into(), self.value(u, &m.layout)?));
                }
                if self.perturb(u)? {
                    let name = if u.arbitrary()? {
                        format!("m{}", u.int_in_range(0u8..=8)?)
                    } else {
                        u.arbitrary::<String>()?
                    };
                    let v: crate::FValue = u.arbitrary()?;
                    fields.push((name.into(), v.to_value(&[])));
                }
                if fields.len() > 1 && u.ratio(1u8, 4)? {
                    // Another order (members are matched by name).
                    let k = u.int_in_range(1..=fields.len() - 1)?;
                    fields.rotate_left(k);
                }
                Value::Struct(fields)
            }
            _ => Value::F32(0.0),
        })
    }
}

/// The scalar type of a numeric-only layout's leaves.
fn leaf_scalar(layout: &TypeLayout) -> Option<ScalarType> {
    match &layout.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Some(*s),
        LayoutKind::Vector { scalar, .. } | LayoutKind::Matrix { scalar, .. } => Some(*scalar),
        LayoutKind::Array { element, .. } => leaf_scalar(element),
        _ => None,
    }
}
