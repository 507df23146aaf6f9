//! Tier 0 (pure CPU): host-shareable layouts checked against numbers computed by hand from the
//! WGSL specification (§ Memory Layout: AlignOf / SizeOf / OffsetOfMember / array stride), not
//! against naga. Each case derives its numbers in a comment.
//!
//! Rules used (WGSL §14.4 "Memory Layout"):
//! - scalars f32/i32/u32/atomic: align 4, size 4; f16: align 2, size 2.
//! - vecN<T>: size N×SizeOf(T); align 2×AlignOf(T) for N=2, 4×AlignOf(T) for N=3 and 4.
//! - matCxR<T>: a C-array of vecR<T>: align AlignOf(vecR), size C × roundUp(AlignOf(vecR), SizeOf(vecR)).
//! - array<E, N>: stride roundUp(AlignOf(E), SizeOf(E)), size N × stride, align AlignOf(E).
//! - struct: member i at roundUp(align_i, end of member i-1) (`@align` overrides align_i, `@size`
//!   overrides the room taken); align = max member align; size = roundUp(align, end of last).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use vgpu_core::{LayoutKind, Shader, TypeLayout};

struct Case {
    name: &'static str,
    decls: &'static str,
    space: &'static str,
    ty: &'static str,
    f16: bool,
    size: u32,
    align: u32,
    /// `(path, offset, size)`; a path is `.member`, `[i]` (array element) or `.m[i]`.
    fields: &'static [(&'static str, u32, u32)],
    /// `(path, stride)` of arrays and `(path, column stride)` of matrices.
    strides: &'static [(&'static str, u32)],
    /// `(offset, stride)` of the trailing runtime-sized array.
    runtime: Option<(u32, u32)>,
}

