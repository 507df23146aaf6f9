//! Tier 0 (pure CPU): strict packing of values into host-shareable bytes. Every validation rule
//! has a test asserting the error code, the path, the expected and the actual.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use vgpu_core::{ErrorCode, PackContext, SetError, Shader, Value, WritePlan, value};

const CTX: PackContext<'static> = PackContext::new("draw#7", "u");

/// The plan of binding `u` of `decls` + `var<space> u: ty`.
fn plan(decls: &str, space: &str, ty: &str) -> Arc<WritePlan> {
    plan_f(decls, space, ty, wgpu::Features::empty())
}

fn plan_f(decls: &str, space: &str, ty: &str, features: wgpu::Features) -> Arc<WritePlan> {
    let src = format!("{decls}\n@group(0) @binding(0) var<{space}> u: {ty};\n");
    let s = Shader::with_features("t.wgsl", &src, features).unwrap_or_else(|e| panic!("{e}"));
    s.binding("u").unwrap().plan.clone().unwrap()
}

/// Packs into a buffer prefilled with 0xAA (so unzeroed padding would show).
fn pack(plan: &WritePlan, v: &Value) -> Vec<u8> {
    let mut dst = vec![0xAA; plan.size()];
    let n = plan
        .pack(v, &mut dst, &CTX)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, plan.size());
    dst
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// (code, path, expected, actual, hint) of a pack error.
fn invalid(plan: &WritePlan, v: &Value) -> (String, String, String, String, Option<String>) {
    let mut dst = vec![0x55; plan.size().max(64)];
    let before = dst.clone();
    let err = plan.pack(v, &mut dst, &CTX).unwrap_err();
    assert_eq!(dst, before, "a rejected value must not write anything");
    let code = err.code().to_owned();
    let shown = err.to_string();
    assert!(shown.starts_with(&code), "{shown}");
    match err {
        SetError::ValueInvalid {
            label,
            binding,
            path,
            expected,
            actual,
            hint,
        } => {
            assert_eq!((&*label, &*binding), ("draw#7", "u"));
            assert!(
                shown.contains(&*path) && shown.contains(&*expected) && shown.contains(&*actual)
            );
            (
                code,
                path.into(),
                expected.into(),
                actual.into(),
                hint.map(Into::into),
            )
        }
        other => panic!("unexpected {other}"),
    }
}

const OBJECT: &str = "struct Object { world: mat4x4<f32> }";

#[test]
fn mat4_struct_packs_the_matrix_column_major() {
    let p = plan(OBJECT, "uniform", "Object");
    let cols = [
        [1.0f32, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0, 12.0],
        [13.0, 14.0, 15.0, 16.0],
    ];
    let bytes = pack(&p, &value! { world: cols });
    assert_eq!(bytes, bytemuck::cast_slice::<f32, u8>(cols.as_flattened()));
    // The same from a flat [f32; 16] and from four column vectors.
    let flat: [f32; 16] = bytemuck::cast(cols);
    assert_eq!(pack(&p, &value! { world: flat }), bytes);
    let columns = Value::array(cols.map(Value::from));
    assert_eq!(pack(&p, &value! { world: columns }), bytes);
}

#[test]
fn vec3_then_scalar_and_padding_is_zeroed() {
    let p = plan(
        "struct S { a: f32, b: vec3<f32>, c: u32, d: vec2<f32> }",
        "uniform",
        "S",
    );
    // a @0, b @16, c @28, d @32, size 48.
    assert_eq!(p.size(), 48);
    let b = pack(
        &p,
        &value! { a: 1.5, b: [2.0, 3.0, 4.0], c: 7u32, d: [5.0, 6.0] },
    );
    assert_eq!(
        words(&b),
        [
            f(1.5),
            0,
            0,
            0,
            f(2.0),
            f(3.0),
            f(4.0),
            7,
            f(5.0),
            f(6.0),
            0,
            0
        ]
    );
}

