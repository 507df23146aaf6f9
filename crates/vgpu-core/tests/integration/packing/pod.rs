//! Typed (`Pod`) values: copied after a size check; field offsets checked once.

use super::*;

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
