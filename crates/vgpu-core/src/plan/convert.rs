//! One number of a [`Value`] as a scalar's bytes: flat sources of components, strict
//! conversions (integers integral and in range, floats in range) and f16 rounding.

use crate::layout::ScalarType;
use crate::value::{Value, fmt_float};

/// A flat source of components, borrowed from a [`Value`].
#[derive(Clone, Copy)]
pub(super) enum Src<'v> {
    F32(&'v [f32]),
    F64(&'v [f64]),
    I32(&'v [i32]),
    U32(&'v [u32]),
}

impl<'v> Src<'v> {
    /// The components of a number or numeric run; `None` for anything else.
    #[inline]
    pub(super) fn of(v: &'v Value) -> Option<Self> {
        Some(match v {
            Value::F32(x) => Src::F32(std::slice::from_ref(x)),
            Value::F64(x) => Src::F64(std::slice::from_ref(x)),
            Value::I32(x) => Src::I32(std::slice::from_ref(x)),
            Value::U32(x) => Src::U32(std::slice::from_ref(x)),
            Value::F32s(s) => Src::F32(s),
            Value::I32s(s) => Src::I32(s),
            Value::U32s(s) => Src::U32(s),
            _ => return None,
        })
    }
    /// Number of components.
    #[inline]
    pub(super) fn len(self) -> usize {
        match self {
            Src::F32(s) => s.len(),
            Src::F64(s) => s.len(),
            Src::I32(s) => s.len(),
            Src::U32(s) => s.len(),
        }
    }
    /// Component `i`.
    pub(super) fn get(self, i: usize) -> Option<Num> {
        Some(match self {
            Src::F32(s) => Num::F32(*s.get(i)?),
            Src::F64(s) => Num::F64(*s.get(i)?),
            Src::I32(s) => Num::I32(*s.get(i)?),
            Src::U32(s) => Num::U32(*s.get(i)?),
        })
    }
}

/// One component of a [`Src`].
#[derive(Clone, Copy)]
pub(super) enum Num {
    F32(f32),
    F64(f64),
    I32(i32),
    U32(u32),
}

impl Num {
    /// The number with its type, for messages (`f32 1.5`).
    pub(super) fn describe(self) -> String {
        match self {
            Num::F32(x) => format!("f32 {}", fmt_float(f64::from(x))),
            Num::F64(x) => format!("f64 {}", fmt_float(x)),
            Num::I32(x) => format!("i32 {x}"),
            Num::U32(x) => format!("u32 {x}"),
        }
    }
    /// The exact value as f64 (every f32, i32 and u32 is exactly representable).
    fn as_f64(self) -> f64 {
        match self {
            Num::F32(x) => f64::from(x),
            Num::F64(x) => x,
            Num::I32(x) => f64::from(x),
            Num::U32(x) => f64::from(x),
        }
    }
    fn is_int(self) -> bool {
        matches!(self, Num::I32(_) | Num::U32(_))
    }
}

/// Converts one component to `scalar`'s bytes (native endian, `width` bytes used), or returns
/// what was expected.
pub(super) fn convert(num: Num, scalar: ScalarType) -> Result<[u8; 8], String> {
    let mut b = [0u8; 8];
    match scalar {
        ScalarType::F32 => {
            let x = match num {
                Num::F32(x) => x,
                _ => {
                    let v = num.as_f64();
                    if v.is_finite() && v.abs() > f64::from(f32::MAX) {
                        return Err("a number in f32 range (|x| ≤ 3.4028235e38)".to_owned());
                    }
                    let x = v as f32;
                    if num.is_int() && f64::from(x) != v {
                        return Err(
                            "an integer exactly representable as f32 (|x| ≤ 16777216)".to_owned()
                        );
                    }
                    x
                }
            };
            b[..4].copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::F16 => {
            let v = num.as_f64();
            if v.is_finite() && v.abs() > 65504.0 {
                return Err("a number in f16 range (|x| ≤ 65504)".to_owned());
            }
            let h = f32_to_f16_bits(v as f32);
            if num.is_int() && f64::from(f16_bits_to_f32(h)) != v {
                return Err("an integer exactly representable as f16 (|x| ≤ 2048)".to_owned());
            }
            b[..2].copy_from_slice(&h.to_ne_bytes());
        }
        ScalarType::F64 => b.copy_from_slice(&num.as_f64().to_ne_bytes()),
        ScalarType::I32 => {
            let x = match num {
                Num::I32(x) => x,
                Num::U32(x) => i32::try_from(x)
                    .map_err(|_| int_range("i32", i32::MIN.into(), i32::MAX.into()))?,
                _ => float_to_int(num.as_f64(), i32::MIN.into(), i32::MAX.into(), "i32")? as i32,
            };
            b[..4].copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::U32 => {
            let x = match num {
                Num::U32(x) => x,
                Num::I32(x) => {
                    u32::try_from(x).map_err(|_| int_range("u32", 0, u32::MAX.into()))?
                }
                _ => float_to_int(num.as_f64(), 0, u32::MAX.into(), "u32")? as u32,
            };
            b[..4].copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::I64 => {
            let x: i64 = match num {
                Num::I32(x) => x.into(),
                Num::U32(x) => x.into(),
                _ => float_to_int(num.as_f64(), i64::MIN.into(), i64::MAX.into(), "i64")? as i64,
            };
            b.copy_from_slice(&x.to_ne_bytes());
        }
        ScalarType::U64 => {
            let x: u64 = match num {
                Num::U32(x) => x.into(),
                Num::I32(x) => {
                    u64::try_from(x).map_err(|_| int_range("u64", 0, u64::MAX.into()))?
                }
                _ => float_to_int(num.as_f64(), 0, u64::MAX.into(), "u64")? as u64,
            };
            b.copy_from_slice(&x.to_ne_bytes());
        }
    }
    Ok(b)
}

fn int_range(name: &str, min: i128, max: i128) -> String {
    format!("an integer in {min}..={max} ({name})")
}

/// A float given for an integer field: must be finite, integral and in range.
fn float_to_int(v: f64, min: i128, max: i128, name: &str) -> Result<i128, String> {
    // `max as f64` rounds up for 64-bit types; compare with `<` against 2^k so the cast below
    // cannot saturate.
    let (lo, hi) = (min as f64, max as f64 + 1.0);
    if !v.is_finite() || v.fract() != 0.0 || v < lo || v >= hi {
        return Err(int_range(name, min, max));
    }
    Ok(v as i128)
}

/// `x` as the bits of an IEEE 754 half float (binary16): round to nearest even, overflow to
/// infinity, NaN kept NaN. What `f16` members and `*16Float` texels hold.
pub fn f32_to_f16_bits(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let man = b & 0x7f_ffff;
    if exp == 0xff {
        let nan = if man != 0 {
            0x200 | (man >> 13) as u16
        } else {
            0
        };
        return sign | 0x7c00 | nan;
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rem = m & ((1u32 << shift) - 1);
        let mut r = m >> shift;
        if rem > half || (rem == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r as u16;
    }
    let mut r = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r as u16
}

/// The `f32` an IEEE 754 half float's bits hold (exactly).
pub fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: value = man × 2^-24.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, _) => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_conversion_round_trips_and_rounds_to_even() {
        for h in 0u16..=0xffff {
            let f = f16_bits_to_f32(h);
            if f.is_nan() {
                assert!(f32_to_f16_bits(f) & 0x7c00 == 0x7c00 && f32_to_f16_bits(f) & 0x3ff != 0);
            } else {
                assert_eq!(f32_to_f16_bits(f), h, "bits {h:#06x} -> {f}");
            }
        }
        // 1 + 2^-11 is halfway between 1 and the next f16: ties to even (1.0).
        assert_eq!(f32_to_f16_bits(1.0 + f32::powi(2.0, -11)), 0x3c00);
        // 1 + 3 × 2^-11 is halfway between two f16s with an odd lower one: rounds up.
        assert_eq!(f32_to_f16_bits(1.0 + 3.0 * f32::powi(2.0, -11)), 0x3c02);
        assert_eq!(f32_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f32_to_f16_bits(1e-9), 0);
    }

    #[test]
    fn float_to_int_is_strict() {
        assert_eq!(float_to_int(3.0, 0, u32::MAX.into(), "u32"), Ok(3));
        assert!(float_to_int(-1.0, 0, u32::MAX.into(), "u32").is_err());
        assert!(float_to_int(1.5, 0, u32::MAX.into(), "u32").is_err());
        assert!(float_to_int(f64::NAN, 0, u32::MAX.into(), "u32").is_err());
        assert!(float_to_int(4294967296.0, 0, u32::MAX.into(), "u32").is_err());
        assert_eq!(
            float_to_int(4294967295.0, 0, u32::MAX.into(), "u32"),
            Ok(4294967295)
        );
        assert!(float_to_int(9.3e18, i64::MIN.into(), i64::MAX.into(), "i64").is_err());
    }
}
