//! Claimed groups: a bind group of an operation that the caller provides (upstream's "group
//! claim"). Claiming group `g` moves the operation to the program of the same shader whose group
//! `g` has the layout handed out (`program.rs`, [`ClaimSpec`]), releases what the group's
//! bindings held, and keeps the claim in the group's memo (`GroupMemo::claimed`, out of line in
//! its `extra`: the record does not grow); from then on recording sets the caller's bind group
//! there with the offsets last given ([`ClaimedGroup::bound`], read by `record/full.rs`). A
//! claimed operation never takes the fast record (`Operation::rebuild_group_values`), so draws
//! without a claim pay nothing for claims: the full path asks each group's memo once.
//!
//! What is checked: the group number (`VGPU-GROUP-UNKNOWN`), calls on a group not claimed
//! (`VGPU-GROUP-NOT-CLAIMED`), a binding set in a claimed group (`VGPU-GROUP-CLAIMED`, in
//! `assign/`), recording without a bind group (`VGPU-GROUP-UNSET`), the count and alignment of
//! dynamic offsets (`VGPU-GROUP-OFFSETS`), and the entries of a bind group made through
//! [`State::create_claimed_group`] against the layout (`VGPU-GROUP-LAYOUT`). A `wgpu::BindGroup`
//! has no layout accessor: one the caller made with another layout is not caught here (wgpu
//! reports it when the pass is validated), nor an offset past the end of the caller's buffer.

use std::sync::atomic::{AtomicU64, Ordering};

use smallvec::SmallVec;

use super::State;
use super::claimed_group::ClaimedGroup;
use super::command_sink::MAX_DYNAMIC;
use super::memo::PipelineMemo;
use super::operation::{BindingContent, OpKey, Operation, OperationKind};
use super::program::{ClaimSpec, Program};
use crate::error::Result;
use crate::pipeline_error::PipelineError;

/// Ids of the callers' bind groups in what a pass has bound (`record/bound.rs`): counting down
/// from below `BoundGroup::NONE` (`u64::MAX`), never the id of a bind-group cache's group
/// (those count up from 1).
static NEXT_CALLER_GROUP: AtomicU64 = AtomicU64::new(u64::MAX - 1);

impl Operation {
    /// The claim of group `group`, if the caller claimed it.
    #[inline]
    fn claimed(&self, group: u32) -> Option<&ClaimedGroup> {
        self.groups
            .memo(self.fast.groups_len, group as usize)?
            .claimed()
    }

    /// The program variant the operation's claims need.
    fn claim_spec(&self) -> ClaimSpec {
        (0..u8::BITS)
            .filter_map(|g| Some((g, self.claimed(g)?.dynamic)))
            .fold(ClaimSpec::default(), |mut spec, (g, dynamic)| {
                let bit = 1u8 << g;
                spec.claimed |= bit;
                if dynamic {
                    spec.dynamic |= bit;
                }
                spec
            })
    }
}

/// `VGPU-GROUP-UNKNOWN` or `VGPU-GROUP-NOT-CLAIMED` unless `op` claimed `group`.
fn claimed_mut<'o>(
    op: &'o mut Operation,
    group: u32,
    call: &'static str,
) -> Result<&'o mut ClaimedGroup> {
    check_group(op, group)?;
    let Operation {
        groups,
        fast,
        label,
        ..
    } = op;
    groups
        .iter_mut(fast.groups_len)
        .nth(group as usize)
        .and_then(super::memo::GroupMemo::claimed_mut)
        .ok_or_else(|| {
            PipelineError::GroupNotClaimed {
                label: label.to_string(),
                group,
                call,
            }
            .into()
        })
}

