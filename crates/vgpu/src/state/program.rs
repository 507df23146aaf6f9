//! Programs: a shader plus its entry points, with explicit bind-group layouts (registered in the
//! bind-group cache) and a pipeline layout. Cached per (shader, entry points) so draws that share
//! a shader share layouts, bind groups and pipelines.

use std::sync::Arc;

use smallvec::SmallVec;
use vgpu_bind::LayoutKey;
use vgpu_core::PipelineLayoutDesc;
use vgpu_core::{BindingKind, EntryPointInfo, Stage};

use super::State;
use super::resources::ShaderRecord;
use crate::error::Result;

/// One binding used by a program's entry points.
#[derive(Debug)]
pub(crate) struct ProgramBinding {
    /// Index in `shader.reflection().bindings()`.
    pub(crate) info: usize,
    pub(crate) name: Arc<str>,
    pub(crate) group: u32,
    pub(crate) binding: u32,
    pub(crate) kind: BindingKind,
    /// Bound with a dynamic offset (library-owned uniform values move between slots).
    pub(crate) dynamic: bool,
    /// Size the binding is bound with when library-owned (the type's size; for runtime arrays,
    /// the fixed part plus one element).
    pub(crate) min_size: u64,
}

/// One bind group of a program, at its device slot (`Program::groups` index; see
/// `group_order.rs`).
#[derive(Debug)]
pub(crate) struct ProgramGroup {
    /// Its WGSL `@group` number (what users and messages see).
    pub(crate) wgsl_group: u32,
    pub(crate) layout_key: LayoutKey,
    /// Range of `Program::bindings` in this group (sorted by binding number).
    pub(crate) first: usize,
    pub(crate) len: usize,
}

/// Which pipeline a program builds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Stages {
    Render { vs: String, fs: Option<String> },
    Compute { cs: String },
}

/// A shader with chosen entry points and its layouts.
#[derive(Debug)]
pub(crate) struct Program {
    pub(crate) id: u64,
    pub(crate) shader: Arc<ShaderRecord>,
    pub(crate) stages: Stages,
    /// The bindings its entry points use, in WGSL order (by group number, then binding number):
    /// an operation's contents follow this order whatever program (claims) it has.
    pub(crate) bindings: Vec<ProgramBinding>,
    /// Its groups by device slot: value groups after the others (`group_order.rs`).
    pub(crate) groups: SmallVec<[ProgramGroup; 4]>,
    /// The WGSL group number of each device slot when it differs from the WGSL order (then
    /// `module` holds the renumbered module).
    pub(crate) device_order: Option<SmallVec<[u32; 8]>>,
    module: std::sync::OnceLock<wgpu::ShaderModule>,
    pub(crate) pipeline_layout: wgpu::PipelineLayout,
    /// Vertex inputs of the vertex entry point.
    pub(crate) vertex_inputs: Vec<vgpu_core::VertexInput>,
    /// The fragment entry point's outputs, by location.
    pub(crate) fragment_outputs: Vec<vgpu_core::FragmentOutput>,
    pub(crate) workgroup_size: [u32; 3],
    /// The groups this program's operations claimed (none for most: the set path's claim check
    /// is one compare then).
    pub(crate) claims: ClaimSpec,
}

impl Program {
    /// The wgpu module its pipelines are made from: the shader's, or, when its groups take
    /// another order on the device, the reflected module renumbered so (created on first use).
    pub(crate) fn module<'a>(
        &'a self,
        ctx: &vgpu_core::GpuContext,
    ) -> Result<&'a wgpu::ShaderModule> {
        let Some(order) = &self.device_order else {
            return self.shader.module(ctx);
        };
        if let Some(m) = self.module.get() {
            return Ok(m);
        }
        let module = super::group_order::remap_module(self.shader.core.module(), order);
        let m = ctx.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.shader.label()),
            source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(module)),
        })?;
        Ok(self.module.get_or_init(|| m))
    }

    /// Index of the binding named `name`.
    pub(crate) fn binding_index(&self, name: &str) -> Option<usize> {
        self.bindings.iter().position(|b| &*b.name == name)
    }

    /// Checks a Rust type (its `shape`, name and `size`) against binding `index`'s WGSL type
    /// as the first typed set does: `VGPU-SET-KIND` for a binding that takes no value or a
    /// runtime-sized array, `VGPU-SET-TYPED-LAYOUT` naming the first difference.
    pub(crate) fn check_typed(
        &self,
        label: &str,
        index: usize,
        shape: &vgpu_core::RustShape,
        rust_type: &str,
        size: usize,
    ) -> Result<(), crate::error::Error> {
        let Some(pb) = self.bindings.get(index) else {
            return Ok(());
        };
        let kind_error = |actual: &str| -> crate::error::Error {
            crate::error::BindingError::Kind {
                label: label.to_owned(),
                binding: pb.name.to_string(),
                expected: pb.kind.describe(),
                actual: actual.to_owned(),
            }
            .into()
        };
        let plan = match (&pb.kind, self.shader.core.bindings().get(pb.info)) {
            (BindingKind::UniformBuffer | BindingKind::StorageBuffer { .. }, Some(info)) => {
                info.plan.as_deref()
            }
            _ => None,
        };
        let Some(plan) = plan else {
            return Err(kind_error("a typed value"));
        };
        let cx = vgpu_core::PackContext::new(label, &pb.name);
        shape.check(plan.layout(), rust_type, &cx)?;
        if size != plan.size() || plan.runtime_array().is_some() {
            return Err(kind_error("a typed value of another size"));
        }
        Ok(())
    }

    /// `VGPU-SET-BINDING-UNKNOWN` for `name`, listing the bindings (and a likely misspelling).
    #[cold]
    pub(crate) fn unknown_binding(&self, label: &str, name: &str) -> vgpu_core::SetError {
        let available: Vec<Box<str>> = self.bindings.iter().map(|b| Box::from(&*b.name)).collect();
        let hint = vgpu_core::did_you_mean(name, available.iter().map(|b| &**b));
        vgpu_core::SetError::BindingUnknown {
            label: label.into(),
            name: name.into(),
            available,
            hint,
        }
    }
}

