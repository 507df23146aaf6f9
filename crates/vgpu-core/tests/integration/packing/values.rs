//! Values that pack, and the bytes they pack to (padding zeroed).

use super::*;

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
