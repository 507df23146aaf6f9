// vgpu::color: sRGB transfer functions, HSV, luminance and tone mapping.
//
// "Linear" is linear-light Rec. 709 / sRGB primaries (what lighting computes and what an
// `*UnormSrgb` target expects its shader to output); "sRGB" is the gamma-encoded value (what an
// 8-bit image file or a non-sRGB `Unorm` target stores). Colors are relative: 1.0 is the
// display's white (tone mappers take scene-referred values above 1).

// sRGB-encoded channel to linear, the exact piecewise IEC 61966-2-1 curve: c / 12.92 up to
// 0.04045, ((c + 0.055) / 1.055)^2.4 above. [0, 1] -> [0, 1]; monotonic, defined (linear
// branch) for c < 0 too.
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        return c / 12.92;
    }
    return pow((c + 0.055) / 1.055, 2.4);
}

// Linear channel to sRGB-encoded, the exact piecewise IEC 61966-2-1 curve: 12.92 c up to
// 0.0031308, 1.055 c^(1/2.4) - 0.055 above. [0, 1] -> [0, 1]; monotonic, defined (linear
// branch) for c < 0 too.
fn linear_to_srgb(c: f32) -> f32 {
    if c <= 0.0031308 {
        return c * 12.92;
    }
    return 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

// `srgb_to_linear` of each channel of an sRGB-encoded color. [0, 1]^3 -> [0, 1]^3.
fn srgb_to_linear3(c: vec3f) -> vec3f {
    let low = c / 12.92;
    let high = pow((max(c, vec3f(0.04045)) + 0.055) / 1.055, vec3f(2.4));
    return select(high, low, c <= vec3f(0.04045));
}

// `linear_to_srgb` of each channel of a linear color. [0, 1]^3 -> [0, 1]^3.
fn linear_to_srgb3(c: vec3f) -> vec3f {
    let low = c * 12.92;
    let high = 1.055 * pow(max(c, vec3f(0.0031308)), vec3f(1.0 / 2.4)) - 0.055;
    return select(high, low, c <= vec3f(0.0031308));
}

// RGB to HSV: hue as a fraction of a turn in [0, 1) (0 red, 1/3 green, 2/3 blue), saturation
// and value in [0, 1] for an RGB in [0, 1]^3 (value = the largest channel). Greys have hue 0
// and saturation 0. Works on linear or sRGB values alike (HSV is a reparametrization).
fn rgb_to_hsv(c: vec3f) -> vec3f {
    let hi = max(c.r, max(c.g, c.b));
    let lo = min(c.r, min(c.g, c.b));
    let d = hi - lo;
    var h = 0.0;
    if d > 0.0 {
        if hi == c.r {
            h = (c.g - c.b) / d;
        } else if hi == c.g {
            h = (c.b - c.r) / d + 2.0;
        } else {
            h = (c.r - c.g) / d + 4.0;
        }
        h = h / 6.0;
        if h < 0.0 {
            h += 1.0;
        }
        if h >= 1.0 {
            h -= 1.0;
        }
    }
    let s = select(0.0, d / hi, hi > 0.0);
    return vec3f(h, s, hi);
}

// HSV to RGB, the inverse of `rgb_to_hsv`: hue in turns (any value, taken modulo 1),
// saturation and value in [0, 1]. Range: [0, value]^3.
fn hsv_to_rgb(hsv: vec3f) -> vec3f {
    let n = vec3f(5.0, 3.0, 1.0) + hsv.x * 6.0;
    let k = n - 6.0 * floor(n / 6.0);
    let ramp = clamp(min(k, 4.0 - k), vec3f(0.0), vec3f(1.0));
    return hsv.z - hsv.z * hsv.y * ramp;
}

// Relative luminance Y of a linear Rec. 709 color: 0.2126 R + 0.7152 G + 0.0722 B. Same units
// as the input ([0, 1] in, [0, 1] out).
fn luminance(c: vec3f) -> f32 {
    return dot(c, vec3f(0.2126, 0.7152, 0.0722));
}

// Reinhard tone mapping per channel: c / (1 + c). [0, inf) -> [0, 1); linear in, linear out.
fn tonemap_reinhard(c: vec3f) -> vec3f {
    return c / (1.0 + c);
}

// Extended Reinhard tone mapping per channel with white point `white` (> 0): c (1 + c / white^2)
// / (1 + c). Maps `white` to exactly 1; [0, white] -> [0, 1]; linear in, linear out.
fn tonemap_reinhard_extended(c: vec3f, white: f32) -> vec3f {
    return c * (1.0 + c / (white * white)) / (1.0 + c);
}

// ACES filmic tone mapping, Narkowicz's 2015 fit of the ACES RRT + ODT curve: clamp to [0, 1]
// of x (2.51 x + 0.03) / (x (2.43 x + 0.59) + 0.14), per channel. [0, inf) -> [0, 1]; linear
// in (exposure already applied), linear out (encode with `linear_to_srgb3` for a Unorm target).
fn tonemap_aces(c: vec3f) -> vec3f {
    let x = max(c, vec3f(0.0));
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), vec3f(0.0), vec3f(1.0));
}