/// `VGPU-GROUP-UNKNOWN` unless `group` is one of `op`'s groups (at most 8: a bit of a
/// [`ClaimSpec`]).
fn check_group(op: &Operation, group: u32) -> Result<()> {
    let groups = op.program.groups.len();
    if (group as usize) < groups && group < u8::BITS {
        return Ok(());
    }
    Err(PipelineError::GroupUnknown {
        label: op.label.to_string(),
        group,
        groups: groups as u32,
    }
    .into())
}

impl State {
    /// Claims group `group` of operation `key` (see the module doc) and returns its layout;
    /// claiming it again as it is claimed returns the same layout and changes nothing. A claim
    /// with other dynamic offsets than before drops the bind group attached.
    pub(crate) fn claim_group(
        &mut self,
        key: OpKey,
        group: u32,
        dynamic: bool,
    ) -> Result<wgpu::BindGroupLayout> {
        let Some(op) = self.ops.get(key) else {
            return Err(PipelineError::GroupUnknown {
                label: String::new(),
                group,
                groups: 0,
            }
            .into());
        };
        check_group(op, group)?;
        let old = op.claim_spec();
        if let Some(c) = op.claimed(group).filter(|c| c.dynamic == dynamic) {
            return Ok(c.layout.clone());
        }
        let bit = 1u8 << group;
        let spec = ClaimSpec {
            claimed: old.claimed | bit,
            dynamic: if dynamic {
                old.dynamic | bit
            } else {
                old.dynamic & !bit
            },
        };
        let (label, old_program) = (op.label.to_string(), op.program.clone());
        self.check_dynamic_limits(&label, &old_program, group, spec)?;
        let program =
            self.claimed_program(&old_program.shader, old_program.stages.clone(), spec)?;
        let gi = group as usize;
        let layout_key = program.groups[gi].layout_key;
        let registry = self.bind.registry();
        let (Some(layout), Some(entries)) = (
            registry.layout(layout_key).cloned(),
            registry.layout_entries(layout_key),
        ) else {
            return Err(PipelineError::GroupLayout {
                label,
                group,
                detail: "its layout could not be made".to_owned(),
            }
            .into());
        };
        let limits = self.ctx.limits();
        let alignments = entries
            .iter()
            .filter_map(|e| match e.ty {
                wgpu::BindingType::Buffer {
                    ty,
                    has_dynamic_offset: true,
                    ..
                } => Some(match ty {
                    wgpu::BufferBindingType::Uniform => limits.min_uniform_buffer_offset_alignment,
                    wgpu::BufferBindingType::Storage { .. } => {
                        limits.min_storage_buffer_offset_alignment
                    }
                }),
                _ => None,
            })
            .collect();
        let Some(op) = self.ops.get_mut(key) else {
            return Ok(layout);
        };
        let range = program.groups[gi].first..program.groups[gi].first + program.groups[gi].len;
        op.program = program;
        let released: SmallVec<[BindingContent; 4]> = op.contents[range]
            .iter_mut()
            .map(|c| std::mem::replace(c, BindingContent::Unset))
            .collect();
        match &mut op.kind {
            OperationKind::Render(r) => r.pipelines = PipelineMemo::default(),
            OperationKind::Compute(m) => m.pipeline = None,
        }
        let len = op.fast.groups_len;
        if let Some(memo) = op.groups.iter_mut(len).nth(gi) {
            memo.set_claimed(ClaimedGroup {
                group,
                dynamic,
                layout: layout.clone(),
                alignments,
                bind_group: None,
                offsets: [0; MAX_DYNAMIC],
            });
        }
        op.fast.unset = op.count_unset();
        op.bindings_changed();
        op.rebuild_group_values();
        self.note_op_changed(key);
        for content in released {
            self.release_content(content);
        }
        Ok(layout)
    }

