//! A shared uniforms block is shared by shape, not by struct name: shader A's `Globals` and
//! shader B's `BlurGlobals` with the same members bind the same block (as the upstream library
//! shares one buffer between exactly these shaders), and both read its value. When layouts
//! really differ, the error names the draw and binding that fixed the block's layout and the
//! first member that differs. Tier 1 and pixels on the env device.

use vgpu::{Gpu, value};
use vgpu_tests::{each_gpu, fullscreen};

const A: &str = "
struct Globals { time: f32, mouse: vec2f }
@group(0) @binding(0) var<uniform> globals: Globals;
@fragment fn fs_main() -> @location(0) vec4f {
    return vec4f(globals.time, globals.mouse.x, globals.mouse.y, 1.0);
}";

const B: &str = "
struct BlurGlobals { time: f32, mouse: vec2f }
@group(0) @binding(0) var<uniform> globals: BlurGlobals;
@fragment fn fs_main() -> @location(0) vec4f {
    return vec4f(globals.mouse.y, globals.mouse.x, globals.time, 1.0);
}";

/// Same size (16 bytes), another member type at the same offset.
const C: &str = "
struct Globals { time: f32, mouse: vec2i }
@group(0) @binding(0) var<uniform> globals: Globals;
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(f32(globals.mouse.x)); }";

fn pixel(gpu: &Gpu, draw: &vgpu::Draw) -> Option<[u8; 4]> {
    let target = gpu.target(2, 2).unwrap();
    gpu.frame(|f| f.pass(&target, |p| p.draw(draw))).unwrap();
    (!gpu.is_noop()).then(|| target.read_rgba8().unwrap().pixel(0, 0).unwrap())
}

#[test]
fn one_block_binds_to_structs_of_the_same_shape_under_other_names() {
    each_gpu(|gpu| {
        let globals = gpu
            .uniforms_labeled("globals", value! { time: 1.0, mouse: [0.0, 0.2] })
            .unwrap();
        let a = fullscreen(gpu, "scene", A);
        let b = fullscreen(gpu, "blur", B);
        a.set("globals", &globals).unwrap();
        b.set("globals", &globals)
            .expect("BlurGlobals has the shape of Globals");
        if let Some(px) = pixel(gpu, &a) {
            assert_eq!(px, [255, 0, 51, 255]);
        }
        if let Some(px) = pixel(gpu, &b) {
            assert_eq!(px, [51, 0, 255, 255]);
        }
        // Both read the one block: a set reaches both.
        globals.set(value! { mouse: [1.0, 0.0] }).unwrap();
        if let Some(px) = pixel(gpu, &b) {
            assert_eq!(px, [0, 255, 255, 255]);
        }
        assert_eq!(globals.revision(), 2);
    });
}

#[test]
fn a_block_refuses_another_shape_naming_who_fixed_its_layout_and_the_first_difference() {
    each_gpu(|gpu| {
        let globals = gpu
            .uniforms_labeled("globals", value! { time: 1.0, mouse: [0.0, 0.2] })
            .unwrap();
        let a = fullscreen(gpu, "scene", A);
        let c = fullscreen(gpu, "ints", C);
        a.set("globals", &globals).unwrap();
        let e = c.set("globals", &globals).unwrap_err();
        assert_eq!(e.code(), "VGPU-SET-LAYOUT-MISMATCH", "{e}");
        let msg = e.to_string();
        for part in [
            "\"ints\"",
            "binding `globals`",
            "fixed by draw \"scene\" binding `globals`",
            "`mouse`",
            "vec2<f32>",
            "vec2<i32>",
        ] {
            assert!(msg.contains(part), "{part:?} in {msg}");
        }
        // Nothing changed: the draw that fixed the layout still renders the block.
        if let Some(px) = pixel(gpu, &a) {
            assert_eq!(px, [255, 0, 51, 255]);
        }
    });
}
