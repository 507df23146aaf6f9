//! [`Shader`]: WGSL parsed and validated by naga, with its reflection tables.
//!
//! Everything here is known from the WGSL source alone; no device is needed. When a device is
//! given ([`Shader::for_context`]) its features choose naga's capabilities (e.g. `SHADER_F16` →
//! `Capabilities::SHADER_FLOAT16`) and the plans compiled are counted in its [`Stats`].
//!
//! Hostile input: the source is bounded in size and in operators per statement before naga
//! sees it, naga runs on a thread with a large stack, and a naga panic becomes
//! [`ShaderError::Internal`] instead of unwinding into the caller.
//!
//! [`Stats`]: crate::Stats

use std::fmt;
use std::num::NonZeroU32;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use ahash::AHashMap;
use smallvec::SmallVec;

use crate::bind_layout::PipelineLayoutDesc;
use crate::device::GpuContext;
use crate::layout::{LayoutBuilder, MemberLayout, ScalarType, find_non_host_shareable};
use crate::plan::WritePlan;
use crate::reflect::{
    BindingInfo, BindingKind, EntryPointInfo, FragmentOutput, Stage, VertexInput, storage_access,
    storage_format, vertex_format, view_dimension,
};
use crate::set_error::{SetError, did_you_mean};
use crate::shader_error::ShaderError;

/// Stack of the thread naga runs on. Reserved, not committed: only pages touched are used.
const NAGA_STACK_BYTES: usize = 256 << 20;

/// Options for [`Shader::with_options`].
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ShaderOptions {
    /// Device features; they choose naga's capabilities (`SHADER_F16` enables `f16`, …).
    pub features: wgpu::Features,
    /// Downlevel flags; they choose the remaining capabilities (cube arrays, …).
    pub downlevel: wgpu::DownlevelFlags,
    /// Sources longer than this are rejected before parsing.
    pub max_source_bytes: usize,
    /// Most operator tokens (`+ - * / . [ (` …) allowed in one statement; bounds the depth of
    /// naga's recursive descent so hostile input cannot overflow its stack.
    pub max_statement_operators: usize,
}

impl Default for ShaderOptions {
    fn default() -> Self {
        ShaderOptions {
            features: wgpu::Features::empty(),
            downlevel: wgpu::DownlevelFlags::compliant(),
            max_source_bytes: 512 * 1024,
            max_statement_operators: 16 * 1024,
        }
    }
}

impl ShaderOptions {
    /// Default limits with the given device features.
    pub fn with_features(features: wgpu::Features) -> Self {
        ShaderOptions {
            features,
            ..Default::default()
        }
    }
}

/// A struct member reached through the member shorthand ([`Shader::resolve_member`]).
#[derive(Clone, Copy, Debug)]
pub struct MemberRef<'s> {
    /// Index of the binding in [`Shader::bindings`].
    pub binding_index: usize,
    /// The struct binding the member belongs to.
    pub binding: &'s BindingInfo,
    /// Index of the member in the struct.
    pub member_index: usize,
    /// The member's layout (offset, type).
    pub member: &'s MemberLayout,
}

/// A WGSL shader parsed and validated by naga, with per-entry-point reflection, buffer layouts
/// and compiled write plans. Immutable once built; share it with `Arc`.
pub struct Shader {
    label: Arc<str>,
    source: Arc<str>,
    features: wgpu::Features,
    module: naga::Module,
    info: naga::valid::ModuleInfo,
    bindings: Vec<BindingInfo>,
    by_name: AHashMap<Box<str>, usize>,
    members: AHashMap<Box<str>, SmallVec<[(u32, u32); 1]>>,
    entry_points: Vec<EntryPointInfo>,
    plans_compiled: usize,
}

impl fmt::Debug for Shader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shader")
            .field("label", &self.label)
            .field("entry_points", &self.entry_points)
            .field("bindings", &self.bindings)
            .finish_non_exhaustive()
    }
}

impl Shader {
    /// Parses and validates WGSL with no device features (WebGPU core capabilities).
    pub fn new(label: &str, source: &str) -> Result<Self, ShaderError> {
        Self::with_options(label, source, ShaderOptions::default())
    }

