//! Tier 0 (pure CPU): `TypeLayout::shape_difference` compares layouts by shape (member names,
//! types, offsets, sizes, array lengths and strides, nested structs), ignoring type names.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::sync::Arc;

use vgpu_core::{Shader, TypeLayout};

/// The layouts of bindings `a` and `b` declared after `decls`, in one shader.
fn pair(decls: &str, a: &str, b: &str, space: &str) -> (Arc<TypeLayout>, Arc<TypeLayout>) {
    let src = format!(
        "{decls}\n@group(0) @binding(0) var<{space}> a: {a};\n@group(0) @binding(1) var<{space}> b: {b};\n"
    );
    let shader = Shader::new("shape", &src).unwrap();
    let layout = |name| shader.binding(name).unwrap().layout.clone().unwrap();
    (layout("a"), layout("b"))
}

fn uniform_pair(decls: &str, a: &str, b: &str) -> (Arc<TypeLayout>, Arc<TypeLayout>) {
    pair(decls, a, b, "uniform")
}

/// The difference both ways round, as displayed (left first).
fn differences(a: &TypeLayout, b: &TypeLayout) -> (String, String) {
    (
        a.shape_difference(b).unwrap().to_string(),
        b.shape_difference(a).unwrap().to_string(),
    )
}

#[test]
fn same_members_under_other_struct_names_have_the_same_shape() {
    let (a, b) = uniform_pair(
        "struct Globals { time: f32, mouse: vec2f }\n\
         struct BlurGlobals { time: f32, mouse: vec2f }",
        "Globals",
        "BlurGlobals",
    );
    assert_eq!(a.shape_difference(&b), None);
    assert_eq!(b.shape_difference(&a), None);
    assert_eq!(a.shape_difference(&a), None);
    // Layout equality does compare names.
    assert!(*a != *b);
}

#[test]
fn a_member_of_another_type_is_named_with_both_sides() {
    let (a, b) = uniform_pair(
        "struct Globals { time: f32, mouse: vec2f }\n\
         struct BlurGlobals { time: f32, mouse: vec3f }",
        "Globals",
        "BlurGlobals",
    );
    let d = a.shape_difference(&b).unwrap();
    assert_eq!(d.path, "mouse");
    assert_eq!(
        d.to_string(),
        "member `mouse`: vec2<f32> at offset 8 (8 bytes) vs vec3<f32> at offset 16 (12 bytes)"
    );
    // Same offset and size, another scalar type.
    let (a, b) = uniform_pair(
        "struct A { time: f32, frame: u32 }\nstruct B { time: f32, frame: i32 }",
        "A",
        "B",
    );
    assert_eq!(
        differences(&a, &b),
        (
            "member `frame`: u32 at offset 4 (4 bytes) vs i32 at offset 4 (4 bytes)".to_owned(),
            "member `frame`: i32 at offset 4 (4 bytes) vs u32 at offset 4 (4 bytes)".to_owned()
        )
    );
    // An atomic is not its scalar.
    let (a, b) = pair(
        "struct A { n: atomic<u32> }\nstruct B { n: u32 }",
        "A",
        "B",
        "storage, read_write",
    );
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "member `n`: atomic<u32> at offset 0 (4 bytes) vs u32 at offset 0 (4 bytes)"
    );
}

#[test]
fn a_member_of_another_name_or_order_is_the_first_difference() {
    let (a, b) = uniform_pair(
        "struct Globals { time: f32, mouse: vec2f }\n\
         struct BlurGlobals { time: f32, cursor: vec2f }",
        "Globals",
        "BlurGlobals",
    );
    let d = a.shape_difference(&b).unwrap();
    assert_eq!(d.path, "");
    assert_eq!(d.to_string(), "member 1 is `mouse` vs `cursor`");

    let (a, b) = uniform_pair(
        "struct Globals { time: f32, mouse: vec2f }\n\
         struct BlurGlobals { mouse: vec2f, time: f32 }",
        "Globals",
        "BlurGlobals",
    );
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "member 0 is `time` vs `mouse`"
    );
}

#[test]
fn member_counts_and_trailing_padding_are_compared_after_the_common_members() {
    let (a, b) = uniform_pair(
        "struct Globals { time: f32, mouse: vec2f, size: vec2f }\n\
         struct BlurGlobals { time: f32, mouse: vec2f }",
        "Globals",
        "BlurGlobals",
    );
    assert_eq!(
        differences(&a, &b),
        (
            "`Globals` has 3 members, `BlurGlobals` has 2".to_owned(),
            "`BlurGlobals` has 2 members, `Globals` has 3".to_owned()
        )
    );
    // Same members, a larger last member's room (`@size`): the struct sizes differ.
    let (a, b) = uniform_pair(
        "struct A { time: f32, mouse: vec2f }\nstruct B { time: f32, @size(16) mouse: vec2f }",
        "A",
        "B",
    );
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "`A` is 16 bytes, `B` is 24"
    );
    // An `@align` gap moves the member.
    let (a, b) = uniform_pair(
        "struct A { time: f32, mouse: vec2f }\nstruct B { time: f32, @align(16) mouse: vec2f }",
        "A",
        "B",
    );
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "member `mouse`: vec2<f32> at offset 8 (8 bytes) vs vec2<f32> at offset 16 (8 bytes)"
    );
}