const CASES: &[Case] = &[
    // vec3 then scalar: a: vec3f at 0 (12 bytes); b: f32 align 4 → roundUp(4, 12) = 12.
    // align = max(16, 4) = 16; size = roundUp(16, 16) = 16. The scalar fills vec3's tail.
    Case {
        name: "vec3 then f32",
        decls: "struct S { a: vec3<f32>, b: f32 }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 16,
        align: 16,
        fields: &[(".a", 0, 12), (".b", 12, 4)],
        strides: &[],
        runtime: None,
    },
    // f32 then vec3: b: vec3f align 16 → roundUp(16, 4) = 16; end 28; size roundUp(16, 28) = 32.
    Case {
        name: "f32 then vec3",
        decls: "struct S { a: f32, b: vec3<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[(".a", 0, 4), (".b", 16, 12)],
        strides: &[],
        runtime: None,
    },
    // vec2 (align 8) at 0, f32 at 8, vec2 at roundUp(8, 12) = 16, end 24; align 8; size 24.
    Case {
        name: "vec2 f32 vec2",
        decls: "struct S { a: vec2<f32>, b: f32, c: vec2<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 24,
        align: 8,
        fields: &[(".a", 0, 8), (".b", 8, 4), (".c", 16, 8)],
        strides: &[],
        runtime: None,
    },
    // mat3x3f = 3 columns of vec3f: column align 16, column stride roundUp(16, 12) = 16;
    // size 3 × 16 = 48; align 16.
    Case {
        name: "mat3x3",
        decls: "struct S { m: mat3x3<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 48,
        align: 16,
        fields: &[(".m", 0, 48)],
        strides: &[(".m", 16)],
        runtime: None,
    },
    // mat2x2f = 2 columns of vec2f: align 8, stride 8, size 16.
    Case {
        name: "mat2x2",
        decls: "struct S { m: mat2x2<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 16,
        align: 8,
        fields: &[(".m", 0, 16)],
        strides: &[(".m", 8)],
        runtime: None,
    },
    // mat4x4f: 4 columns of vec4f (align 16, size 16): size 64, stride 16.
    Case {
        name: "mat4x4",
        decls: "struct S { m: mat4x4<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 64,
        align: 16,
        fields: &[(".m", 0, 64)],
        strides: &[(".m", 16)],
        runtime: None,
    },
    // mat2x3f: 2 columns of vec3f: stride 16, size 32, align 16.
    Case {
        name: "mat2x3",
        decls: "struct S { m: mat2x3<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[(".m", 0, 32)],
        strides: &[(".m", 16)],
        runtime: None,
    },
    // mat3x2f: 3 columns of vec2f: stride 8, size 24, align 8.
    Case {
        name: "mat3x2",
        decls: "struct S { m: mat3x2<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 24,
        align: 8,
        fields: &[(".m", 0, 24)],
        strides: &[(".m", 8)],
        runtime: None,
    },
    // mat4x3f: 4 columns of vec3f: stride 16, size 64, align 16.
    Case {
        name: "mat4x3",
        decls: "struct S { m: mat4x3<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 64,
        align: 16,
        fields: &[(".m", 0, 64)],
        strides: &[(".m", 16)],
        runtime: None,
    },
    // A mat3x3 after a scalar: m align 16 → roundUp(16, 4) = 16; end 64; size 64.
    Case {
        name: "f32 then mat3x3",
        decls: "struct S { a: f32, m: mat3x3<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 64,
        align: 16,
        fields: &[(".a", 0, 4), (".m", 16, 48)],
        strides: &[(".m", 16)],
        runtime: None,
    },
    // array<vec3f, 4>: stride roundUp(16, 12) = 16, size 64.
    Case {
        name: "array of vec3",
        decls: "struct S { arr: array<vec3<f32>, 4> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 64,
        align: 16,
        fields: &[(".arr", 0, 64), (".arr[3]", 48, 12)],
        strides: &[(".arr", 16)],
        runtime: None,
    },
    // array<f32, 4> in storage: stride roundUp(4, 4) = 4, size 16, align 4.
    Case {
        name: "array of f32 (storage)",
        decls: "struct S { arr: array<f32, 4>, tail: f32 }",
        space: "storage",
        ty: "S",
        f16: false,
        size: 20,
        align: 4,
        fields: &[(".arr", 0, 16), (".arr[2]", 8, 4), (".tail", 16, 4)],
        strides: &[(".arr", 4)],
        runtime: None,
    },
    // L { pos: vec3f @0, intensity: f32 @12 }: size 16, align 16. array<L, 2>: stride 16,
    // size 32; lights[1].intensity at 16 + 12 = 28.
    Case {
        name: "array of structs",
        decls: "struct L { pos: vec3<f32>, intensity: f32 }\nstruct S { lights: array<L, 2> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[
            (".lights", 0, 32),
            (".lights[1].intensity", 28, 4),
            (".lights[1].pos", 16, 12),
        ],
        strides: &[(".lights", 16)],
        runtime: None,
    },
    // L2 { a: vec3f @0, b: vec3f @roundUp(16, 12) = 16 }: end 28, size roundUp(16, 28) = 32.
    // array<L2, 3>: stride 32, size 96; items[2].b at 64 + 16 = 80.
    Case {
        name: "array of structs of two vec3",
        decls: "struct L2 { a: vec3<f32>, b: vec3<f32> }\nstruct S { items: array<L2, 3> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 96,
        align: 16,
        fields: &[(".items[2].b", 80, 12), (".items[1].a", 32, 12)],
        strides: &[(".items", 32)],
        runtime: None,
    },
    // Nested struct in storage space: Inner { x: f32 } size 4 align 4; Outer { a @0,
    // inner @4, b @8 }, size 12, align 4 (no uniform-space padding rules apply).
    Case {
        name: "nested struct (storage)",
        decls: "struct Inner { x: f32 }\nstruct Outer { a: f32, inner: Inner, b: f32 }",
        space: "storage",
        ty: "Outer",
        f16: false,
        size: 12,
        align: 4,
        fields: &[
            (".a", 0, 4),
            (".inner", 4, 4),
            (".inner.x", 4, 4),
            (".b", 8, 4),
        ],
        strides: &[],
        runtime: None,
    },
    // Nested struct in uniform space: Inner { v: vec4f } size 16 align 16; inner at
    // roundUp(16, 4) = 16; b at 32; size roundUp(16, 36) = 48.
    Case {
        name: "nested struct (uniform)",
        decls: "struct Inner { v: vec4<f32> }\nstruct Outer { a: f32, inner: Inner, b: f32 }",
        space: "uniform",
        ty: "Outer",
        f16: false,
        size: 48,
        align: 16,
        fields: &[(".a", 0, 4), (".inner.v", 16, 16), (".b", 32, 4)],
        strides: &[],
        runtime: None,
    },
    // Uniform nested struct placed with @align and padded with @size:
    // v: vec4f @0..16; a: f32 @16; Inner { x: f32 } (size 4) @align(16) → roundUp(16, 20) = 32,
    // @size(16) → b at 48; end 52; align 16; size roundUp(16, 52) = 64.
    Case {
        name: "nested struct with @align/@size (uniform)",
        decls: "struct Inner { x: f32 }\nstruct Outer { v: vec4<f32>, a: f32, @align(16) @size(16) inner: Inner, b: f32 }",
        space: "uniform",
        ty: "Outer",
        f16: false,
        size: 64,
        align: 16,
        fields: &[(".a", 16, 4), (".inner.x", 32, 4), (".b", 48, 4)],
        strides: &[],
        runtime: None,
    },
    // @align(16) on a scalar: a @0, b at roundUp(16, 4) = 16, c: vec4f at roundUp(16, 20) = 32;
    // end 48; align 16; size 48.
    Case {
        name: "@align",
        decls: "struct S { a: f32, @align(16) b: f32, c: vec4<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 48,
        align: 16,
        fields: &[(".a", 0, 4), (".b", 16, 4), (".c", 32, 16)],
        strides: &[],
        runtime: None,
    },
    // @size(16) on a scalar: a takes 16 bytes, b at 16; align 4; size roundUp(4, 20) = 20.
    Case {
        name: "@size",
        decls: "struct S { @size(16) a: f32, b: f32 }",
        space: "storage",
        ty: "S",
        f16: false,
        size: 20,
        align: 4,
        fields: &[(".a", 0, 4), (".b", 16, 4)],
        strides: &[],
        runtime: None,
    },
    // @size(20) vec3 then @align(8) f32: a takes 0..20, b at roundUp(8, 20) = 24; end 28;
    // align max(16, 8) = 16; size roundUp(16, 28) = 32.
    Case {
        name: "@size and @align together",
        decls: "struct S { @size(20) a: vec3<f32>, @align(8) b: f32 }",
        space: "storage",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[(".a", 0, 12), (".b", 24, 4)],
        strides: &[],
        runtime: None,
    },
    // Runtime array: count @0; data: array<vec4f> align 16 → 16; stride 16. Size with one
    // element: roundUp(16, 16 + 16) = 32.
    Case {
        name: "runtime array of vec4",
        decls: "struct S { count: u32, data: array<vec4<f32>> }",
        space: "storage",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[(".count", 0, 4)],
        strides: &[(".data", 16)],
        runtime: Some((16, 16)),
    },
    // Top-level runtime array<f32>: stride 4; one element: 4 bytes.
    Case {
        name: "top-level runtime array",
        decls: "",
        space: "storage",
        ty: "array<f32>",
        f16: false,
        size: 4,
        align: 4,
        fields: &[("[5]", 20, 4)],
        strides: &[("", 4)],
        runtime: Some((0, 4)),
    },
    // P { pos @0, vel @16, mass @28 } size 32 align 16; Ps { n: u32 @0, ps: array<P> @16 }
    // stride 32; one element: 16 + 32 = 48.
    Case {
        name: "runtime array of structs",
        decls: "struct P { pos: vec3<f32>, vel: vec3<f32>, mass: f32 }\nstruct Ps { n: u32, ps: array<P> }",
        space: "storage",
        ty: "Ps",
        f16: false,
        size: 48,
        align: 16,
        fields: &[(".n", 0, 4), (".ps[0].vel", 32, 12), (".ps[1].mass", 76, 4)],
        strides: &[(".ps", 32)],
        runtime: Some((16, 32)),
    },
    // Atomics: atomic<u32> size 4 align 4 at 0; array<atomic<i32>, 4> stride 4 at 4 (size 16);
    // size 20, align 4.
    Case {
        name: "atomics",
        decls: "struct S { counter: atomic<u32>, values: array<atomic<i32>, 4> }",
        space: "storage, read_write",
        ty: "S",
        f16: false,
        size: 20,
        align: 4,
        fields: &[
            (".counter", 0, 4),
            (".values", 4, 16),
            (".values[3]", 16, 4),
        ],
        strides: &[(".values", 4)],
        runtime: None,
    },
    // Integer vectors: vec3<i32> @0 (12), u32 @12, vec2<u32> align 8 → 16; end 24; align 16;
    // size roundUp(16, 24) = 32.
    Case {
        name: "integer vectors",
        decls: "struct S { a: vec3<i32>, b: u32, c: vec2<u32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[(".a", 0, 12), (".b", 12, 4), (".c", 16, 8)],
        strides: &[],
        runtime: None,
    },
    // array<mat3x3f, 2>: element size 48 align 16 → stride 48; size 96.
    Case {
        name: "array of mat3x3",
        decls: "struct S { ms: array<mat3x3<f32>, 2> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 96,
        align: 16,
        fields: &[(".ms[1]", 48, 48)],
        strides: &[(".ms", 48)],
        runtime: None,
    },
    // Nested arrays: array<f32, 2> stride 4 size 8; array<array<f32,2>,3> stride 8 size 24.
    Case {
        name: "array of arrays (storage)",
        decls: "struct S { grid: array<array<f32, 2>, 3> }",
        space: "storage",
        ty: "S",
        f16: false,
        size: 24,
        align: 4,
        fields: &[(".grid[2]", 16, 8), (".grid[2][1]", 20, 4)],
        strides: &[(".grid", 8), (".grid[0]", 4)],
        runtime: None,
    },
    // vec4 then vec3: b at 16 (12 bytes); end 28; size roundUp(16, 28) = 32 (4 bytes tail pad).
    Case {
        name: "trailing vec3",
        decls: "struct S { a: vec4<f32>, b: vec3<f32> }",
        space: "uniform",
        ty: "S",
        f16: false,
        size: 32,
        align: 16,
        fields: &[(".a", 0, 16), (".b", 16, 12)],
        strides: &[],
        runtime: None,
    },
    // f16 scalars and vectors: f16 @0 (2); vec3<f16> align 4×2 = 8 → 8, size 6 (ends 14);
    // f16 at 14; align 8; size roundUp(8, 16) = 16.
    Case {
        name: "f16 vec3 between scalars",
        decls: "enable f16;\nstruct S { a: f16, b: vec3<f16>, c: f16 }",
        space: "storage",
        ty: "S",
        f16: true,
        size: 16,
        align: 8,
        fields: &[(".a", 0, 2), (".b", 8, 6), (".c", 14, 2)],
        strides: &[],
        runtime: None,
    },
    // vec2<f16>: align 2×2 = 4, size 4: a @0, b @4; size 8, align 4.
    Case {
        name: "f16 vec2",
        decls: "enable f16;\nstruct S { a: f16, b: vec2<f16> }",
        space: "storage",
        ty: "S",
        f16: true,
        size: 8,
        align: 4,
        fields: &[(".a", 0, 2), (".b", 4, 4)],
        strides: &[],
        runtime: None,
    },
    // mat3x3<f16>: columns vec3<f16> align 8, stride roundUp(8, 6) = 8; size 24, align 8.
    Case {
        name: "f16 mat3x3",
        decls: "enable f16;\nstruct S { m: mat3x3<f16> }",
        space: "storage",
        ty: "S",
        f16: true,
        size: 24,
        align: 8,
        fields: &[(".m", 0, 24)],
        strides: &[(".m", 8)],
        runtime: None,
    },
    // array<f16, 3> in storage: stride roundUp(2, 2) = 2; size 6; then f32 at 8; size 12.
    Case {
        name: "f16 array",
        decls: "enable f16;\nstruct S { h: array<f16, 3>, x: f32 }",
        space: "storage",
        ty: "S",
        f16: true,
        size: 12,
        align: 4,
        fields: &[(".h", 0, 6), (".h[2]", 4, 2), (".x", 8, 4)],
        strides: &[(".h", 2)],
        runtime: None,
    },
];