    /// Parses and validates WGSL with the capabilities of the given device features.
    pub fn with_features(
        label: &str,
        source: &str,
        features: wgpu::Features,
    ) -> Result<Self, ShaderError> {
        Self::with_options(label, source, ShaderOptions::with_features(features))
    }

    /// Parses and validates WGSL with the capabilities of `ctx`'s device (features and downlevel
    /// flags: on GL, cube arrays or multisampled shading are refused here, with a diagnostic,
    /// rather than by the driver), and counts the write
    /// plans compiled in `ctx.stats().plans_compiled`.
    pub fn for_context(ctx: &GpuContext, label: &str, source: &str) -> Result<Self, ShaderError> {
        let options = ShaderOptions {
            downlevel: ctx.adapter().get_downlevel_capabilities().flags,
            ..ShaderOptions::with_features(ctx.features())
        };
        let shader = Self::with_options(label, source, options)?;
        ctx.stats().plans_compiled.add(shader.plans_compiled as u64);
        Ok(shader)
    }

    /// Parses, validates and reflects WGSL with explicit options.
    pub fn with_options(
        label: &str,
        source: &str,
        options: ShaderOptions,
    ) -> Result<Self, ShaderError> {
        prescan(label, source, &options)?;
        let caps = naga_capabilities(options.features, options.downlevel);
        let (module, info) = run_naga(label, source, caps)?;
        let mut layouter = naga::proc::Layouter::default();
        layouter
            .update(module.to_ctx())
            .map_err(|e| ShaderError::Validation {
                label: label.to_owned(),
                message: e.to_string(),
                diagnostic: e.to_string(),
            })?;
        let tables = Reflector::new(label, &module, &info, &layouter).run()?;
        Ok(Shader {
            label: label.into(),
            source: source.into(),
            features: options.features,
            module,
            info,
            bindings: tables.bindings,
            by_name: tables.by_name,
            members: tables.members,
            entry_points: tables.entry_points,
            plans_compiled: tables.plans_compiled,
        })
    }

    /// The label given at creation (used as the file name in diagnostics).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The WGSL source.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The WGSL source, shared.
    pub fn source_arc(&self) -> &Arc<str> {
        &self.source
    }

    /// The device features the shader was validated against.
    pub fn features(&self) -> wgpu::Features {
        self.features
    }

    /// naga's IR of the shader.
    pub fn module(&self) -> &naga::Module {
        &self.module
    }

    /// naga's validation info of the shader.
    pub fn module_info(&self) -> &naga::valid::ModuleInfo {
        &self.info
    }

    /// Number of distinct write plans compiled for this shader's buffer types.
    pub fn plans_compiled(&self) -> usize {
        self.plans_compiled
    }

    /// Every resource binding, sorted by (group, binding, name).
    pub fn bindings(&self) -> &[BindingInfo] {
        &self.bindings
    }

    /// The binding with this WGSL name.
    #[inline]
    pub fn binding(&self, name: &str) -> Option<&BindingInfo> {
        self.by_name.get(name).map(|&i| &self.bindings[i])
    }

    /// Index in [`bindings`](Self::bindings) of the binding with this WGSL name.
    #[inline]
    pub fn binding_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The binding with this WGSL name, or `VGPU-SET-BINDING-UNKNOWN` listing the bindings.
    pub fn binding_or_err(&self, name: &str, label: &str) -> Result<&BindingInfo, SetError> {
        self.binding(name)
            .ok_or_else(|| self.unknown_name(name, label))
    }

