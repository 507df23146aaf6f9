//! Composes `shaders/three` (three modules in two folders and two standard-library imports) at
//! build time, as a user's build script would (`vgpu_modules::build`): `tier2_shader_modules.rs`
//! renders the embedded result and the same modules composed at run time.

fn main() {
    for warm in [false, true] {
        let name = if warm { "three_warm" } else { "three" };
        if let Err(e) = vgpu_modules::build::compose_to_out_dir(
            "shaders/three",
            "main",
            name,
            &[("warm", warm)],
        ) {
            panic!("{e}");
        }
    }
}
