//! Storage-texture access checks: a `texture_storage_*` binding whose format this device cannot
//! use with the binding's access mode is refused with
//! [`TextureError::StorageAccess`](crate::TextureError::StorageAccess) where a program's layouts
//! are made (creation time, never per draw), before wgpu refuses the bind-group layout.

use vgpu_core::{BindingKind, EntryPointInfo, GpuContext};

use super::resources::ShaderRecord;
use crate::error::Result;
use crate::texture_error::TextureError;

/// The formats WGSL can name in `texture_storage_*` without a feature, offered in the hint.
const CANDIDATES: &[wgpu::TextureFormat] = &[
    wgpu::TextureFormat::R32Float,
    wgpu::TextureFormat::R32Uint,
    wgpu::TextureFormat::R32Sint,
    wgpu::TextureFormat::Rgba8Unorm,
    wgpu::TextureFormat::Rgba8Snorm,
    wgpu::TextureFormat::Rgba8Uint,
    wgpu::TextureFormat::Rgba8Sint,
    wgpu::TextureFormat::Rgba16Float,
    wgpu::TextureFormat::Rgba16Uint,
    wgpu::TextureFormat::Rgba16Sint,
    wgpu::TextureFormat::Rg32Float,
    wgpu::TextureFormat::Rg32Uint,
    wgpu::TextureFormat::Rg32Sint,
    wgpu::TextureFormat::Rgba32Float,
    wgpu::TextureFormat::Rgba32Uint,
    wgpu::TextureFormat::Rgba32Sint,
    wgpu::TextureFormat::Bgra8Unorm,
];

/// The format features wgpu checks a bind-group layout against: the adapter's where the device
/// has `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES` or the adapter is downlevel in its formats
/// (GL), WebGPU's guaranteed ones otherwise (wgpu-core's `describe_format_features`).
fn layout_format_features(
    ctx: &GpuContext,
    format: wgpu::TextureFormat,
) -> wgpu::TextureFormatFeatures {
    let specific = ctx
        .features()
        .contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES)
        || !ctx
            .adapter()
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::WEBGPU_TEXTURE_FORMAT_SUPPORT);
    if specific {
        ctx.format_features(format)
    } else {
        format.guaranteed_format_features(ctx.features())
    }
}

/// The feature flag `access` needs.
fn access_flag(access: wgpu::StorageTextureAccess) -> wgpu::TextureFormatFeatureFlags {
    match access {
        wgpu::StorageTextureAccess::WriteOnly => {
            wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY
        }
        wgpu::StorageTextureAccess::ReadOnly => wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY,
        wgpu::StorageTextureAccess::ReadWrite => {
            wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE
        }
        wgpu::StorageTextureAccess::Atomic => wgpu::TextureFormatFeatureFlags::STORAGE_ATOMIC,
    }
}

/// The WGSL spelling of `access`.
fn access_name(access: wgpu::StorageTextureAccess) -> &'static str {
    match access {
        wgpu::StorageTextureAccess::WriteOnly => "write",
        wgpu::StorageTextureAccess::ReadOnly => "read",
        wgpu::StorageTextureAccess::ReadWrite => "read_write",
        wgpu::StorageTextureAccess::Atomic => "atomic",
    }
}

/// Whether this device can bind `format` as a storage texture with `access`.
fn supported(
    ctx: &GpuContext,
    format: wgpu::TextureFormat,
    access: wgpu::StorageTextureAccess,
) -> bool {
    let f = layout_format_features(ctx, format);
    f.allowed_usages
        .contains(wgpu::TextureUsages::STORAGE_BINDING)
        && f.flags.contains(access_flag(access))
}

/// What to do instead of `kind`: the WGSL types of the formats this device has the access for,
/// or the feature that would let the adapter's own support count.
fn hint(ctx: &GpuContext, kind: &BindingKind, access: wgpu::StorageTextureAccess) -> String {
    let BindingKind::StorageTexture {
        format,
        view_dimension,
        ..
    } = *kind
    else {
        return String::new();
    };
    let mut hint = String::new();
    let adapter_has = !ctx.is_noop()
        && ctx
            .adapter()
            .features()
            .contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES)
        && {
            let f = ctx.format_features(format);
            f.allowed_usages
                .contains(wgpu::TextureUsages::STORAGE_BINDING)
                && f.flags.contains(access_flag(access))
        };
    if adapter_has {
        hint.push_str("the adapter has it: request Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES in GpuOptions::features, or ");
    }
    let others: Vec<String> = CANDIDATES
        .iter()
        .filter(|&&f| f != format && supported(ctx, f, access))
        .map(|&f| {
            BindingKind::StorageTexture {
                format: f,
                access,
                view_dimension,
            }
            .describe()
        })
        .collect();
    if others.is_empty() {
        hint.push_str(&format!(
            "this device has no storage format with {} access: use a write-only storage texture and a sampled texture, or a storage buffer",
            access_name(access)
        ));
    } else {
        hint.push_str(&format!("use one of {}", others.join(", ")));
    }
    hint
}

/// Refuses the first `texture_storage_*` binding of `entries` whose format and access this
/// device cannot use together (see [`TextureError::StorageAccess`]).
pub(super) fn check_storage_access(
    ctx: &GpuContext,
    shader: &ShaderRecord,
    entries: &[&EntryPointInfo],
) -> Result<()> {
    for e in entries {
        for b in shader.core.entry_point_bindings(e) {
            let BindingKind::StorageTexture {
                format,
                access,
                view_dimension,
            } = b.kind
            else {
                continue;
            };
            // Left to wgpu's own errors: cube storage, atomics without the feature, formats
            // whose feature is missing.
            let other_error = matches!(
                view_dimension,
                wgpu::TextureViewDimension::Cube | wgpu::TextureViewDimension::CubeArray
            ) || (access == wgpu::StorageTextureAccess::Atomic
                && !ctx.features().contains(wgpu::Features::TEXTURE_ATOMIC))
                || !ctx.features().contains(format.required_features());
            if other_error || supported(ctx, format, access) {
                continue;
            }
            let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
            return Err(TextureError::StorageAccess {
                operation: format!(
                    "shader {:?} (entry points {})",
                    shader.label(),
                    names.join(", ")
                ),
                binding: b.name.clone(),
                wgsl: b.kind.describe(),
                format,
                access: access_name(access),
                hint: hint(ctx, &b.kind, access),
            }
            .into());
        }
    }
    Ok(())
}