    /// Member shorthand: the struct binding that has a member called `name`, if exactly one
    /// does. Two or more: `VGPU-SET-MEMBER-AMBIGUOUS` naming the candidates; none:
    /// `VGPU-SET-BINDING-UNKNOWN`. `label` (the draw label) only goes into errors.
    pub fn resolve_member(&self, name: &str, label: &str) -> Result<MemberRef<'_>, SetError> {
        match self.members.get(name).map(|v| v.as_slice()) {
            Some(&[(b, m)]) => {
                let binding = &self.bindings[b as usize];
                let member = binding
                    .layout
                    .as_ref()
                    .and_then(|l| l.members().get(m as usize));
                match member {
                    Some(member) => Ok(MemberRef {
                        binding_index: b as usize,
                        binding,
                        member_index: m as usize,
                        member,
                    }),
                    None => Err(self.unknown_name(name, label)),
                }
            }
            Some(many) if many.len() > 1 => Err(SetError::MemberAmbiguous {
                label: label.into(),
                member: name.into(),
                candidates: many
                    .iter()
                    .map(|&(b, _)| format!("{}.{name}", self.bindings[b as usize].name).into())
                    .collect(),
            }),
            _ => Err(self.unknown_name(name, label)),
        }
    }

    /// `VGPU-SET-BINDING-UNKNOWN` for `name`. The did-you-mean hint prefers a binding: a close
    /// binding name (`modle` → `model`) wins over a closer struct member (`mode`); a member is
    /// suggested only when no binding is close (members in name order, so ties are stable).
    #[cold]
    fn unknown_name(&self, name: &str, label: &str) -> SetError {
        let hint =
            did_you_mean(name, self.bindings.iter().map(|b| b.name.as_str())).or_else(|| {
                let mut members: Vec<&str> = self.members.keys().map(|k| &**k).collect();
                members.sort_unstable();
                did_you_mean(name, members)
            });
        SetError::BindingUnknown {
            label: label.into(),
            name: name.into(),
            available: self
                .bindings
                .iter()
                .map(|b| format!("{} ({})", b.name, b.kind.describe()).into())
                .collect(),
            hint,
        }
    }

    /// Every entry point, in declaration order.
    pub fn entry_points(&self) -> &[EntryPointInfo] {
        &self.entry_points
    }

    /// The entry point with this function name.
    pub fn entry_point_named(&self, name: &str) -> Option<&EntryPointInfo> {
        self.entry_points.iter().find(|e| e.name == name)
    }

    /// The entry point of `stage`: the one called `name` if given; otherwise the one called
    /// `vs_main` / `fs_main` / `cs_main`, or else the only one of that stage.
    pub fn entry_point(
        &self,
        stage: Stage,
        name: Option<&str>,
    ) -> Result<&EntryPointInfo, ShaderError> {
        let err = |expected: String, actual: String| ShaderError::EntryPoint {
            label: self.label.to_string(),
            expected,
            actual,
            available: self
                .entry_points
                .iter()
                .map(|e| format!("{} ({})", e.name, e.stage.name()))
                .collect(),
        };
        if let Some(name) = name {
            return match self.entry_point_named(name) {
                Some(e) if e.stage == stage => Ok(e),
                Some(e) => Err(err(
                    format!("a {} entry point named `{name}`", stage.name()),
                    format!("`{name}` is a {} entry point", e.stage.name()),
                )),
                None => Err(err(
                    format!("a {} entry point named `{name}`", stage.name()),
                    format!("no entry point named `{name}`"),
                )),
            };
        }
        let default = stage.default_entry_point();
        if let Some(e) = self
            .entry_points
            .iter()
            .find(|e| e.stage == stage && e.name == default)
        {
            return Ok(e);
        }
        let mut of_stage = self.entry_points.iter().filter(|e| e.stage == stage);
        match (of_stage.next(), of_stage.next()) {
            (Some(e), None) => Ok(e),
            (None, _) => Err(err(
                format!("a {} entry point", stage.name()),
                format!("no {} entry point", stage.name()),
            )),
            (Some(_), Some(_)) => Err(err(
                format!("one {} entry point, or one named `{default}`", stage.name()),
                format!(
                    "several: {}",
                    self.entry_points
                        .iter()
                        .filter(|e| e.stage == stage)
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// The bindings an entry point uses.
    pub fn entry_point_bindings<'a>(
        &'a self,
        entry: &'a EntryPointInfo,
    ) -> impl Iterator<Item = &'a BindingInfo> + 'a {
        entry.bindings.iter().filter_map(|&i| self.bindings.get(i))
    }

    /// Explicit bind-group layouts for a pipeline made of `entry_points` (e.g. vertex +
    /// fragment): the bindings any of them uses, visibility = the union of the stages that use
    /// each, `has_dynamic_offset` chosen per buffer binding by `dynamic_offset`. Fails on a
    /// gap in the group numbers or on conflicting declarations of one (group, binding).
    pub fn pipeline_layout(
        &self,
        entry_points: &[&EntryPointInfo],
        dynamic_offset: impl Fn(&BindingInfo) -> bool,
    ) -> Result<PipelineLayoutDesc, ShaderError> {
        let uses = entry_points.iter().flat_map(|e| {
            let stage = e.stage.to_wgpu();
            self.entry_point_bindings(e).map(move |b| (b, stage))
        });
        PipelineLayoutDesc::build(&self.label, uses, dynamic_offset)
    }
}

/// naga capabilities for a device's features and downlevel flags (the same mapping wgpu-core
/// applies when it creates a shader module).
pub fn naga_capabilities(
    features: wgpu::Features,
    downlevel: wgpu::DownlevelFlags,
) -> naga::valid::Capabilities {
    use naga::valid::Capabilities as C;
    use wgpu::Features as F;
    let mut c = C::empty();
    let pairs = [
        (C::IMMEDIATES, F::IMMEDIATES),
        (C::FLOAT64, F::SHADER_F64),
        (C::SHADER_FLOAT16, F::SHADER_F16),
        (C::SHADER_INT16, F::SHADER_I16),
        (C::PRIMITIVE_INDEX, F::PRIMITIVE_INDEX),
        (
            C::TEXTURE_AND_SAMPLER_BINDING_ARRAY,
            F::TEXTURE_BINDING_ARRAY,
        ),
        (C::BUFFER_BINDING_ARRAY, F::BUFFER_BINDING_ARRAY),
        (
            C::TEXTURE_AND_SAMPLER_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::SAMPLED_TEXTURE_AND_STORAGE_BUFFER_ARRAY_NON_UNIFORM_INDEXING,
        ),
        (
            C::BUFFER_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::UNIFORM_BUFFER_BINDING_ARRAYS,
        ),
        (
            C::STORAGE_TEXTURE_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::STORAGE_TEXTURE_ARRAY_NON_UNIFORM_INDEXING,
        ),
        (
            C::STORAGE_BUFFER_BINDING_ARRAY_NON_UNIFORM_INDEXING,
            F::SAMPLED_TEXTURE_AND_STORAGE_BUFFER_ARRAY_NON_UNIFORM_INDEXING,
        ),
        (
            C::STORAGE_TEXTURE_16BIT_NORM_FORMATS,
            F::TEXTURE_FORMAT_16BIT_NORM,
        ),
        (C::MULTIVIEW, F::MULTIVIEW),
        (C::EARLY_DEPTH_TEST, F::SHADER_EARLY_DEPTH_TEST),
        (C::SHADER_INT64, F::SHADER_INT64),
        (
            C::SHADER_INT64_ATOMIC_ALL_OPS,
            F::SHADER_INT64_ATOMIC_ALL_OPS,
        ),
        (C::TEXTURE_ATOMIC, F::TEXTURE_ATOMIC),
        (C::TEXTURE_INT64_ATOMIC, F::TEXTURE_INT64_ATOMIC),
        (C::SHADER_FLOAT32_ATOMIC, F::SHADER_FLOAT32_ATOMIC),
        (C::DUAL_SOURCE_BLENDING, F::DUAL_SOURCE_BLENDING),
        (C::CLIP_DISTANCES, F::CLIP_DISTANCES),
        (C::SUBGROUP_BARRIER, F::SUBGROUP_BARRIER),
        (C::SUBGROUP_VERTEX_STAGE, F::SUBGROUP_VERTEX),
        (C::SHADER_BARYCENTRICS, F::SHADER_BARYCENTRICS),
        (C::PER_VERTEX, F::SHADER_PER_VERTEX),
        (C::DRAW_INDEX, F::SHADER_DRAW_INDEX),
    ];
    for (cap, feature) in pairs {
        c.set(cap, features.contains(feature));
    }
    c.set(
        C::STORAGE_TEXTURE_BINDING_ARRAY,
        features.contains(F::TEXTURE_BINDING_ARRAY | F::STORAGE_RESOURCE_BINDING_ARRAY),
    );
    c.set(
        C::STORAGE_BUFFER_BINDING_ARRAY,
        features.contains(F::BUFFER_BINDING_ARRAY | F::STORAGE_RESOURCE_BINDING_ARRAY),
    );
    c.set(
        C::SHADER_INT64_ATOMIC_MIN_MAX,
        features.intersects(F::SHADER_INT64_ATOMIC_MIN_MAX | F::SHADER_INT64_ATOMIC_ALL_OPS),
    );
    c.set(
        C::SUBGROUP,
        features.intersects(F::SUBGROUP | F::SUBGROUP_VERTEX),
    );
    c.set(
        C::SHADER_FLOAT16_IN_FLOAT32,
        downlevel.contains(wgpu::DownlevelFlags::SHADER_F16_IN_F32),
    );
    c.set(
        C::MULTISAMPLED_SHADING,
        downlevel.contains(wgpu::DownlevelFlags::MULTISAMPLED_SHADING),
    );
    c.set(
        C::CUBE_ARRAY_TEXTURES,
        downlevel.contains(wgpu::DownlevelFlags::CUBE_ARRAY_TEXTURES),
    );
    c
}

/// Rejects sources that could make naga recurse without bound: too long, or a statement with
/// too many operators (long `a + a + …`, `- - - a`, `a.x.x.x…` chains nest naga's recursion).
fn prescan(label: &str, source: &str, options: &ShaderOptions) -> Result<(), ShaderError> {
    let limit = |what: &'static str, expected: usize, actual: usize| ShaderError::Limit {
        label: label.to_owned(),
        what,
        expected: expected as u64,
        actual: actual as u64,
    };
    if source.len() > options.max_source_bytes {
        return Err(limit(
            "source size in bytes",
            options.max_source_bytes,
            source.len(),
        ));
    }
    let b = source.as_bytes();
    let mut i = 0;
    let mut ops = 0usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // WGSL block comments nest.
                let mut depth = 0usize;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            b';' | b'{' | b'}' => ops = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'!' | b'~' | b'<' | b'>'
            | b'=' | b'[' | b'(' | b'@' => ops += 1,
            b'.' if b
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_' || *n >= 0x80) =>
            {
                ops += 1
            }
            _ => {}
        }
        if ops > options.max_statement_operators {
            return Err(limit(
                "operator tokens in one statement",
                options.max_statement_operators,
                ops,
            ));
        }
        i += 1;
    }
    Ok(())
}