#[test]
fn nested_structs_compare_by_shape_at_every_depth() {
    let decls = "struct Light { color: vec3f, power: f32 }\n\
                 struct Lamp { color: vec3f, power: f32 }\n\
                 struct Bulb { color: vec3f, power: u32 }\n\
                 struct Scene { sun: Light, lights: array<Light, 4>, time: f32 }\n\
                 struct World { sun: Lamp, lights: array<Lamp, 4>, time: f32 }\n\
                 struct Room { sun: Lamp, lights: array<Bulb, 4>, time: f32 }\n\
                 struct Hall { sun: Lamp, lights: array<Lamp, 3>, time: f32 }";
    let (scene, world) = uniform_pair(decls, "Scene", "World");
    assert_eq!(scene.shape_difference(&world), None);
    let (scene, room) = uniform_pair(decls, "Scene", "Room");
    let d = scene.shape_difference(&room).unwrap();
    assert_eq!(d.path, "lights[i].power");
    assert_eq!(
        d.to_string(),
        "member `lights[i].power`: f32 at offset 12 (4 bytes) vs u32 at offset 12 (4 bytes)"
    );
    let (scene, hall) = uniform_pair(decls, "Scene", "Hall");
    assert_eq!(
        scene.shape_difference(&hall).unwrap().to_string(),
        "member `lights`: array<Light, 4> (4 elements) vs array<Lamp, 3> (3 elements)"
    );
    // Top-level arrays, runtime-sized ones included.
    let (a, b) = pair(decls, "array<Light>", "array<Lamp>", "storage");
    assert_eq!(a.shape_difference(&b), None);
    let (a, b) = pair(decls, "array<Light>", "array<Bulb>", "storage");
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "element `[i].power`: f32 at offset 12 (4 bytes) vs u32 at offset 12 (4 bytes)"
    );
    let (a, b) = pair(decls, "array<Light>", "array<Light, 2>", "storage");
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "array<Light> (runtime-sized) vs array<Light, 2> (2 elements)"
    );
    // Strides: an array of vec3f (16) vs one of packed f32 triples is another shape.
    let (a, b) = pair(
        "struct P { x: f32, y: f32, z: f32 }",
        "array<vec3f, 2>",
        "array<P, 2>",
        "storage",
    );
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "array<vec3<f32>, 2> (stride 16) vs array<P, 2> (stride 12)"
    );
    // A struct is not a vector of the same size.
    let (a, b) = uniform_pair("struct V { x: f32, y: f32 }", "vec2f", "V");
    assert_eq!(
        a.shape_difference(&b).unwrap().to_string(),
        "vec2<f32> (8 bytes) vs V (8 bytes)"
    );
}

/// `S{k+1} { a: S{k}, b: S{k} }` is 2^levels leaves as a tree.
fn wide(prefix: &str, levels: usize) -> String {
    let mut s = format!("struct {prefix}0 {{ a: vec4f }}\n");
    for k in 1..=levels {
        s.push_str(&format!(
            "struct {prefix}{k} {{ a: {prefix}{p}, b: {prefix}{p} }}\n",
            p = k - 1
        ));
    }
    s
}

/// The type nodes the layout walks visit on this thread while `f` runs
/// ([`vgpu_core::visited_type_nodes`]), with `f`'s value.
fn visits<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = vgpu_core::visited_type_nodes();
    let value = f();
    (vgpu_core::visited_type_nodes() - before, value)
}

/// `SX { a: S{levels}, c: f32 }` and `TX { a: T{levels}, c: u32 }` in one shader, with the
/// layouts of `sx` and `tx`.
fn wide_pair(levels: usize) -> (Arc<TypeLayout>, Arc<TypeLayout>) {
    let decls = format!(
        "{}{}struct SX {{ a: S{levels}, c: f32 }}\nstruct TX {{ a: T{levels}, c: u32 }}\n",
        wide("S", levels),
        wide("T", levels)
    );
    let src = format!(
        "{decls}@group(0) @binding(0) var<uniform> sx: SX;\n\
         @group(0) @binding(1) var<uniform> tx: TX;\n"
    );
    let shader = Shader::new("wide", &src).unwrap();
    let layout = |name| shader.binding(name).unwrap().layout.clone().unwrap();
    (layout("sx"), layout("tx"))
}

/// The nodes visited comparing the shapes of the wide pair of `levels` levels: the inner types,
/// then the wrappers, which differ only after them.
fn compare_wide(levels: usize) -> (u64, u64) {
    let (sx, tx) = wide_pair(levels);
    // `S{levels}` vs `T{levels}`: the same shape.
    let (s, t) = (&sx.members()[0].layout, &tx.members()[0].layout);
    assert_eq!(
        (&*s.name, &*t.name),
        (&*format!("S{levels}"), &*format!("T{levels}"))
    );
    let (inner, d) = visits(|| s.shape_difference(t));
    assert_eq!(d, None);
    // The wrappers differ only after it.
    let (outer, d) = visits(|| sx.shape_difference(&tx));
    let d = d.unwrap();
    assert_eq!(d.path, "c");
    let end = 16u64 << levels;
    assert_eq!(
        d.detail,
        format!("f32 at offset {end} (4 bytes) vs u32 at offset {end} (4 bytes)")
    );
    (inner, outer)
}

/// The same wide shape under other struct names is compared in a number of steps linear in its
/// distinct types (counted, not timed), whether it is equal or differs only after the whole
/// tree: each pair of distinct types is visited through each of its two members, once walked.
#[test]
fn wide_types_are_compared_linearly() {
    let levels = 16;
    let (inner, outer) = compare_wide(levels);
    // `S{k}` vs `T{k}` for k = levels … 1: the pair, then its `a` (walked) and `b` (found
    // equal already); `S0` vs `T0`: the pair and its `vec4f` member.
    let expected = 2 * levels as u64 + 2;
    assert_eq!(inner, expected, "comparing S{levels} with T{levels}");
    // The wrappers: the pair, the same walk under `a`, then `c`.
    assert_eq!(outer, expected + 2, "comparing SX with TX");
    // One level more: two visits more, not twice as many.
    assert_eq!(compare_wide(levels + 1), (expected + 2, expected + 4));
}