/// Resolves `.a[1].b` to (absolute offset, layout).
fn find<'a>(root: &'a TypeLayout, path: &str) -> (u32, &'a TypeLayout) {
    let mut offset = 0;
    let mut layout = root;
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let m = layout
                .member(&r[..end])
                .unwrap_or_else(|| panic!("no member {} in {}", &r[..end], layout.name));
            offset += m.offset;
            layout = &m.layout;
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').unwrap();
            let i: u32 = r[..end].parse().unwrap();
            let LayoutKind::Array {
                element, stride, ..
            } = &layout.kind
            else {
                panic!("{} is not an array", layout.name)
            };
            offset += i * stride;
            layout = element;
            rest = &r[end + 1..];
        } else {
            panic!("bad path {path}");
        }
    }
    (offset, layout)
}

#[test]
fn layout_table_matches_hand_computed_wgsl_layouts() {
    for case in CASES {
        let src = format!(
            "{}\n@group(0) @binding(0) var<{}> u: {};\n",
            case.decls, case.space, case.ty
        );
        let features = if case.f16 {
            wgpu::Features::SHADER_F16
        } else {
            wgpu::Features::empty()
        };
        let shader = Shader::with_features(case.name, &src, features)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let layout = shader.binding("u").unwrap().layout.clone().unwrap();
        assert_eq!(layout.size, case.size, "{}: size", case.name);
        assert_eq!(layout.align, case.align, "{}: align", case.name);
        for &(path, offset, size) in case.fields {
            let (o, l) = find(&layout, path);
            assert_eq!(
                (o, l.size),
                (offset, size),
                "{}: {path} (offset, size)",
                case.name
            );
        }
        for &(path, stride) in case.strides {
            let (_, l) = find(&layout, path);
            let got = match &l.kind {
                LayoutKind::Array { stride, .. } => *stride,
                LayoutKind::Matrix { column_stride, .. } => *column_stride,
                other => panic!("{}: {path} has no stride: {other:?}", case.name),
            };
            assert_eq!(got, stride, "{}: {path} stride", case.name);
        }
        let rt = layout.runtime_array().map(|r| (r.offset, r.stride));
        assert_eq!(rt, case.runtime, "{}: runtime array", case.name);
        // The write plan writes exactly the type's size for fixed-size types.
        let plan = shader.binding("u").unwrap().plan.clone().unwrap();
        assert_eq!(plan.size(), case.size as usize, "{}: plan size", case.name);
    }
}

