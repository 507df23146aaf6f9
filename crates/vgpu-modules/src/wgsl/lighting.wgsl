// vgpu::lighting: diffuse and specular terms for direct lighting.
//
// Vectors are unit length, in any one space: `n` the surface normal, `l` towards the light,
// `v` towards the viewer. The physically based terms take the GGX width `alpha` =
// perceptual_roughness^2 (alpha in (0, 1]; clamp it to about 0.002 or more, since alpha = 0 is
// a perfect mirror whose distribution is a Dirac delta). BRDFs are per steradian; outgoing
// radiance = BRDF * light radiance * max(dot(n, l), 0).

// Private: 1 / pi.
const LIGHTING_INV_PI: f32 = 0.31830988618379067154;

// Lambert's cosine term: max(dot(n, l), 0), in [0, 1]. Multiply by the diffuse BRDF
// (`lambert_brdf`) and the light's radiance, or use it alone for non-physical shading.
fn lambert(n: vec3f, l: vec3f) -> f32 {
    return max(dot(n, l), 0.0);
}

// The Lambertian (diffuse) BRDF of a surface of reflectance `albedo` ([0, 1] per channel):
// albedo / pi, per steradian.
fn lambert_brdf(albedo: vec3f) -> vec3f {
    return albedo * LIGHTING_INV_PI;
}

// Blinn-Phong specular: max(dot(n, h), 0)^shininess with h the half vector of `l` and `v`, 0
// when the light is behind the surface. Range [0, 1], not energy-normalized (multiply by
// (shininess + 8) / (8 pi) for that). `shininess` > 0 (typical 8 to 256).
fn blinn_phong(n: vec3f, l: vec3f, v: vec3f, shininess: f32) -> f32 {
    let h = normalize(l + v);
    let spec = pow(max(dot(n, h), 0.0), shininess);
    return select(0.0, spec, dot(n, l) > 0.0);
}

// GGX (Trowbridge-Reitz) normal distribution D(h) for the cosine `n_dot_h` between the normal
// and the half vector: alpha^2 / (pi ((n.h)^2 (alpha^2 - 1) + 1)^2), per steradian. Range:
// [alpha^2 / pi, 1 / (pi alpha^2)] for n_dot_h in [0, 1] (its peak at n_dot_h = 1). The
// denominator is computed as (1 - n.h)(1 + n.h) + (n.h alpha)^2, a sum of positive terms, so
// the peak keeps full f32 precision for small alpha.
fn ggx_distribution(n_dot_h: f32, alpha: f32) -> f32 {
    let a = n_dot_h * alpha;
    let d = (1.0 - n_dot_h) * (1.0 + n_dot_h) + a * a;
    return alpha * alpha * LIGHTING_INV_PI / (d * d);
}

// Smith's height-correlated masking-shadowing G2 for GGX (Heitz 2014): 2 (n.l)(n.v) /
// ((n.l) sqrt(alpha^2 + (1 - alpha^2)(n.v)^2) + (n.v) sqrt(alpha^2 + (1 - alpha^2)(n.l)^2)),
// for cosines in (0, 1]. Range [0, 1] (1 at normal incidence, 0 at grazing). Unitless.
fn smith_ggx_correlated(n_dot_v: f32, n_dot_l: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let term_v = n_dot_l * sqrt(a2 + (1.0 - a2) * n_dot_v * n_dot_v);
    let term_l = n_dot_v * sqrt(a2 + (1.0 - a2) * n_dot_l * n_dot_l);
    return 2.0 * n_dot_l * n_dot_v / (term_v + term_l);
}

// The visibility term V = G2 / (4 (n.l)(n.v)) of `smith_ggx_correlated`: 0.5 / ((n.l)
// sqrt(alpha^2 + (1 - alpha^2)(n.v)^2) + (n.v) sqrt(alpha^2 + (1 - alpha^2)(n.l)^2)), for
// cosines in (0, 1]. Range (0, 0.5 / alpha]; finite at grazing angles (the 1 / (n.l)(n.v) of the
// BRDF cancelled). Unitless.
fn smith_ggx_visibility(n_dot_v: f32, n_dot_l: f32, alpha: f32) -> f32 {
    let a2 = alpha * alpha;
    let term_v = n_dot_l * sqrt(a2 + (1.0 - a2) * n_dot_v * n_dot_v);
    let term_l = n_dot_v * sqrt(a2 + (1.0 - a2) * n_dot_l * n_dot_l);
    return 0.5 / (term_v + term_l);
}

// Schlick's Fresnel approximation: f0 + (1 - f0)(1 - cos_theta)^5, with `f0` the reflectance at
// normal incidence (about 0.04 for dielectrics, the base color for metals) and `cos_theta` the
// cosine between the view (or light) vector and the half vector, in [0, 1]. Range [f0, 1].
fn fresnel_schlick(cos_theta: f32, f0: vec3f) -> vec3f {
    let m = clamp(1.0 - cos_theta, 0.0, 1.0);
    let m2 = m * m;
    return f0 + (1.0 - f0) * (m2 * m2 * m);
}

// The Cook-Torrance specular BRDF with GGX: D(h) V(v, l) F(v.h) (`ggx_distribution`,
// `smith_ggx_visibility`, `fresnel_schlick`), per steradian; 0 when `l` or `v` is below the
// surface. Range [0, inf) (large for small alpha at the mirror direction).
fn cook_torrance_ggx(n: vec3f, v: vec3f, l: vec3f, alpha: f32, f0: vec3f) -> vec3f {
    let n_dot_l = dot(n, l);
    let n_dot_v = dot(n, v);
    if n_dot_l <= 0.0 || n_dot_v <= 0.0 {
        return vec3f(0.0);
    }
    let h = normalize(v + l);
    let d = ggx_distribution(max(dot(n, h), 0.0), alpha);
    let vis = smith_ggx_visibility(n_dot_v, n_dot_l, alpha);
    return d * vis * fresnel_schlick(max(dot(v, h), 0.0), f0);
}
