//! Values the packer rejects: each rule with its error code, path, expected and actual.

use super::*;

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