type NagaOutput = (naga::Module, naga::valid::ModuleInfo);

/// Runs naga on a thread with a large stack, converting a panic into `ShaderError::Internal`.
fn run_naga(
    label: &str,
    source: &str,
    caps: naga::valid::Capabilities,
) -> Result<NagaOutput, ShaderError> {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("vgpu-naga".to_owned())
            .stack_size(NAGA_STACK_BYTES)
            .spawn_scoped(scope, move || guarded_naga(label, source, caps));
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|payload| Err(internal(label, payload.as_ref()))),
            // No thread available: run here, still guarded by the prescan limits.
            Err(_) => guarded_naga(label, source, caps),
        }
    })
}

fn guarded_naga(
    label: &str,
    source: &str,
    caps: naga::valid::Capabilities,
) -> Result<NagaOutput, ShaderError> {
    catch_unwind(AssertUnwindSafe(|| parse_and_validate(label, source, caps)))
        .unwrap_or_else(|payload| Err(internal(label, payload.as_ref())))
}

fn internal(label: &str, payload: &(dyn std::any::Any + Send)) -> ShaderError {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    ShaderError::Internal {
        label: label.to_owned(),
        message,
    }
}

fn parse_and_validate(
    label: &str,
    source: &str,
    caps: naga::valid::Capabilities,
) -> Result<NagaOutput, ShaderError> {
    let mut options = naga::front::wgsl::Options::new();
    options.capabilities = caps;
    let mut frontend = naga::front::wgsl::Frontend::new_with_options(options);
    let module = frontend.parse(source).map_err(|e| {
        let loc = e.location(source);
        ShaderError::Parse {
            label: label.to_owned(),
            message: e.message().to_owned(),
            line: loc.map_or(0, |l| l.line_number),
            column: loc.map_or(0, |l| l.line_position),
            diagnostic: e.emit_to_string_with_path(source, label),
        }
    })?;
    // Before validation: a bool (or an absurdly deep type) in a buffer gets an error that says
    // what to use instead, rather than naga's generic "not host-shareable".
    for (_, gv) in module.global_variables.iter() {
        if !matches!(
            gv.space,
            naga::AddressSpace::Uniform | naga::AddressSpace::Storage { .. }
        ) {
            continue;
        }
        if let Some(p) = find_non_host_shareable(&module, gv.ty, 0) {
            if p.too_deep {
                return Err(ShaderError::Limit {
                    label: label.to_owned(),
                    what: "type nesting depth of a buffer binding",
                    expected: crate::layout::MAX_TYPE_DEPTH as u64,
                    actual: crate::layout::MAX_TYPE_DEPTH as u64 + 1,
                });
            }
            return Err(ShaderError::HostShareable {
                label: label.to_owned(),
                binding: gv.name.clone().unwrap_or_default(),
                path: p.path_string_rev(),
                actual: p.actual,
                hint: p.hint,
            });
        }
    }
    let info = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), caps)
        .validate(&module)
        .map_err(|e| ShaderError::Validation {
            label: label.to_owned(),
            message: error_chain(e.as_inner()),
            diagnostic: e.emit_to_string_with_path(source, label),
        })?;
    Ok((module, info))
}