#[test]
fn matrices_with_padded_columns() {
    let p = plan(
        "struct S { m: mat3x3<f32>, n: mat2x3<f32> }",
        "uniform",
        "S",
    );
    let m = [[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
    let n = [[10.0f32, 11.0, 12.0], [13.0, 14.0, 15.0]];
    let b = pack(&p, &value! { m: m, n: n });
    let mut expected = Vec::new();
    for c in m.iter().chain(n.iter()) {
        expected.extend(c.iter().map(|x| f(*x)));
        expected.push(0);
    }
    assert_eq!(words(&b), expected);
    // Columns given one by one give the same bytes.
    let m_cols = Value::array(m.map(Value::from));
    assert_eq!(pack(&p, &value! { m: m_cols, n: n }), b);
}

#[test]
fn arrays_of_vec3_and_of_structs_nested_structs() {
    let p = plan(
        "struct Light { pos: vec3<f32>, intensity: f32, color: vec3<f32> }\n\
         struct Inner { k: vec2<u32> }\n\
         struct S { lights: array<Light, 2>, dirs: array<vec3<f32>, 2>, inner: Inner, tail: i32 }",
        "storage",
        "S",
    );
    // Light: pos @0, intensity @12, color @16; size 32. lights @0 (stride 32), dirs @64
    // (stride 16), inner @96 (size 8, align 8), tail @104; size roundUp(16, 108) = 112.
    assert_eq!(p.size(), 112);
    let v = value! {
        lights: [
            value! { pos: [1.0, 2.0, 3.0], intensity: 4.0, color: [5.0, 6.0, 7.0] },
            value! { pos: [8.0, 9.0, 10.0], intensity: 11.0, color: [12.0, 13.0, 14.0] },
        ],
        dirs: [[0.5f32, 0.25, 0.125], [1.0, 2.0, 4.0]],
        inner: { k: [3u32, 4] },
        tail: -2,
    };
    let w = words(&pack(&p, &v));
    let expected: Vec<u32> = [
        f(1.0),
        f(2.0),
        f(3.0),
        f(4.0),
        f(5.0),
        f(6.0),
        f(7.0),
        0,
        f(8.0),
        f(9.0),
        f(10.0),
        f(11.0),
        f(12.0),
        f(13.0),
        f(14.0),
        0,
        f(0.5),
        f(0.25),
        f(0.125),
        0,
        f(1.0),
        f(2.0),
        f(4.0),
        0,
        3,
        4,
        (-2i32) as u32,
        0,
    ]
    .to_vec();
    assert_eq!(w, expected);
    // The array of vec3 as separate values: same bytes.
    let mut v2 = v.clone();
    v2.set_field(
        "dirs",
        Value::array([Value::vec3(0.5, 0.25, 0.125), Value::vec3(1.0, 2.0, 4.0)]),
    );
    assert_eq!(words(&pack(&p, &v2)), expected);
}

#[test]
fn fields_in_any_order_and_builder() {
    let p = plan("struct S { a: f32, b: u32, c: vec2<f32> }", "uniform", "S");
    let in_order = pack(&p, &value! { a: 1.0, b: 2u32, c: [3.0, 4.0] });
    let shuffled = pack(&p, &value! { c: [3.0, 4.0], a: 1.0, b: 2u32 });
    let built = pack(
        &p,
        &Value::structure()
            .field("b", 2u32)
            .field("c", [3.0f32, 4.0])
            .field(String::from("a"), 1.0f32)
            .build(),
    );
    assert_eq!(in_order, shuffled);
    assert_eq!(in_order, built);
}

#[test]
fn integer_and_float_conversions_that_are_exact_are_accepted() {
    let p = plan(
        "struct S { u: u32, i: i32, x: f32, v: vec2<u32> }",
        "uniform",
        "S",
    );
    let b = pack(&p, &value! { u: 3.0, i: -4.0, x: 5, v: [6, 7] });
    assert_eq!(words(&b), [3, (-4i32) as u32, f(5.0), 0, 6, 7]);
    let b = pack(
        &p,
        &value! { u: Value::F64(4294967295.0), i: 2147483647u32, x: Value::F64(0.1), v: [0u32, 1] },
    );
    assert_eq!(words(&b)[..3], [u32::MAX, i32::MAX as u32, f(0.1)]);
}

#[test]
fn runtime_sized_arrays_pack_as_many_elements_as_given() {
    let p = plan(
        "struct P { pos: vec3<f32>, mass: f32 }\nstruct S { count: u32, ps: array<P> }",
        "storage",
        "S",
    );
    assert_eq!(
        p.runtime_array().map(|r| (r.offset, r.stride)),
        Some((16, 16))
    );
    let v = value! {
        count: 3u32,
        ps: [
            value! { pos: [1.0, 2.0, 3.0], mass: 4.0 },
            value! { pos: [5.0, 6.0, 7.0], mass: 8.0 },
            value! { pos: [9.0, 10.0, 11.0], mass: 12.0 },
        ],
    };
    assert_eq!(p.packed_size(&v, &CTX).unwrap(), 16 + 3 * 16);
    let mut dst = vec![0xAA; 100];
    assert_eq!(p.pack(&v, &mut dst, &CTX).unwrap(), 64);
    assert_eq!(
        words(&dst[..64])[..8],
        [3, 0, 0, 0, f(1.0), f(2.0), f(3.0), f(4.0)]
    );
    assert!(
        dst[64..].iter().all(|&b| b == 0xAA),
        "bytes past the value are untouched"
    );

    // Too small a destination.
    let mut small = vec![0u8; 40];
    let err = p.pack(&v, &mut small, &CTX).unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-DEST-SIZE");
    let SetError::DestinationSize {
        expected, actual, ..
    } = err
    else {
        panic!()
    };
    assert_eq!((expected, actual), (64, 40));
    assert!(small.iter().all(|&b| b == 0));

    // A top-level runtime array of f32 from a flat run: one copy.
    let p = plan("", "storage", "array<f32>");
    let mut dst = vec![0u8; 20];
    assert_eq!(
        p.pack(&Value::from(vec![1.0f32, 2.0, 3.0]), &mut dst, &CTX)
            .unwrap(),
        12
    );
    assert_eq!(words(&dst), [f(1.0), f(2.0), f(3.0), 0, 0]);
    // Runtime array of vec3: flat components must be a multiple of 3.
    let p = plan("", "storage", "array<vec3<f32>>");
    let (code, path, expected, actual, _) = invalid(&p, &Value::from(vec![1.0f32; 7]));
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$");
    assert_eq!(
        expected,
        "array<vec3<f32>> (a multiple of 3 f32 components)"
    );
    assert_eq!(actual, "7 f32 components");
}

#[test]
fn atomics_pack_as_their_scalar() {
    let p = plan(
        "struct S { counter: atomic<u32>, values: array<atomic<i32>, 3> }",
        "storage, read_write",
        "S",
    );
    let b = pack(&p, &value! { counter: 9u32, values: [-1, 0, 1] });
    assert_eq!(words(&b), [9, u32::MAX, 0, 1]);
}

#[test]
fn f16_fields_are_converted_and_range_checked() {
    let p = plan_f(
        "enable f16;\nstruct S { a: f16, b: vec3<f16>, c: f16 }",
        "storage",
        "S",
        wgpu::Features::SHADER_F16,
    );
    let b = pack(&p, &value! { a: 1.0, b: [0.5, -2.0, 65504.0], c: 3 });
    let h: Vec<u16> = b
        .chunks_exact(2)
        .map(|c| u16::from_ne_bytes([c[0], c[1]]))
        .collect();
    // a @0, pad @2..8, b @8..14, c @14.
    assert_eq!(h, [0x3c00, 0, 0, 0, 0x3800, 0xc000, 0x7bff, 0x4200]);

    let (code, path, expected, actual, _) =
        invalid(&p, &value! { a: 1.0, b: [0.5, 70000.0, 1.0], c: 3 });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.b[1]");
    assert_eq!(expected, "a number in f16 range (|x| ≤ 65504)");
    assert_eq!(actual, "f32 70000");
    // An integer that f16 cannot hold exactly.
    let (code, path, expected, actual, _) =
        invalid(&p, &value! { a: 1.0, b: [0.5, 1.0, 1.0], c: 4097 });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.c");
    assert_eq!(
        expected,
        "an integer exactly representable as f16 (|x| ≤ 2048)"
    );
    assert_eq!(actual, "i32 4097");
}

#[test]
fn wrong_vector_length() {
    let p = plan("struct S { color: vec3<f32> }", "uniform", "S");
    let (code, path, expected, actual, hint) = invalid(&p, &value! { color: [1.0, 0.0, 0.0, 1.0] });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.color");
    assert_eq!(expected, "vec3<f32> (3 f32 components)");
    assert_eq!(actual, "4 f32 components");
    assert_eq!(hint, None);
    // A scalar where a vector is expected.
    let (_, path, expected, actual, _) = invalid(&p, &value! { color: 1.0 });
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        ("$.color", "vec3<f32> (3 f32 components)", "f32 1")
    );
    // A vector given as an array of the wrong length.
    let (_, _, expected, actual, _) = invalid(&p, &value! { color: Value::array([1.0f32, 2.0]) });
    assert_eq!(
        (expected.as_str(), actual.as_str()),
        ("vec3<f32> (3 f32 components)", "an array of 2 values")
    );
}

#[test]
fn wrong_matrix_shape() {
    let p = plan(OBJECT, "uniform", "Object");
    let (code, path, expected, actual, _) = invalid(&p, &value! { world: [1.0f32; 12] });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.world");
    assert_eq!(
        expected,
        "mat4x4<f32> (16 f32 components, column-major, or 4 columns of 4)"
    );
    assert_eq!(actual, "12 f32 components");
    // Four columns, one of them short: the path names the column.
    let cols = Value::array([
        Value::vec4(1.0, 0.0, 0.0, 0.0),
        Value::vec4(0.0, 1.0, 0.0, 0.0),
        Value::vec3(0.0, 0.0, 1.0),
        Value::vec4(0.0, 0.0, 0.0, 1.0),
    ]);
    let (_, path, expected, actual, _) = invalid(&p, &value! { world: cols });
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        ("$.world[2]", "vec4<f32> (4 components)", "3 f32 components")
    );
}

