//! Tier 0 (pure CPU): strict packing of values into host-shareable bytes. Every validation rule
//! has a test asserting the error code, the path, the expected and the actual.
//!
//! Its files: `values` what packs (and how the bytes lie), `rejected` every rule a value can
//! break, `in_place` writing over a previous value (partial values, one member), `pod` typed
//! values copied after a size check.

#![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

mod in_place;
mod pod;
mod rejected;
mod values;

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