/// What reflection produces, owned (no borrow of the module).
struct Tables {
    bindings: Vec<BindingInfo>,
    by_name: AHashMap<Box<str>, usize>,
    members: AHashMap<Box<str>, SmallVec<[(u32, u32); 1]>>,
    entry_points: Vec<EntryPointInfo>,
    plans_compiled: usize,
}

/// `error: cause: cause…`, every source of an error on one line (naga's validation errors keep
/// the actual reason in their sources).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    // Bounded: error chains are short, but do not trust a cycle.
    for _ in 0..16 {
        let Some(c) = cur else { break };
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// Builds the reflection tables from a validated module.
struct Reflector<'m> {
    label: &'m str,
    module: &'m naga::Module,
    info: &'m naga::valid::ModuleInfo,
    layouts: LayoutBuilder<'m>,
    plans: AHashMap<*const crate::layout::TypeLayout, Arc<WritePlan>>,
}

impl<'m> Reflector<'m> {
    fn new(
        label: &'m str,
        module: &'m naga::Module,
        info: &'m naga::valid::ModuleInfo,
        layouter: &'m naga::proc::Layouter,
    ) -> Self {
        Reflector {
            label,
            module,
            info,
            layouts: LayoutBuilder::new(module, layouter),
            plans: AHashMap::default(),
        }
    }