#[test]
fn wrong_fixed_array_length() {
    let p = plan(
        "struct L { color: vec3<f32> }\nstruct S { lights: array<L, 2> }",
        "uniform",
        "S",
    );
    let l = || value! { color: [1.0, 1.0, 1.0] };
    let (code, path, expected, actual, _) = invalid(&p, &value! { lights: [l(), l(), l()] });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.lights");
    assert_eq!(expected, "array<L, 2> (2 elements)");
    assert_eq!(actual, "an array of 3 values");
    // Flat components for an array of structs are not accepted.
    let (_, path, expected, actual, _) = invalid(&p, &value! { lights: [1.0f32; 6] });
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        ("$.lights", "array<L, 2> (an array)", "6 f32 components")
    );
    // Flat components for an array of scalars must be exactly N.
    let p = plan("struct S { xs: array<u32, 3> }", "storage", "S");
    let (_, path, expected, actual, _) = invalid(&p, &value! { xs: [1u32, 2] });
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        (
            "$.xs",
            "array<u32, 3> (3 u32 components)",
            "2 u32 components"
        )
    );
}

#[test]
fn nested_path_names_the_element_and_member() {
    let p = plan(
        "struct L { pos: vec3<f32>, color: vec3<f32> }\nstruct S { lights: array<L, 2> }",
        "uniform",
        "S",
    );
    let v = value! {
        lights: [
            value! { pos: [0.0, 0.0, 0.0], color: [1.0, 1.0, 1.0] },
            value! { pos: [0.0, 0.0, 0.0], color: [1.0, 1.0] },
        ],
    };
    let (code, path, expected, actual, _) = invalid(&p, &v);
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.lights[1].color");
    assert_eq!(expected, "vec3<f32> (3 f32 components)");
    assert_eq!(actual, "2 f32 components");
}