    /// `VGPU-GROUP-LAYOUT` when the dynamic buffers of the groups `spec` claims with dynamic
    /// offsets pass the device's limits (or the offsets a group can take).
    fn check_dynamic_limits(
        &self,
        label: &str,
        program: &Program,
        group: u32,
        spec: ClaimSpec,
    ) -> Result<()> {
        let dynamic = |b: &&super::program::ProgramBinding| spec.get(b.group) == Some(true);
        let (mut uniform, mut storage, mut in_group) = (0u32, 0u32, 0usize);
        for b in program.bindings.iter().filter(dynamic) {
            match b.kind {
                vgpu_core::BindingKind::UniformBuffer => uniform += 1,
                vgpu_core::BindingKind::StorageBuffer { .. } => storage += 1,
                _ => continue,
            }
            in_group += usize::from(b.group == group);
        }
        let limits = self.ctx.limits();
        let over = if uniform > limits.max_dynamic_uniform_buffers_per_pipeline_layout {
            Some((
                "uniform",
                uniform,
                limits.max_dynamic_uniform_buffers_per_pipeline_layout,
            ))
        } else if storage > limits.max_dynamic_storage_buffers_per_pipeline_layout {
            Some((
                "storage",
                storage,
                limits.max_dynamic_storage_buffers_per_pipeline_layout,
            ))
        } else if in_group > MAX_DYNAMIC {
            Some(("", in_group as u32, MAX_DYNAMIC as u32))
        } else {
            None
        };
        match over {
            None => Ok(()),
            Some((kind, n, max)) => Err(PipelineError::GroupLayout {
                label: label.to_owned(),
                group,
                detail: format!(
                    "claimed with dynamic offsets, the claimed groups have {n} dynamic {kind} buffers; the device allows {max} per pipeline layout (claim with dynamic: false)"
                ),
            }
            .into()),
        }
    }

    /// Attaches the caller's bind group to claimed group `group` of operation `key` (the same
    /// group again changes nothing). Bundles recorded before no longer replay.
    pub(crate) fn set_claimed_group(
        &mut self,
        key: OpKey,
        group: u32,
        bind_group: &wgpu::BindGroup,
    ) -> Result<()> {
        let Some(op) = self.ops.get_mut(key) else {
            return Ok(());
        };
        let c = claimed_mut(op, group, "set_group")?;
        if c.bind_group.as_ref().is_some_and(|(_, g)| g == bind_group) {
            return Ok(());
        }
        let id = NEXT_CALLER_GROUP.fetch_sub(1, Ordering::Relaxed);
        c.bind_group = Some((id, bind_group.clone()));
        op.bindings_rev += 1;
        self.note_op_changed(key);
        Ok(())
    }

    /// The dynamic offsets claimed group `group` of operation `key` is recorded with from now on:
    /// one per dynamic buffer of its layout, in binding order, each aligned
    /// (`VGPU-GROUP-OFFSETS`).
    pub(crate) fn set_claimed_offsets(
        &mut self,
        key: OpKey,
        group: u32,
        offsets: &[u32],
    ) -> Result<()> {
        let Some(op) = self.ops.get_mut(key) else {
            return Ok(());
        };
        let c = claimed_mut(op, group, "set_group_offsets")?;
        let n = c.alignments.len();
        let mut detail = None;
        if offsets.len() != n {
            detail = Some(format!(
                "its layout takes {n} dynamic offsets (one per uniform or storage buffer, in binding order{}), {} given",
                if c.dynamic {
                    ""
                } else {
                    "; claimed without dynamic offsets"
                },
                offsets.len()
            ));
        } else if let Some((i, (o, a))) = offsets
            .iter()
            .zip(&c.alignments)
            .enumerate()
            .find(|(_, (o, a))| **a != 0 && **o % **a != 0)
        {
            detail = Some(format!(
                "dynamic offset {i} is {o}, not a multiple of {a} (the device's offset alignment for that buffer)"
            ));
        }
        if let Some(detail) = detail {
            return Err(PipelineError::GroupOffsets {
                label: op.label.to_string(),
                group,
                detail,
            }
            .into());
        }
        if c.offsets[..n] != *offsets {
            c.offsets[..n].copy_from_slice(offsets);
            self.note_op_changed(key);
        }
        Ok(())
    }