    fn unsupported(&self, item: &str, what: String) -> ShaderError {
        ShaderError::Unsupported {
            label: self.label.to_owned(),
            item: item.to_owned(),
            what,
        }
    }

    fn run(mut self) -> Result<Tables, ShaderError> {
        // Stages of the reflected entry points, in module order.
        let mut stages = Vec::with_capacity(self.module.entry_points.len());
        for ep in &self.module.entry_points {
            let stage = Stage::from_naga(ep.stage)
                .ok_or_else(|| self.unsupported(&ep.name, format!("the {:?} stage", ep.stage)))?;
            stages.push(stage);
        }

        let mut bindings: Vec<(naga::Handle<naga::GlobalVariable>, BindingInfo)> = Vec::new();
        for (handle, gv) in self.module.global_variables.iter() {
            let Some(rb) = gv.binding else { continue };
            let mut visibility = wgpu::ShaderStages::NONE;
            for (i, stage) in stages.iter().enumerate() {
                if !self.info.get_entry_point(i)[handle].is_empty() {
                    visibility |= stage.to_wgpu();
                }
            }
            let info = self.binding(gv, rb, visibility)?;
            bindings.push((handle, info));
        }
        bindings.sort_by(|a, b| {
            (a.1.group, a.1.binding, &a.1.name).cmp(&(b.1.group, b.1.binding, &b.1.name))
        });

        let mut entry_points = Vec::with_capacity(stages.len());
        for (i, (ep, stage)) in self.module.entry_points.iter().zip(&stages).enumerate() {
            let fi = self.info.get_entry_point(i);
            let used = bindings
                .iter()
                .enumerate()
                .filter(|(_, (h, _))| !fi[*h].is_empty())
                .map(|(j, _)| j)
                .collect();
            entry_points.push(EntryPointInfo {
                name: ep.name.clone(),
                stage: *stage,
                workgroup_size: if *stage == Stage::Compute {
                    ep.workgroup_size
                } else {
                    [0; 3]
                },
                vertex_inputs: if *stage == Stage::Vertex {
                    self.vertex_inputs(ep)?
                } else {
                    Vec::new()
                },
                fragment_outputs: if *stage == Stage::Fragment {
                    self.fragment_outputs(ep)?
                } else {
                    Vec::new()
                },
                bindings: used,
            });
        }

        let bindings: Vec<BindingInfo> = bindings.into_iter().map(|(_, b)| b).collect();
        let mut by_name = AHashMap::default();
        let mut members: AHashMap<Box<str>, SmallVec<[(u32, u32); 1]>> = AHashMap::default();
        for (i, b) in bindings.iter().enumerate() {
            by_name.insert(b.name.clone().into_boxed_str(), i);
            if let Some(layout) = &b.layout {
                for (m, member) in layout.members().iter().enumerate() {
                    members
                        .entry(member.name.clone())
                        .or_default()
                        .push((i as u32, m as u32));
                }
            }
        }
        Ok(Tables {
            plans_compiled: self.plans.len(),
            bindings,
            by_name,
            members,
            entry_points,
        })
    }

