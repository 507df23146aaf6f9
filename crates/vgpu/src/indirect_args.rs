//! The checks of an indirect call's buffers, shared by passes (`pass_indirect.rs`) and bundles
//! (`bundle.rs`): argument sizes, the features an indirect call needs, and each buffer's
//! device, life, usage, alignment and range.

use crate::buffer::Buffer;
use crate::descriptors::GpuId;
use crate::draw::Draw;
use crate::error::{Result, foreign_gpu};
use crate::indirect_error::IndirectError;
use crate::pipeline_error::PipelineError;

/// Bytes of one `DrawIndirectArgs` (vertex count, instance count, first vertex, first
/// instance: four `u32`s).
const DRAW_ARGS_SIZE: u64 = 16;
/// Bytes of one `DrawIndexedIndirectArgs` (index count, instance count, first index, base
/// vertex (`i32`), first instance).
const DRAW_INDEXED_ARGS_SIZE: u64 = 20;

/// Bytes of one argument struct of an indexed (20) or a plain (16) indirect draw.
pub(crate) fn args_size(indexed: bool) -> u64 {
    match indexed {
        true => DRAW_INDEXED_ARGS_SIZE,
        false => DRAW_ARGS_SIZE,
    }
}

/// Which buffer of an indirect call a check is about (named in errors).
pub(crate) const ARGUMENTS: &str = "arguments";
/// See [`ARGUMENTS`].
pub(crate) const COUNT: &str = "count";

/// Indirect execution (a downlevel flag: every WebGPU device has it) and, for a count buffer,
/// `MULTI_DRAW_INDIRECT_COUNT`.
pub(crate) fn check_features(
    ctx: &vgpu_core::GpuContext,
    draw: &Draw,
    with_count: bool,
) -> Result<()> {
    let missing = |what, feature| PipelineError::FeatureMissing {
        label: draw.label().to_string(),
        what,
        feature,
    };
    let downlevel = ctx.adapter().get_downlevel_capabilities().flags;
    if !downlevel.contains(wgpu::DownlevelFlags::INDIRECT_EXECUTION) {
        return Err(missing(
            "indirect draws (the adapter lacks DownlevelFlags::INDIRECT_EXECUTION)",
            wgpu::Features::empty(),
        )
        .into());
    }
    let feature = wgpu::Features::MULTI_DRAW_INDIRECT_COUNT;
    if with_count && !ctx.features().contains(feature) {
        return Err(missing("Pass::multi_draw_indirect_count", feature).into());
    }
    Ok(())
}

/// One buffer of an indirect call: this `Gpu`'s, live, `INDIRECT`, `offset` a multiple of 4
/// and `offset + needed` within it.
pub(crate) fn check_indirect_buffer(
    gpu_id: GpuId,
    draw: &Draw,
    buffer: &Buffer,
    what: &'static str,
    offset: u64,
    needed: u64,
) -> Result<()> {
    if buffer.inner.gpu != gpu_id {
        return Err(foreign_gpu(
            "buffer",
            buffer.label(),
            format!("recording the draw (the {what} buffer of an indirect draw)"),
        ));
    }
    let (label, name) = (|| draw.label().to_string(), || buffer.label().to_owned());
    if buffer.is_destroyed() {
        return Err(IndirectError::Destroyed {
            draw: label(),
            buffer: name(),
            what,
        }
        .into());
    }
    if !buffer.usage().contains(wgpu::BufferUsages::INDIRECT) {
        return Err(IndirectError::Usage {
            draw: label(),
            buffer: name(),
            what,
            actual: buffer.usage(),
        }
        .into());
    }
    if !offset.is_multiple_of(4) {
        return Err(IndirectError::Alignment {
            draw: label(),
            buffer: name(),
            what,
            offset,
        }
        .into());
    }
    if offset
        .checked_add(needed)
        .is_none_or(|end| end > buffer.size())
    {
        return Err(IndirectError::Range {
            draw: label(),
            buffer: name(),
            what,
            offset,
            needed,
            size: buffer.size(),
        }
        .into());
    }
    Ok(())
}