    /// A bind group for claimed group `group` of operation `key`, made from the layout handed
    /// out after its entries were checked against it (`VGPU-GROUP-LAYOUT`); not attached.
    pub(crate) fn create_claimed_group(
        &mut self,
        key: OpKey,
        group: u32,
        entries: &[wgpu::BindGroupEntry<'_>],
    ) -> Result<wgpu::BindGroup> {
        let State { ops, bind, ctx, .. } = self;
        let Some(op) = ops.get_mut(key) else {
            return Err(PipelineError::GroupUnknown {
                label: String::new(),
                group,
                groups: 0,
            }
            .into());
        };
        let layout = claimed_mut(op, group, "create_group")?.layout.clone();
        let g = &op.program.groups[group as usize];
        let layout_entries = bind.registry().layout_entries(g.layout_key).unwrap_or(&[]);
        let bindings = &op.program.bindings[g.first..g.first + g.len];
        let names = |binding: u32| {
            bindings
                .iter()
                .find(|b| b.binding == binding)
                .map_or("?", |b| &*b.name)
        };
        let layout_error = |detail: String| -> crate::error::Error {
            PipelineError::GroupLayout {
                label: op.label.to_string(),
                group,
                detail,
            }
            .into()
        };
        if let Some(detail) = entries_mismatch(layout_entries, bindings, entries, names) {
            return Err(layout_error(detail));
        }
        let label = format!("{} group {group}", op.label);
        Ok(ctx.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(&label),
            layout: &layout,
            entries,
        })?)
    }
}

/// The first difference between a bind group's `entries` and the layout's (`layout`, with the
/// WGSL names of its bindings through `name`): a binding missing, repeated or not in the layout,
/// a resource of another kind, a buffer without the usage its binding needs or smaller than its
/// type.
fn entries_mismatch<'n>(
    layout: &[wgpu::BindGroupLayoutEntry],
    bindings: &[super::program::ProgramBinding],
    entries: &[wgpu::BindGroupEntry<'_>],
    name: impl Fn(u32) -> &'n str,
) -> Option<String> {
    for (i, e) in entries.iter().enumerate() {
        let Some(l) = layout.iter().find(|l| l.binding == e.binding) else {
            let known: Vec<String> = layout
                .iter()
                .map(|l| format!("@binding({}) `{}`", l.binding, name(l.binding)))
                .collect();
            return Some(format!(
                "entry @binding({}) is not in the shader's layout of the group ({})",
                e.binding,
                known.join(", ")
            ));
        };
        if entries[..i].iter().any(|p| p.binding == e.binding) {
            return Some(format!("@binding({}) is given twice", e.binding));
        }
        let min_size = bindings
            .iter()
            .find(|b| b.binding == e.binding)
            .map_or(0, |b| b.min_size);
        if let Some(why) = resource_mismatch(l, &e.resource, min_size) {
            return Some(format!(
                "@binding({}) `{}`: {why}",
                e.binding,
                name(e.binding)
            ));
        }
    }
    layout
        .iter()
        .find(|l| !entries.iter().any(|e| e.binding == l.binding))
        .map(|l| format!("@binding({}) `{}` has no entry", l.binding, name(l.binding)))
}

