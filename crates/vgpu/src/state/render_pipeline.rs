//! The wgpu render pipeline of (program, render state, target signature), built after vgpu's
//! own checks: each color attachment against the fragment stage's `@location` outputs, the
//! stencil state against the depth format, the pass's read-only aspects.

use vgpu_core::{FragmentOutput, GpuContext, ScalarType};

use super::operation::RenderStateKey;
use super::program::{Program, Stages};
use crate::descriptors::{ColorTarget, TargetSignature};
use crate::error::{BindingError, Result};
use crate::pipeline_error::PipelineError;

/// Creates the render pipeline of `program` with render state `state` for targets of `sig`.
pub(crate) fn create_render_pipeline(
    ctx: &GpuContext,
    program: &Program,
    state: &RenderStateKey,
    sig: TargetSignature,
    label: &str,
) -> Result<wgpu::RenderPipeline> {
    let Stages::Render { vs, fs } = &program.stages else {
        return Err(BindingError::VertexLayout {
            label: label.to_owned(),
            what: "entry points".to_owned(),
            expected: "a vertex stage".to_owned(),
            actual: "a compute program".to_owned(),
        }
        .into());
    };
    let targets = color_targets(state, sig);
    check_blendable(ctx, label, &targets)?;
    if fs.is_some() {
        check_color_outputs(label, &program.fragment_outputs, state, sig, &targets)?;
    }
    check_stencil(label, state, sig)?;
    check_bias_clamp(ctx, label, state, sig)?;
    let module = program.module(ctx)?;
    let buffers: Vec<Option<wgpu::VertexBufferLayout<'_>>> = state
        .vertex_layouts
        .iter()
        .map(|(stride, step, attrs)| {
            Some(wgpu::VertexBufferLayout {
                array_stride: *stride,
                step_mode: *step,
                attributes: attrs,
            })
        })
        .collect();
    let constants = state.constants.for_wgpu();
    let compilation_options = wgpu::PipelineCompilationOptions {
        constants: &constants,
        ..Default::default()
    };
    Ok(ctx.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(&program.pipeline_layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vs),
            compilation_options: compilation_options.clone(),
            buffers: &buffers,
        },
        fragment: fs.as_ref().map(|fs| wgpu::FragmentState {
            module,
            entry_point: Some(fs),
            compilation_options: compilation_options.clone(),
            targets: &targets,
        }),
        primitive: wgpu::PrimitiveState {
            topology: state.topology,
            strip_index_format: state.strip_index_format,
            front_face: state.front_face,
            cull_mode: state.cull_mode,
            unclipped_depth: state.unclipped_depth,
            ..Default::default()
        },
        depth_stencil: depth_stencil(state, sig),
        multisample: wgpu::MultisampleState {
            count: sig.samples,
            mask: state.multisample_mask,
            alpha_to_coverage_enabled: state.alpha_to_coverage,
        },
        multiview_mask: None,
        cache: None,
    })?)
}

/// The color target states of `sig`'s attachments: the draw's `colors` entry where it has one,
/// else its `blend` and `write_mask`.
fn color_targets(
    state: &RenderStateKey,
    sig: TargetSignature,
) -> Vec<Option<wgpu::ColorTargetState>> {
    let fallback = ColorTarget {
        blend: state.blend,
        write_mask: state.write_mask,
    };
    sig.colors
        .as_slice()
        .iter()
        .enumerate()
        .map(|(i, &format)| {
            let c = state.colors.get(i).copied().unwrap_or(fallback);
            Some(wgpu::ColorTargetState {
                format,
                blend: c.blend,
                write_mask: c.write_mask,
            })
        })
        .collect()
}

/// The depth-stencil state for `sig`: none without a depth attachment; a pass that keeps depth
/// (or stencil) read-only gets a pipeline that writes neither.
fn depth_stencil(state: &RenderStateKey, sig: TargetSignature) -> Option<wgpu::DepthStencilState> {
    let format = sig.depth?;
    let mut stencil = state.stencil.clone();
    if sig.stencil_read_only || !format.has_stencil_aspect() {
        stencil.write_mask = 0;
    }
    let writes_depth = state.depth.write && !sig.depth_read_only && format.has_depth_aspect();
    // A stencil-only format (`Stencil8`) has no depth to test against: every fragment passes.
    let compare = match format.has_depth_aspect() {
        true => state.depth.compare,
        false => wgpu::CompareFunction::Always,
    };
    Some(wgpu::DepthStencilState {
        format,
        depth_write_enabled: Some(writes_depth),
        depth_compare: Some(compare),
        stencil,
        bias: wgpu::DepthBiasState {
            constant: state.depth.bias,
            slope_scale: f32::from_bits(state.depth.bias_slope_scale_bits),
            clamp: f32::from_bits(state.depth.bias_clamp_bits),
        },
    })
}