#[test]
fn missing_field() {
    let p = plan(
        "struct S { world: mat4x4<f32>, color: vec4<f32> }",
        "uniform",
        "S",
    );
    let (code, path, expected, actual, hint) = invalid(&p, &value! { world: [[0.0f32; 4]; 4] });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.color");
    assert_eq!(expected, "a value of type vec4<f32>");
    assert_eq!(actual, "nothing (missing field)");
    // The way to set some fields in the user's API, not an internal one.
    let hint = hint.expect("a hint");
    assert!(hint.contains("value! { color: … }"), "{hint}");
    assert!(hint.contains(r#"draw.set("color", …)"#), "{hint}");
    assert!(!hint.contains("pack_partial"), "{hint}");
}

#[test]
fn unknown_field_with_did_you_mean() {
    let p = plan(
        "struct S { world: mat4x4<f32>, color: vec4<f32> }",
        "uniform",
        "S",
    );
    let v = value! { world: [[0.0f32; 4]; 4], colr: [1.0, 0.0, 0.0, 1.0] };
    let (code, path, expected, actual, hint) = invalid(&p, &v);
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.colr");
    assert_eq!(
        expected,
        "a member of struct S { world: mat4x4<f32>, color: vec4<f32> }"
    );
    assert_eq!(actual, "unknown field `colr`");
    assert_eq!(hint.as_deref(), Some("did you mean `color`?"));
    // Nothing close: no hint.
    let v = value! { world: [[0.0f32; 4]; 4], zzzzzzzz: 1.0 };
    assert_eq!(invalid(&p, &v).4, None);
}

#[test]
fn duplicate_field() {
    let p = plan("struct S { a: f32, b: f32 }", "uniform", "S");
    let (code, path, expected, actual, _) = invalid(&p, &value! { a: 1.0, a: 2.0, b: 3.0 });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.a");
    assert_eq!(expected, "one value per member");
    assert_eq!(actual, "field `a` given twice");
}

#[test]
fn struct_where_scalar_expected_and_vice_versa() {
    let p = plan(
        "struct In { x: f32 }\nstruct S { a: f32, inner: In }",
        "storage",
        "S",
    );
    let (code, path, expected, actual, _) =
        invalid(&p, &value! { a: { x: 1.0 }, inner: { x: 1.0 } });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.a");
    assert_eq!(expected, "f32 (a number)");
    assert_eq!(actual, "a struct {x}");
    let (_, path, expected, actual, _) = invalid(&p, &value! { a: 1.0, inner: 2.0 });
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        ("$.inner", "struct In { x: f32 }", "f32 2")
    );
    // The root itself must be a struct.
    let (_, path, _, actual, _) = invalid(&p, &Value::F32(1.0));
    assert_eq!((path.as_str(), actual.as_str()), ("$", "f32 1"));
}

#[test]
fn non_integral_float_for_integer() {
    let p = plan("struct S { count: u32, offset: i32 }", "uniform", "S");
    let (code, path, expected, actual, _) = invalid(&p, &value! { count: 1.5, offset: 0 });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.count");
    assert_eq!(expected, "an integer in 0..=4294967295 (u32)");
    assert_eq!(actual, "f32 1.5");
}

#[test]
fn nan_and_infinity_for_integer() {
    let p = plan("struct S { count: u32, offset: i32 }", "uniform", "S");
    let (code, path, expected, actual, _) = invalid(&p, &value! { count: 1u32, offset: f32::NAN });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.offset");
    assert_eq!(expected, "an integer in -2147483648..=2147483647 (i32)");
    assert_eq!(actual, "f32 NaN");
    let (_, _, _, actual, _) = invalid(&p, &value! { count: f32::INFINITY, offset: 0 });
    assert_eq!(actual, "f32 inf");
}

#[test]
fn out_of_range_integers() {
    let p = plan(
        "struct S { count: u32, offset: i32, v: vec2<i32> }",
        "uniform",
        "S",
    );
    let (code, path, expected, actual, _) = invalid(
        &p,
        &value! { count: Value::F64(1e40), offset: 0, v: [0, 0] },
    );
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.count");
    assert_eq!(expected, "an integer in 0..=4294967295 (u32)");
    assert_eq!(actual, "f64 1e40");
    let (_, path, expected, actual, _) = invalid(&p, &value! { count: -1, offset: 0, v: [0, 0] });
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        ("$.count", "an integer in 0..=4294967295 (u32)", "i32 -1")
    );
    let (_, path, expected, actual, _) = invalid(
        &p,
        &value! { count: 0u32, offset: 3_000_000_000u32, v: [0, 0] },
    );
    assert_eq!(
        (path.as_str(), expected.as_str(), actual.as_str()),
        (
            "$.offset",
            "an integer in -2147483648..=2147483647 (i32)",
            "u32 3000000000"
        )
    );
    // A vector component out of range names the component.
    let (_, path, _, actual, _) =
        invalid(&p, &value! { count: 0u32, offset: 0, v: [1u32, u32::MAX] });
    assert_eq!(
        (path.as_str(), actual.as_str()),
        ("$.v[1]", "u32 4294967295")
    );
}

