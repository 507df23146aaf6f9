//! Writing over the previous value: partial values keep what they leave out, and a member
//! set writes that member alone.

use super::*;

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
    // A partial value is checked as strictly and changes nothing when rejected: the invalid
    // member comes last, after valid members that differ from the bytes were written, so the
    // rejection restores them.
    let snapshot = bytes.clone();
    let err = p
        .pack_partial(
            &value! { color: [0.5, 0.5, 0.5, 0.5], inner: { a: 7.0, b: [1.0, 2.0] } },
            &mut bytes,
            &CTX,
        )
        .unwrap_err();
    assert_eq!(err.code(), "VGPU-SET-VALUE-INVALID");
    assert_eq!(
        bytes, snapshot,
        "the valid members written first are restored"
    );
    let SetError::ValueInvalid { path, .. } = err else {
        panic!()
    };
    assert_eq!(&*path, "$.inner.b");
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