    fn binding(
        &mut self,
        gv: &naga::GlobalVariable,
        rb: naga::ResourceBinding,
        visibility: wgpu::ShaderStages,
    ) -> Result<BindingInfo, ShaderError> {
        let name = gv.name.clone().unwrap_or_default();
        let mut ty = gv.ty;
        let mut count = None;
        if let naga::TypeInner::BindingArray { base, size } = self.module.types[ty].inner {
            match size {
                naga::ArraySize::Constant(n) => count = Some(NonZeroU32::from(n)),
                _ => {
                    return Err(self
                        .unsupported(&name, "a binding_array without a constant size".to_owned()));
                }
            }
            ty = base;
        }
        let type_name = crate::layout::type_name(self.module, gv.ty);
        let (kind, layout) = match gv.space {
            naga::AddressSpace::Uniform | naga::AddressSpace::Storage { .. } => {
                let kind = match gv.space {
                    naga::AddressSpace::Storage { access } => BindingKind::StorageBuffer {
                        read_only: !access.contains(naga::StorageAccess::STORE),
                    },
                    _ => BindingKind::UniformBuffer,
                };
                let layout = self.layouts.layout(ty).map_err(|p| {
                    if p.too_deep {
                        ShaderError::Limit {
                            label: self.label.to_owned(),
                            what: "type nesting depth of a buffer binding",
                            expected: crate::layout::MAX_TYPE_DEPTH as u64,
                            actual: crate::layout::MAX_TYPE_DEPTH as u64 + 1,
                        }
                    } else {
                        ShaderError::HostShareable {
                            label: self.label.to_owned(),
                            binding: name.clone(),
                            path: p.path_string_rev(),
                            actual: p.actual,
                            hint: p.hint,
                        }
                    }
                })?;
                (kind, Some(layout))
            }
            naga::AddressSpace::Handle => {
                let kind = match self.module.types[ty].inner {
                    naga::TypeInner::Image {
                        dim,
                        arrayed,
                        class,
                    } => {
                        let view_dimension = view_dimension(dim, arrayed);
                        match class {
                            naga::ImageClass::Sampled { kind, multi } => BindingKind::Texture {
                                sample_type: match kind {
                                    naga::ScalarKind::Sint => wgpu::TextureSampleType::Sint,
                                    naga::ScalarKind::Uint => wgpu::TextureSampleType::Uint,
                                    _ => wgpu::TextureSampleType::Float { filterable: !multi },
                                },
                                view_dimension,
                                multisampled: multi,
                            },
                            naga::ImageClass::Depth { multi } => BindingKind::Texture {
                                sample_type: wgpu::TextureSampleType::Depth,
                                view_dimension,
                                multisampled: multi,
                            },
                            naga::ImageClass::Storage { format, access } => {
                                BindingKind::StorageTexture {
                                    format: storage_format(format),
                                    access: storage_access(access),
                                    view_dimension,
                                }
                            }
                            naga::ImageClass::External => {
                                return Err(self.unsupported(&name, "texture_external".to_owned()));
                            }
                        }
                    }
                    naga::TypeInner::Sampler { comparison } => {
                        BindingKind::Sampler(if comparison {
                            wgpu::SamplerBindingType::Comparison
                        } else {
                            wgpu::SamplerBindingType::Filtering
                        })
                    }
                    _ => {
                        return Err(
                            self.unsupported(&name, format!("a binding of type {type_name}"))
                        );
                    }
                };
                (kind, None)
            }
            other => {
                return Err(
                    self.unsupported(&name, format!("a binding in address space {other:?}"))
                );
            }
        };
        let plan = layout.as_ref().map(|l| {
            self.plans
                .entry(Arc::as_ptr(l))
                .or_insert_with(|| Arc::new(WritePlan::new(l.clone())))
                .clone()
        });
        Ok(BindingInfo {
            name,
            group: rb.group,
            binding: rb.binding,
            kind,
            visibility,
            count,
            type_name,
            layout,
            plan,
        })
    }