#[test]
fn integers_not_exact_in_f32() {
    let p = plan("struct S { x: f32 }", "uniform", "S");
    let (code, path, expected, actual, _) = invalid(&p, &value! { x: 16_777_217 });
    assert_eq!(code, "VGPU-SET-VALUE-INVALID");
    assert_eq!(path, "$.x");
    assert_eq!(
        expected,
        "an integer exactly representable as f32 (|x| ≤ 16777216)"
    );
    assert_eq!(actual, "i32 16777217");
    let (_, _, expected, actual, _) = invalid(&p, &value! { x: Value::F64(1e300) });
    assert_eq!(
        (expected.as_str(), actual.as_str()),
        ("a number in f32 range (|x| ≤ 3.4028235e38)", "f64 1e300")
    );
}

#[test]
fn partial_pack_merges_onto_previous_bytes() {
    let p = plan(
        "struct In { a: f32, b: f32 }\nstruct S { world: mat4x4<f32>, color: vec4<f32>, inner: In }",
        "uniform",
        "S",
    );
    let full = value! {
        world: [[1.0f32; 4]; 4],
        color: [0.1, 0.2, 0.3, 0.4],
        inner: { a: 5.0, b: 6.0 },
    };
    let mut bytes = pack(&p, &full);
    let before = bytes.clone();
    p.pack_partial(&value! { color: [1.0, 0.0, 0.0, 1.0] }, &mut bytes, &CTX)
        .unwrap();
    let w = words(&bytes);
    assert_eq!(w[..16], words(&before)[..16], "world untouched");
    assert_eq!(w[16..20], [f(1.0), 0, 0, f(1.0)]);
    assert_eq!(w[20..], words(&before)[20..], "inner untouched");
    // Partial inside a nested struct.
    p.pack_partial(&value! { inner: { b: 9.0 } }, &mut bytes, &CTX)
        .unwrap();
    assert_eq!(words(&bytes)[20..22], [f(5.0), f(9.0)]);
    // The result equals a full pack of the merged value.
    let merged = value! {
        world: [[1.0f32; 4]; 4],
        color: [1.0, 0.0, 0.0, 1.0],
        inner: { a: 5.0, b: 9.0 },
    };
    assert_eq!(bytes, pack(&p, &merged));
    // A partial value is checked as strictly and changes nothing when rejected.
    let snapshot = bytes.clone();
    let err = p
        .pack_partial(
            &value! { color: [1.0, 0.0], inner: { b: 1.0 } },
            &mut bytes,
            &CTX,
        )
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-VALUE-INVALID");
    assert_eq!(bytes, snapshot);
    let SetError::ValueInvalid { path, .. } = err else {
        panic!()
    };
    assert_eq!(&*path, "$.color");
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Object {
    world: [[f32; 4]; 4],
    color: [f32; 3],
    intensity: f32,
}

#[test]
fn pod_values_are_copied_after_a_size_check() {
    let p = plan(
        "struct Object { world: mat4x4<f32>, color: vec3<f32>, intensity: f32 }",
        "uniform",
        "Object",
    );
    let o = Object {
        world: [[2.0; 4]; 4],
        color: [1.0, 0.5, 0.25],
        intensity: 3.0,
    };
    let mut dst = vec![0u8; 80];
    assert_eq!(p.pack_pod(&o, &mut dst, &CTX).unwrap(), 80);
    assert_eq!(dst, bytemuck::bytes_of(&o));
    // Same bytes as the Value path.
    let v = value! { world: o.world, color: o.color, intensity: o.intensity };
    assert_eq!(pack(&p, &v), dst);
    // Layout compatibility, checked once.
    p.layout()
        .check_fields(&[
            ("world", core::mem::offset_of!(Object, world), 64),
            ("color", core::mem::offset_of!(Object, color), 12),
            ("intensity", core::mem::offset_of!(Object, intensity), 4),
        ])
        .unwrap();

    // A Pod of the wrong size names both sizes.
    let err = p.pack_pod(&[0f32; 19], &mut dst, &CTX).unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-POD-SIZE");
    let SetError::PodSize {
        expected,
        actual,
        type_name,
        binding,
        ..
    } = &err
    else {
        panic!()
    };
    assert_eq!((*expected, *actual), (80, 76));
    assert_eq!((&**type_name, &**binding), ("Object", "u"));
    assert!(
        err.to_string()
            .contains("expected a value of 80 bytes, got 76 bytes")
    );
}

#[test]
fn check_fields_reports_offset_mismatch_and_misspelling() {
    let p = plan(
        "struct In { c: vec3<f32> }\nstruct S { a: f32, inner: In }",
        "storage",
        "S",
    );
    let l = p.layout();
    l.check_fields(&[("a", 0, 4), ("inner.c", 16, 12)]).unwrap();
    let err = l.check_fields(&[("inner.c", 4, 12)]).unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-POD-LAYOUT");
    let SetError::PodLayout {
        field,
        expected,
        actual,
        ..
    } = &err
    else {
        panic!()
    };
    assert_eq!(&**field, "inner.c");
    assert_eq!(&**expected, "offset 16, size 12 (vec3<f32>)");
    assert_eq!(&**actual, "offset 4, size 12");
    let err = l.check_fields(&[("inner.cc", 16, 12)]).unwrap_err();
    let SetError::PodLayout { actual, hint, .. } = &err else {
        panic!()
    };
    assert_eq!(&**actual, "no member `cc`");
    assert_eq!(hint.as_deref(), Some("did you mean `c`?"));
}

#[test]
fn pod_slices_for_runtime_arrays() {
    let p = plan(
        "struct P { pos: vec4<f32> }\nstruct S { n: u32, ps: array<P> }",
        "storage",
        "S",
    );
    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Header {
        n: u32,
        _pad: [u32; 3],
        ps: [[f32; 4]; 2],
    }
    let h = Header {
        n: 2,
        _pad: [0; 3],
        ps: [[1.0; 4], [2.0; 4]],
    };
    let mut dst = vec![0u8; 64];
    assert_eq!(p.pack_pod(&h, &mut dst, &CTX).unwrap(), 48);
    let err = p.pack_pod(&[0u32; 5], &mut dst, &CTX).unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-POD-SIZE");
    assert!(err.to_string().contains("16 + k × 16 bytes"), "{err}");
    let p = plan("", "storage", "array<vec2<f32>>");
    assert_eq!(
        p.pack_pod_slice(&[[1.0f32, 2.0], [3.0, 4.0]], &mut dst, &CTX)
            .unwrap(),
        16
    );
}

#[test]
fn large_structs_and_scalar_arrays_pack_every_member() {
    let members: Vec<String> = (0..20).map(|i| format!("m{i}: f32")).collect();
    let decl = format!("struct S {{ {}, arr: array<f32, 64> }}", members.join(", "));
    let p = plan(&decl, "storage", "S");
    let mut b = Value::structure();
    for i in (0..20).rev() {
        b = b.field(format!("m{i}"), i as f32);
    }
    let v = b
        .field("arr", (0..64).map(|i| i as f32).collect::<Vec<f32>>())
        .build();
    let bytes = pack(&p, &v);
    let w = words(&bytes);
    let expected: Vec<u32> = (0..20).chain(0..64).map(|i| f(i as f32)).collect();
    assert_eq!(w, expected);
    // Unknown member in a large struct still gets a hint.
    let v = value! { m33: 1.0 };
    let (_, path, _, _, hint) = invalid(&p, &v);
    assert_eq!(path, "$.m33");
    assert!(hint.is_some());
}

#[test]
fn shaders_and_plans_can_be_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Shader>();
    assert_send_sync::<WritePlan>();
    assert_send_sync::<Value>();
    assert_send_sync::<SetError>();
    assert_send_sync::<vgpu_core::ShaderError>();
}