#[test]
fn type_names_are_wgsl_spellings() {
    let shader = Shader::new(
        "names",
        "struct L { c: vec3<f32>, m: mat4x4<f32>, a: array<vec2<u32>, 3> }\n\
         @group(0) @binding(0) var<storage> u: array<L>;",
    )
    .unwrap();
    let l = shader.binding("u").unwrap().layout.clone().unwrap();
    assert_eq!(&*l.name, "array<L>");
    let (_, el) = find(&l, "[0]");
    assert_eq!(&*el.name, "L");
    assert_eq!(&*find(&l, "[0].c").1.name, "vec3<f32>");
    assert_eq!(&*find(&l, "[0].m").1.name, "mat4x4<f32>");
    assert_eq!(&*find(&l, "[0].a").1.name, "array<vec2<u32>, 3>");
}

#[test]
fn f16_needs_the_feature() {
    let src = "enable f16;\nstruct S { a: f16 }\n@group(0) @binding(0) var<storage> u: S;";
    let err = Shader::new("no-f16", src).unwrap_err();
    assert!(
        matches!(
            err,
            vgpu_core::ShaderError::Parse { .. } | vgpu_core::ShaderError::Validation { .. }
        ),
        "{err}"
    );
    assert!(Shader::with_features("f16", src, wgpu::Features::SHADER_F16).is_ok());
}

