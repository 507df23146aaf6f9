//! Code that must not compile, checked by its error, on any toolchain: each fixture is compiled by
//! `rustc` against the vgpu this test was built with. rustdoc's `compile_fail,E0XXX` checks the
//! code only on nightly (stable rustdoc ignores it), and the derive's own refusals are
//! `compile_error!`s with no code at all: this test asserts their messages, that rustc's errors
//! about generated code (E0793 for a packed struct) do not appear instead, and that a plainness
//! claim cannot be forged without `unsafe` (the codes of `MemoryIsWgsl`'s doc tests).

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles `source` as a library crate using vgpu (metadata only) with `vgpu_rlib`; the
/// compiler's output, or `Ok` with it when it compiled.
fn compile(vgpu_rlib: &Path, name: &str, source: &str) -> Result<String, String> {
    let deps = vgpu_rlib.parent().unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compile_fail");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.rs"));
    std::fs::write(&file, source).unwrap();
    // The `rustc` beside the `cargo` that runs this test: the one that built vgpu.
    let rustc = Path::new(env!("CARGO")).with_file_name("rustc");
    let rustc = if rustc.exists() {
        rustc
    } else {
        PathBuf::from("rustc")
    };
    let out = Command::new(rustc)
        .args([
            "--edition",
            "2024",
            "--crate-type",
            "lib",
            "--emit",
            "metadata",
        ])
        .arg("--crate-name")
        .arg(name)
        .arg("--out-dir")
        .arg(&dir)
        .arg("-L")
        .arg(format!("dependency={}", deps.display()))
        .arg("--extern")
        .arg(format!("vgpu={}", vgpu_rlib.display()))
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.success() {
        Ok(text)
    } else {
        Err(text)
    }
}

/// The vgpu library beside this test binary that compiles a correct derive (the newest first:
/// the deps folder may hold builds of other feature sets, or older ones).
fn vgpu_rlib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let mut rlibs: Vec<_> = std::fs::read_dir(deps)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("libvgpu-") && name.ends_with(".rlib")
        })
        .map(|e| (e.metadata().and_then(|m| m.modified()).ok(), e.path()))
        .collect();
    rlibs.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    let control = "#![forbid(unsafe_code)]\n\
                   #[derive(vgpu::Uniform)] #[repr(C)] pub struct Fine { pub a: [f32; 4] }\n\
                   const _: () = assert!(<Fine as vgpu::Uniform>::PLAIN.is_plain());\n";
    let mut tried = Vec::new();
    for (_, rlib) in rlibs {
        match compile(&rlib, "control", control) {
            Ok(_) => return rlib,
            Err(e) => tried.push(format!("{}: {e}", rlib.display())),
        }
    }
    panic!(
        "no vgpu library in {} compiles the control: {tried:#?}",
        deps.display()
    );
}

#[track_caller]
fn assert_refused(vgpu: &Path, name: &str, source: &str, message: &str) {
    let err = compile(vgpu, name, source).expect_err(name);
    assert!(err.contains(message), "{name}: no {message:?} in:\n{err}");
    assert!(
        !err.contains("E0793"),
        "{name}: rustc's error, not the derive's:\n{err}"
    );
}

#[test]
fn the_derive_refuses_what_it_cannot_lay_out_with_its_own_messages() {
    let vgpu = vgpu_rlib();
    assert_refused(
        &vgpu,
        "tuple",
        "#[derive(vgpu::Uniform)] pub struct Pair(pub f32, pub f32);",
        "#[derive(vgpu::Uniform)] needs named fields",
    );
    assert_refused(
        &vgpu,
        "generic",
        "#[derive(vgpu::Uniform)] pub struct Wrapper<T> { pub value: T }",
        "#[derive(vgpu::Uniform)] supports structs without generic parameters",
    );
    for (name, repr) in [
        ("packed", "#[repr(packed)]"),
        ("packed_c", "#[repr(C, packed(2))]"),
    ] {
        assert_refused(
            &vgpu,
            name,
            &format!(
                "#[derive(vgpu::Uniform)] {repr} pub struct Tight {{ pub a: u32, pub b: f32 }}"
            ),
            "#[derive(vgpu::Uniform)] does not support `#[repr(packed)]` (on `Tight`)",
        );
    }
    // An empty struct, and a `bool` field (rustc's E0277: `bool` is not `Uniform`).
    assert_refused(
        &vgpu,
        "empty",
        "#[derive(vgpu::Uniform)] pub struct Empty {}",
        "#[derive(vgpu::Uniform)] needs at least one field",
    );
    assert_refused(
        &vgpu,
        "flags",
        "#[derive(vgpu::Uniform)] pub struct Flags { pub on: bool }",
        "error[E0277]: the trait bound `bool: vgpu::Uniform` is not satisfied",
    );
}

/// The forged token of issue 30 and hand calls of the derive's proof that would hide padding:
/// each is refused with its error code, in a crate that forbids `unsafe`.
#[test]
fn a_plainness_claim_cannot_be_forged_without_unsafe() {
    let vgpu = vgpu_rlib();
    let padded = "#![forbid(unsafe_code)]\n\
                  use vgpu::{MemoryIsWgsl, Uniform};\n\
                  #[derive(vgpu::Uniform)] #[repr(C)] pub struct Plain { pub a: u32, pub b: u32 }\n\
                  #[repr(C)] pub struct Padded { pub a: u8, pub b: u32 }\n";
    let forged = |plain: &str| {
        format!(
            "{padded}impl Uniform for Padded {{\n\
                 const SHAPE: &'static vgpu::__derive::RustShape = <[u32; 2] as Uniform>::SHAPE;\n\
                 const SIZE: usize = 8;\n\
                 const ALIGN: usize = 8;\n\
                 const PLAIN: MemoryIsWgsl<Self> = {plain};\n\
                 fn write_wgsl(&self, d: &mut [u8]) {{ d[..8].fill(self.a) }}\n\
             }}\n"
        )
    };
    // The control: the same impl with the claim it may make compiles.
    compile(&vgpu, "honest", &forged("MemoryIsWgsl::NO")).unwrap();
    let mismatch = "error[E0308]: mismatched types";
    for (name, claim, code) in [
        ("forged_u32", "<u32 as Uniform>::PLAIN", mismatch),
        (
            "forged_derived",
            "<Plain as Uniform>::PLAIN.and(true)",
            mismatch,
        ),
        // `plain_struct!` proves its claim or does not compile: no field left out, none added,
        // none of another type.
        (
            "partial",
            "vgpu::__derive::plain_struct!(Padded { b: u32 })",
            "error[E0063]: missing field `a` in initializer of `Padded`",
        ),
        (
            "added",
            "vgpu::__derive::plain_struct!(Padded { a: u8, b: u32, c: [u8; 3] })",
            "error[E0560]: struct `Padded` has no field named `c`",
        ),
        (
            "retyped",
            "vgpu::__derive::plain_struct!(Padded { a: u32, b: u32 })",
            mismatch,
        ),
    ] {
        let err = compile(&vgpu, name, &forged(claim)).expect_err(name);
        assert!(err.contains(code), "{name}: no {code:?} in:\n{err}");
    }
}
