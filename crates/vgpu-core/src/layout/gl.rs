//! Where wgpu's GL backend reads a layout differently from WGSL ([`TypeLayout::gl_hazards`]).

use super::{LayoutKind, MAX_TYPE_DEPTH, TypeLayout};

impl TypeLayout {
    /// Where wgpu's GL backend would read this type differently from WGSL, as `path: reason`
    /// lines (empty when the GL backend agrees). naga's GLSL writer declares struct members
    /// without explicit offsets, relying on std140 (uniform) / std430 (storage) placement, so
    /// it ignores the gaps `@size` and `@align` create (upstream gfx-rs/wgpu#4374), and it
    /// gives `matCx2` in uniform buffers std140's 16-byte column stride instead of WGSL's 8
    /// (gfx-rs/wgpu#4371). Packing follows WGSL, which every other backend honours.
    /// At most [`MAX_GL_HAZARDS`] lines are listed.
    pub fn gl_hazards(&self, uniform: bool) -> Vec<String> {
        let mut out = Vec::new();
        let mut clean = ahash::AHashSet::default();
        gl_walk(
            self,
            uniform,
            &mut String::from("$"),
            &mut out,
            &mut clean,
            0,
        );
        out
    }
}

/// Alignment GLSL gives a type in std140 (`uniform`) or std430.
fn glsl_align(l: &TypeLayout, uniform: bool) -> u32 {
    match &l.kind {
        LayoutKind::Struct { .. } | LayoutKind::Array { .. } if uniform => l.align.max(16),
        LayoutKind::Matrix { rows: 2, .. } if uniform => l.align.max(16),
        _ => l.align,
    }
}

/// Size GLSL gives a type in std140 (`uniform`) or std430.
fn glsl_size(l: &TypeLayout, uniform: bool) -> u32 {
    match &l.kind {
        LayoutKind::Struct { .. } if uniform => l.size.div_ceil(16) * 16,
        LayoutKind::Matrix {
            columns, rows: 2, ..
        } if uniform => u32::from(*columns) * 16,
        _ => l.size,
    }
}

/// Most hazards [`TypeLayout::gl_hazards`] lists (the walk stops there).
pub const MAX_GL_HAZARDS: usize = 16;

/// `clean`: types already walked without finding a hazard (shared `Arc`s of repeated types are
/// walked once, so the walk is linear in distinct types, not in the tree's size).
fn gl_walk(
    l: &TypeLayout,
    uniform: bool,
    path: &mut String,
    out: &mut Vec<String>,
    clean: &mut ahash::AHashSet<*const TypeLayout>,
    depth: usize,
) {
    crate::visits::visit();
    if depth > MAX_TYPE_DEPTH || out.len() >= MAX_GL_HAZARDS || clean.contains(&(l as *const _)) {
        return;
    }
    let before = out.len();
    match &l.kind {
        LayoutKind::Matrix { rows: 2, .. } if uniform => out.push(format!(
            "{path}: {} in a uniform buffer (GL reads columns 16 bytes apart, WGSL packs them 8 apart; gfx-rs/wgpu#4371)",
            l.name
        )),
        LayoutKind::Array { element, .. } => {
            let len = path.len();
            path.push_str("[i]");
            gl_walk(element, uniform, path, out, clean, depth + 1);
            path.truncate(len);
        }
        LayoutKind::Struct { members } => {
            let mut end = 0u32;
            for m in members.iter() {
                let align = glsl_align(&m.layout, uniform);
                let natural = end.div_ceil(align) * align;
                let len = path.len();
                path.push('.');
                path.push_str(&m.name);
                if m.offset != natural {
                    out.push(format!(
                        "{path}: WGSL offset {}, GL offset {natural} (GL ignores @size/@align gaps, gfx-rs/wgpu#4374, and pads matCx2 columns)",
                        m.offset
                    ));
                }
                gl_walk(&m.layout, uniform, path, out, clean, depth + 1);
                path.truncate(len);
                // Continue from where GL puts this member: later members shift with it.
                end = natural + glsl_size(&m.layout, uniform);
            }
        }
        _ => {}
    }
    if out.len() == before {
        clean.insert(l as *const _);
    }
    out.truncate(MAX_GL_HAZARDS);
}