    fn scalar_components(&self, ty: naga::Handle<naga::Type>) -> Option<(ScalarType, u8)> {
        match self.module.types[ty].inner {
            naga::TypeInner::Scalar(s) => Some((ScalarType::from_naga(s)?, 1)),
            naga::TypeInner::Vector { size, scalar } => {
                Some((ScalarType::from_naga(scalar)?, size as u8))
            }
            _ => None,
        }
    }

    /// `(name, binding, type)` of every location-bound value among `args` (arguments or a
    /// result), with struct members flattened.
    fn locations(
        &self,
        items: impl Iterator<Item = (String, Option<naga::Binding>, naga::Handle<naga::Type>)>,
    ) -> Vec<(String, u32, Option<u32>, naga::Handle<naga::Type>)> {
        let mut out = Vec::new();
        for (name, binding, ty) in items {
            match binding {
                Some(naga::Binding::Location {
                    location,
                    blend_src,
                    ..
                }) => out.push((name, location, blend_src, ty)),
                Some(naga::Binding::BuiltIn(_)) => {}
                None => {
                    if let naga::TypeInner::Struct { members, .. } = &self.module.types[ty].inner {
                        for m in members {
                            if let Some(naga::Binding::Location {
                                location,
                                blend_src,
                                ..
                            }) = m.binding
                            {
                                out.push((
                                    m.name.clone().unwrap_or_default(),
                                    location,
                                    blend_src,
                                    m.ty,
                                ));
                            }
                        }
                    }
                }
            }
        }
        out.sort_by_key(|l| (l.1, l.2));
        out
    }

    fn vertex_inputs(&self, ep: &naga::EntryPoint) -> Result<Vec<VertexInput>, ShaderError> {
        let items = ep
            .function
            .arguments
            .iter()
            .map(|a| (a.name.clone().unwrap_or_default(), a.binding.clone(), a.ty));
        self.locations(items)
            .into_iter()
            .map(|(name, location, _, ty)| {
                let format = self
                    .scalar_components(ty)
                    .and_then(|(s, n)| vertex_format(s, n))
                    .ok_or_else(|| {
                        self.unsupported(
                            &ep.name,
                            format!(
                                "vertex input `{name}` of type {}",
                                crate::layout::type_name(self.module, ty)
                            ),
                        )
                    })?;
                Ok(VertexInput {
                    name,
                    location,
                    format,
                })
            })
            .collect()
    }

    fn fragment_outputs(&self, ep: &naga::EntryPoint) -> Result<Vec<FragmentOutput>, ShaderError> {
        let items = ep
            .function
            .result
            .iter()
            .map(|r| (String::new(), r.binding.clone(), r.ty));
        self.locations(items)
            .into_iter()
            .map(|(name, location, blend_src, ty)| {
                let (scalar, components) = self.scalar_components(ty).ok_or_else(|| {
                    self.unsupported(
                        &ep.name,
                        format!(
                            "fragment output `{name}` of type {}",
                            crate::layout::type_name(self.module, ty)
                        ),
                    )
                })?;
                Ok(FragmentOutput {
                    name,
                    location,
                    blend_src,
                    scalar,
                    components,
                })
            })
            .collect()
    }
}