/// The groups of a program that an operation claimed (bit `g`: group `g`, whose bind group the
/// caller provides: `state/claim.rs`), and those of them laid out with dynamic offsets for every
/// uniform and storage buffer. The default claims nothing: the program every operation starts
/// with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ClaimSpec {
    pub(crate) claimed: u8,
    pub(crate) dynamic: u8,
}

impl ClaimSpec {
    /// Whether group `group` is claimed, and if so whether with dynamic offsets.
    pub(crate) fn get(self, group: u32) -> Option<bool> {
        let bit = 1u8.checked_shl(group)?;
        (self.claimed & bit != 0).then_some(self.dynamic & bit != 0)
    }
}

/// Key of the program cache: a program that claims groups is another program (other layouts for
/// those groups, so another pipeline layout and other pipelines).
pub(crate) type ProgramKey = (u64, Stages, ClaimSpec);

impl State {
    /// The program of `shader` with `stages`, created (layouts included) on first use.
    pub(crate) fn program(
        &mut self,
        shader: &Arc<ShaderRecord>,
        stages: Stages,
    ) -> Result<Arc<Program>> {
        self.claimed_program(shader, stages, ClaimSpec::default())
    }

    /// The program of `shader` with `stages` whose groups in `claims` have the layouts the
    /// caller's bind groups are made from (see [`ClaimSpec`]), created on first use.
    pub(crate) fn claimed_program(
        &mut self,
        shader: &Arc<ShaderRecord>,
        stages: Stages,
        claims: ClaimSpec,
    ) -> Result<Arc<Program>> {
        let key: ProgramKey = (shader.id, stages, claims);
        if let Some(p) = self.programs.get(&key) {
            return Ok(p.clone());
        }
        let stages = key.1.clone();
        let refl = &shader.core;
        let entries = entry_points(refl, &stages)?;
        let desc = self.layout_desc(refl, &entries, claims)?;
        if self.ctx.adapter_info().backend == wgpu::Backend::Gl {
            check_gl_layouts(shader, &entries)?;
        }
        super::storage_access::check_storage_access(&self.ctx, shader, &entries)?;
        let (bindings, mut groups) = self.register_groups(shader, &desc)?;
        // In a browser the renumbered module would go back to WGSL through naga's writer (whose
        // result wgpu unwraps): the WGSL order is kept there.
        let device_order = if self.ctx.adapter_info().backend == wgpu::Backend::BrowserWebGpu {
            None
        } else {
            super::group_order::device_order(
                &super::group_order::value_groups(&desc),
                claims.claimed,
            )
        };
        if let Some(order) = &device_order {
            let mut by_wgsl: SmallVec<[Option<ProgramGroup>; 4]> =
                groups.into_iter().map(Some).collect();
            groups = order
                .iter()
                .filter_map(|&g| by_wgsl.get_mut(g as usize).and_then(Option::take))
                .collect();
        }
        let raw_layouts: Vec<Option<&wgpu::BindGroupLayout>> = groups
            .iter()
            .map(|g| self.bind.registry().layout(g.layout_key))
            .collect();
        let pipeline_layout = self
            .ctx
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(shader.label()),
                bind_group_layouts: &raw_layouts,
                immediate_size: 0,
            })?;
        let find = |stage| entries.iter().find(|e| e.stage == stage);
        let program = Arc::new(Program {
            id: self.next_id(),
            shader: shader.clone(),
            bindings,
            groups,
            device_order,
            module: std::sync::OnceLock::new(),
            pipeline_layout,
            vertex_inputs: find(Stage::Vertex)
                .map(|e| e.vertex_inputs.clone())
                .unwrap_or_default(),
            fragment_outputs: find(Stage::Fragment)
                .map(|e| e.fragment_outputs.clone())
                .unwrap_or_default(),
            workgroup_size: find(Stage::Compute).map_or([1, 1, 1], |e| e.workgroup_size),
            claims,
            stages,
        });
        self.programs.insert(key, program.clone());
        Ok(program)
    }

    /// The bind-group layouts of `entries`: library-owned uniform values use dynamic offsets,
    /// up to the device limit (less the claimed groups' dynamic uniform buffers); past it, static
    /// groups per slot (still cached). A claimed group's buffers all take dynamic offsets or none,
    /// as claimed.
    fn layout_desc(
        &self,
        refl: &vgpu_core::Shader,
        entries: &[&EntryPointInfo],
        claims: ClaimSpec,
    ) -> Result<PipelineLayoutDesc> {
        let used = || entries.iter().flat_map(|e| refl.entry_point_bindings(e));
        let mut claimed_uniforms: Vec<(u32, u32)> = used()
            .filter(|b| b.kind == BindingKind::UniformBuffer && claims.get(b.group) == Some(true))
            .map(|b| (b.group, b.binding))
            .collect();
        claimed_uniforms.sort_unstable();
        claimed_uniforms.dedup();
        let limit = (self
            .ctx
            .limits()
            .max_dynamic_uniform_buffers_per_pipeline_layout as usize)
            .saturating_sub(claimed_uniforms.len());
        let mut uniforms: Vec<(u32, u32)> = used()
            .filter(|b| b.kind == BindingKind::UniformBuffer && claims.get(b.group).is_none())
            .map(|b| (b.group, b.binding))
            .collect();
        uniforms.sort_unstable();
        uniforms.dedup();
        uniforms.truncate(limit);
        let desc = refl.pipeline_layout(entries, |b| match claims.get(b.group) {
            Some(dynamic) => dynamic,
            None => {
                b.kind == BindingKind::UniformBuffer
                    && uniforms.binary_search(&(b.group, b.binding)).is_ok()
            }
        })?;
        Ok(desc)
    }

    /// Registers each group's layout in the bind-group cache; returns the program's bindings,
    /// group by group, and its groups, both in WGSL order.
    fn register_groups(
        &mut self,
        shader: &ShaderRecord,
        desc: &PipelineLayoutDesc,
    ) -> Result<(Vec<ProgramBinding>, SmallVec<[ProgramGroup; 4]>)> {
        let refl = &shader.core;
        let mut bindings = Vec::new();
        let mut groups = SmallVec::new();
        for g in &desc.groups {
            let first = bindings.len();
            for e in &g.entries {
                let info = refl.binding_index(&e.name).unwrap_or_default();
                let min_size = refl
                    .bindings()
                    .get(info)
                    .and_then(|b| b.min_binding_size())
                    .map_or(0, |s| s.get());
                bindings.push(ProgramBinding {
                    info,
                    name: Arc::from(e.name.as_str()),
                    group: g.group,
                    binding: e.binding,
                    kind: e.kind,
                    dynamic: e.has_dynamic_offset,
                    min_size,
                });
            }
            let label = format!("{} group {}", shader.label(), g.group);
            let layout_key = self.bind.create_layout(&g.wgpu_entries(), &label)?;
            groups.push(ProgramGroup {
                wgsl_group: g.group,
                layout_key,
                first,
                len: g.entries.len(),
            });
        }
        Ok((bindings, groups))
    }
}

/// The reflected entry points `stages` names.
fn entry_points<'s>(
    refl: &'s vgpu_core::Shader,
    stages: &Stages,
) -> Result<SmallVec<[&'s EntryPointInfo; 2]>> {
    let mut entries = SmallVec::new();
    match stages {
        Stages::Render { vs, fs } => {
            entries.push(refl.entry_point(Stage::Vertex, Some(vs))?);
            if let Some(fs) = fs {
                entries.push(refl.entry_point(Stage::Fragment, Some(fs))?);
            }
        }
        Stages::Compute { cs } => entries.push(refl.entry_point(Stage::Compute, Some(cs))?),
    }
    Ok(entries)
}

/// On the GL backend, refuses bindings whose types wgpu lays out differently from WGSL.
fn check_gl_layouts(shader: &ShaderRecord, entries: &[&EntryPointInfo]) -> Result<()> {
    for e in entries
        .iter()
        .flat_map(|e| shader.core.entry_point_bindings(e))
    {
        let members = e.gl_hazards();
        if !members.is_empty() {
            return Err(crate::error::BindingError::GlLayout {
                label: shader.label().to_owned(),
                binding: e.name.clone(),
                members,
            }
            .into());
        }
    }
    Ok(())
}