#[test]
fn gl_hazards_name_the_members_wgpu_gl_reads_differently() {
    let layout = |decls: &str, space: &str| {
        let src = format!("{decls}\n@group(0) @binding(0) var<{space}> u: S;\n");
        let s = Shader::new("gl", &src).unwrap();
        s.binding("u").unwrap().gl_hazards()
    };
    // Natural layouts: GL (std140 / std430) agrees with WGSL.
    assert!(
        layout(
            "struct S { a: f32, b: vec3<f32>, m: mat4x4<f32>, c: array<vec4<f32>, 2> }",
            "uniform"
        )
        .is_empty()
    );
    assert!(
        layout(
            "struct S { a: f32, m: mat2x2<f32>, n: mat3x2<f32>, h: array<f32, 3> }",
            "storage"
        )
        .is_empty()
    );
    // An @align gap: WGSL puts b at 16, std430 at 4; c follows b.
    let h = layout("struct S { a: f32, @align(16) b: f32, c: f32 }", "storage");
    assert_eq!(h.len(), 2, "{h:#?}");
    assert!(
        h[0].starts_with("$.b: WGSL offset 16, GL offset 4"),
        "{h:#?}"
    );
    assert!(
        h[1].starts_with("$.c: WGSL offset 20, GL offset 8"),
        "{h:#?}"
    );
    // An @size gap in a uniform struct.
    let h = layout("struct S { @size(16) a: vec2<f32>, b: f32 }", "uniform");
    assert_eq!(h.len(), 1, "{h:#?}");
    assert!(
        h[0].starts_with("$.b: WGSL offset 16, GL offset 8"),
        "{h:#?}"
    );
    // matCx2 in a uniform buffer, also inside arrays of structs.
    let h = layout(
        "struct T { m: mat2x2<f32> }\nstruct S { t: array<T, 2> }",
        "uniform",
    );
    assert_eq!(h.len(), 1, "{h:#?}");
    assert!(
        h[0].starts_with("$.t[i].m: mat2x2<f32> in a uniform buffer"),
        "{h:#?}"
    );
}