/// Why `resource` cannot be bound at layout entry `l` (whose buffer type is `min_size` bytes),
/// if it cannot.
fn resource_mismatch(
    l: &wgpu::BindGroupLayoutEntry,
    resource: &wgpu::BindingResource<'_>,
    min_size: u64,
) -> Option<String> {
    use wgpu::BindingResource as R;
    let given = match resource {
        R::Buffer(_) => "a buffer",
        R::BufferArray(_) => "an array of buffers",
        R::Sampler(_) => "a sampler",
        R::SamplerArray(_) => "an array of samplers",
        R::TextureView(_) => "a texture view",
        R::TextureViewArray(_) => "an array of texture views",
        _ => return None,
    };
    let array = l.count.is_some();
    let (expected, fits) = match l.ty {
        wgpu::BindingType::Buffer { ty, .. } => {
            let (usage, what) = match ty {
                wgpu::BufferBindingType::Uniform => (wgpu::BufferUsages::UNIFORM, "UNIFORM"),
                wgpu::BufferBindingType::Storage { .. } => (wgpu::BufferUsages::STORAGE, "STORAGE"),
            };
            if let (R::Buffer(b), false) = (resource, array) {
                if !b.buffer.usage().contains(usage) {
                    return Some(format!(
                        "the buffer was made without the {what} usage its binding needs"
                    ));
                }
                let size = b
                    .size
                    .map_or_else(|| b.buffer.size().saturating_sub(b.offset), |s| s.get());
                if size < min_size {
                    return Some(format!(
                        "binds {size} bytes of the buffer; the WGSL type takes {min_size}"
                    ));
                }
            }
            (
                "a buffer",
                matches!(resource, R::Buffer(_) | R::BufferArray(_)),
            )
        }
        wgpu::BindingType::Sampler(_) => (
            "a sampler",
            matches!(resource, R::Sampler(_) | R::SamplerArray(_)),
        ),
        wgpu::BindingType::Texture { .. } | wgpu::BindingType::StorageTexture { .. } => (
            "a texture view",
            matches!(resource, R::TextureView(_) | R::TextureViewArray(_)),
        ),
        _ => return None,
    };
    let array_given = matches!(
        resource,
        R::BufferArray(_) | R::SamplerArray(_) | R::TextureViewArray(_)
    );
    if fits && array == array_given {
        return None;
    }
    let expected = if array {
        format!("an array of {}s", &expected[2..])
    } else {
        expected.to_owned()
    };
    Some(format!("takes {expected}, the entry gives {given}"))
}

impl Operation {
    /// Whether binding `index` is in a group the caller claimed.
    #[inline]
    pub(crate) fn binding_claimed(&self, index: usize) -> bool {
        // An operation that claims a group has a program of that claim (`claimed_program`).
        if self.program.claims.claimed == 0 {
            return false;
        }
        self.program
            .bindings
            .get(index)
            .is_some_and(|b| self.claimed(b.group).is_some())
    }

    /// `VGPU-DRAW-UNSET-BINDING` for the first binding never set outside the claimed groups
    /// (whose bindings vgpu never sets), when the operation claims a group; `None` otherwise.
    #[cold]
    pub(crate) fn unset_unclaimed_error(&self) -> Option<crate::error::Error> {
        (0..u8::BITS).find(|g| self.claimed(*g).is_some())?;
        let (_, b) = self.program.bindings.iter().enumerate().find(|(i, _)| {
            matches!(self.contents.get(*i), Some(BindingContent::Unset))
                && !self.binding_claimed(*i)
        })?;
        Some(
            crate::error::BindingError::Unset {
                label: self.label.to_string(),
                binding: b.name.to_string(),
                group: b.group,
                index: b.binding,
            }
            .into(),
        )
    }

    /// `VGPU-GROUP-CLAIMED` when binding `index` is in a claimed group (the check of every
    /// assignment in `assign/`).
    #[inline]
    pub(crate) fn check_unclaimed(&self, index: usize) -> Result<()> {
        if !self.binding_claimed(index) {
            return Ok(());
        }
        self.claimed_error(index)
    }

    /// `VGPU-GROUP-CLAIMED` for binding `index`.
    #[cold]
    fn claimed_error(&self, index: usize) -> Result<()> {
        let b = &self.program.bindings[index];
        Err(PipelineError::GroupClaimed {
            label: self.label.to_string(),
            binding: b.name.to_string(),
            group: b.group,
        }
        .into())
    }
}
