//! IEEE 754 half floats (`f16` bits in a `u16`) to and from `f32`, for `*16Float` texels: read
//! back as `f32`s, HDR images written into `Rgba16Float` textures.

/// `x` as the bits of the nearest half float (round to nearest even; overflow to infinity,
/// NaN kept NaN).
#[cfg_attr(
    not(any(feature = "image", test)),
    expect(
        dead_code,
        reason = "only HDR images (the `image` feature) write half floats"
    )
)]
pub(crate) fn f32_to_f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x007f_ffff;
    if exp == 0xff {
        // Infinity or NaN (a NaN keeps a mantissa bit).
        return sign | 0x7c00 | if mant != 0 { 0x0200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal half (or zero): shift the mantissa with its implicit bit in.
        if e < -10 {
            return sign;
        }
        let m = mant | 0x0080_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        let round = rest > halfway || (rest == halfway && half & 1 == 1);
        return sign | (half + u32::from(round)) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rest = mant & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    // A carry out of the mantissa rounds into the exponent (up to infinity), as it should.
    sign | (half + u32::from(round)) as u16
}

/// The `f32` a half float's bits hold (exactly).
pub(crate) fn f16_bits_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let mant = u32::from(h & 0x03ff);
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: normalize.
            // `lead`: how far the top set bit sits below bit 9.
            let lead = m.leading_zeros() - 22;
            let m = (m << (lead + 1)) & 0x03ff;
            sign | ((112 - lead) << 23) | (m << 13)
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_half() {
        for h in 0..=u16::MAX {
            let f = f16_bits_to_f32(h);
            if f.is_nan() {
                assert!(f16_bits_to_f32(f32_to_f16_bits(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16_bits(f), h, "{h:#06x} -> {f}");
            }
        }
    }

    #[test]
    fn rounds_to_nearest() {
        assert_eq!(f32_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f32_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f32_to_f16_bits(1.0e6), 0x7c00);
        assert_eq!(f32_to_f16_bits(1.0 + 1.0 / 4096.0), 0x3c00);
        assert_eq!(f32_to_f16_bits(1.0 + 3.0 / 4096.0), 0x3c01);
    }
}