#[test]
fn pack_member_writes_one_member_in_place() {
    let src = "struct Object { world: mat4x4<f32>, color: vec3<f32>, count: u32 }\n\
               @group(0) @binding(0) var<uniform> object: Object;";
    let shader = Shader::new("member", src).unwrap();
    let plan = shader.binding("object").unwrap().plan.clone().unwrap();
    let full = value! { world: [[1.0f32; 4]; 4], color: [0.1, 0.2, 0.3], count: 3u32 };
    let mut bytes = pack(&plan, &full);
    let before = bytes.clone();
    let m = shader.resolve_member("color", "draw#7").unwrap();
    let end = plan
        .pack_member(
            m.member_index,
            &Value::vec3(1.0, 0.5, 0.25),
            &mut bytes,
            &CTX,
        )
        .unwrap();
    assert_eq!(end, 76);
    let mut expected = before.clone();
    expected[64..76].copy_from_slice(bytemuck::cast_slice(&[1.0f32, 0.5, 0.25]));
    assert_eq!(bytes, expected);
    // Checked like any value; the path starts at the member; nothing is written on error.
    let snapshot = bytes.clone();
    let err = plan
        .pack_member(
            m.member_index,
            &Value::from([1.0f32, 2.0]),
            &mut bytes,
            &CTX,
        )
        .unwrap_err();
    assert_eq!(bytes, snapshot);
    assert_eq!(err.code(), "VGPU-SET-VALUE-INVALID");
    let SetError::ValueInvalid {
        path,
        expected,
        actual,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(
        (&**path, &**expected, &**actual),
        (
            "$.color",
            "vec3<f32> (3 f32 components)",
            "2 f32 components"
        )
    );
    let m = shader.resolve_member("count", "draw#7").unwrap();
    let err = plan
        .pack_member(m.member_index, &Value::F32(-2.0), &mut bytes, &CTX)
        .unwrap_err();
    let SetError::ValueInvalid { path, expected, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(
        (&**path, &**expected),
        ("$.count", "an integer in 0..=4294967295 (u32)")
    );
    let err = plan
        .pack_member(9, &Value::F32(1.0), &mut bytes, &CTX)
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-VALUE-INVALID");
    assert_eq!(bytes, snapshot);
}