/// `VGPU-DRAW-COLOR-OUTPUT` unless each color attachment that is written has a fragment output
/// of a type its format can store, no output is left without an attachment, and the draw's
/// `colors` list no more attachments than `sig` has. A depth-only target ignores outputs.
fn check_color_outputs(
    label: &str,
    outputs: &[FragmentOutput],
    state: &RenderStateKey,
    sig: TargetSignature,
    targets: &[Option<wgpu::ColorTargetState>],
) -> Result<()> {
    let err = |location: u32, expected: String, actual: String| -> crate::error::Error {
        PipelineError::ColorOutput {
            label: label.to_owned(),
            location,
            expected,
            actual,
        }
        .into()
    };
    if state.colors.len() > sig.colors.len() {
        return Err(err(
            sig.colors.len() as u32,
            format!(
                "at most {} entries in DrawDesc::colors (the target's color attachments)",
                sig.colors.len()
            ),
            format!("{} entries", state.colors.len()),
        ));
    }
    if sig.colors.is_empty() {
        return Ok(());
    }
    for (i, target) in targets.iter().enumerate() {
        let Some(target) = target else { continue };
        let location = i as u32;
        let output = outputs
            .iter()
            .find(|o| o.location == location && o.blend_src != Some(1));
        match output {
            None if target.write_mask.is_empty() => {}
            None => {
                return Err(err(
                    location,
                    format!(
                        "an @location({location}) output for the target's {:?} attachment",
                        target.format
                    ),
                    "no such output in the fragment stage".to_owned(),
                ));
            }
            Some(o) => {
                if let Some(expected) = output_type_for(target.format, o) {
                    return Err(err(location, expected, output_type(o)));
                }
            }
        }
    }
    if let Some(extra) = outputs
        .iter()
        .find(|o| o.location as usize >= sig.colors.len())
    {
        return Err(err(
            extra.location,
            format!(
                "outputs at @location(0..{}) only (the target's color attachments: {:?})",
                sig.colors.len(),
                sig.colors
            ),
            format!(
                "an output `{}` at @location({})",
                extra.name, extra.location
            ),
        ));
    }
    Ok(())
}

/// `None` when output `o` can be stored by `format`, else what it should be: the same kind of
/// scalar (float for float, unorm and snorm formats; `i32` for sint; `u32` for uint) and at least
/// the format's component count.
fn output_type_for(format: wgpu::TextureFormat, o: &FragmentOutput) -> Option<String> {
    let (kind, fits) = match format.sample_type(None, None) {
        Some(wgpu::TextureSampleType::Float { .. }) => {
            ("f32", matches!(o.scalar, ScalarType::F32 | ScalarType::F16))
        }
        Some(wgpu::TextureSampleType::Sint) => ("i32", o.scalar == ScalarType::I32),
        Some(wgpu::TextureSampleType::Uint) => ("u32", o.scalar == ScalarType::U32),
        _ => return None,
    };
    let components = format.components();
    if fits && o.components >= components {
        return None;
    }
    Some(match components {
        1 => format!("a {kind} (or vector of {kind}) output for the {format:?} attachment"),
        n => format!("a vec{n}<{kind}> (or wider) output for the {format:?} attachment"),
    })
}

/// The WGSL type of output `o`, as text.
fn output_type(o: &FragmentOutput) -> String {
    let scalar = match o.scalar {
        ScalarType::F16 => "f16",
        ScalarType::F32 => "f32",
        ScalarType::F64 => "f64",
        ScalarType::I32 => "i32",
        ScalarType::U32 => "u32",
        ScalarType::I64 => "i64",
        ScalarType::U64 => "u64",
    };
    match o.components {
        1 => scalar.to_owned(),
        n => format!("vec{n}<{scalar}>"),
    }
}

/// `VGPU-DRAW-STENCIL` when the draw tests or writes stencil but `sig` has no stencil aspect.
fn check_stencil(label: &str, state: &RenderStateKey, sig: TargetSignature) -> Result<()> {
    if state.stencil == wgpu::StencilState::default() || sig.has_stencil() {
        return Ok(());
    }
    Err(PipelineError::Stencil {
        label: label.to_owned(),
        format: sig.depth,
    }
    .into())
}

/// `VGPU-DOWNLEVEL-MISSING` for a depth bias clamp on an adapter without
/// `DownlevelFlags::DEPTH_BIAS_CLAMP` (GL's `glPolygonOffset` has no clamp).
fn check_bias_clamp(
    ctx: &GpuContext,
    label: &str,
    state: &RenderStateKey,
    sig: TargetSignature,
) -> Result<()> {
    let clamp = f32::from_bits(state.depth.bias_clamp_bits);
    if clamp == 0.0 || sig.depth.is_none() {
        return Ok(());
    }
    let flag = wgpu::DownlevelFlags::DEPTH_BIAS_CLAMP;
    if ctx
        .adapter()
        .get_downlevel_capabilities()
        .flags
        .contains(flag)
    {
        return Ok(());
    }
    Err(PipelineError::DownlevelMissing {
        label: label.to_owned(),
        what: "a depth bias clamp (DepthState::bias_clamp_bits)",
        flag,
    }
    .into())
}

/// `VGPU-DRAW-BLEND` when a color target blends into a format that cannot blend (`Rgba32Float`
/// without `FLOAT32_BLENDABLE`, the integer formats, …).
fn check_blendable(
    ctx: &GpuContext,
    label: &str,
    targets: &[Option<wgpu::ColorTargetState>],
) -> Result<()> {
    for (i, t) in targets.iter().enumerate() {
        let Some(t) = t.as_ref().filter(|t| t.blend.is_some()) else {
            continue;
        };
        let flags = ctx.format_features(t.format).flags;
        if !flags.contains(wgpu::TextureFormatFeatureFlags::BLENDABLE) {
            return Err(PipelineError::Blend {
                label: label.to_owned(),
                location: i as u32,
                format: t.format,
            }
            .into());
        }
    }
    Ok(())
}
