//! Explicit bind-group and pipeline layout descriptions built from reflection (never wgpu's
//! automatic layouts).

use std::num::NonZeroU32;

use crate::reflect::{BindingInfo, BindingKind};
use crate::shader_error::ShaderError;

/// Highest group number accepted (wgpu allows at most 8 bind groups; this bound only keeps a
/// hostile `@group(4000000000)` from allocating).
pub const MAX_GROUP: u32 = 31;

/// One entry of a bind-group layout, with the binding's WGSL name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LayoutEntryDesc {
    /// The WGSL variable name.
    pub name: String,
    /// `@binding`.
    pub binding: u32,
    /// Union of the stages that use it in this pipeline.
    pub visibility: wgpu::ShaderStages,
    /// The resource kind.
    pub kind: BindingKind,
    /// `Some(n)` for binding arrays.
    pub count: Option<NonZeroU32>,
    /// The per-binding choice (buffers only; always false for other kinds).
    pub has_dynamic_offset: bool,
    /// The type's size for buffers (one element of a trailing runtime-sized array).
    pub min_binding_size: Option<wgpu::BufferSize>,
    /// The WGSL type name.
    pub type_name: String,
}

impl LayoutEntryDesc {
    /// The `wgpu::BindingType`.
    pub fn binding_type(&self) -> wgpu::BindingType {
        self.kind
            .to_wgpu(self.has_dynamic_offset, self.min_binding_size)
    }

    /// The `wgpu::BindGroupLayoutEntry`.
    pub fn to_wgpu(&self) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding: self.binding,
            visibility: self.visibility,
            ty: self.binding_type(),
            count: self.count,
        }
    }

    fn describe(&self) -> String {
        format!(
            "`{}: {}` ({}{})",
            self.name,
            self.type_name,
            self.kind.describe(),
            if self.has_dynamic_offset {
                ", dynamic offset"
            } else {
                ""
            }
        )
    }
}

/// The layout of one bind group: entries sorted by binding number, no duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BindGroupLayoutDesc {
    /// `@group`.
    pub group: u32,
    /// Entries, sorted by binding number.
    pub entries: Vec<LayoutEntryDesc>,
}

impl BindGroupLayoutDesc {
    /// The entries as wgpu wants them.
    pub fn wgpu_entries(&self) -> Vec<wgpu::BindGroupLayoutEntry> {
        self.entries.iter().map(LayoutEntryDesc::to_wgpu).collect()
    }

    /// The entry for `@binding(binding)`.
    pub fn entry(&self, binding: u32) -> Option<&LayoutEntryDesc> {
        self.entries
            .binary_search_by_key(&binding, |e| e.binding)
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The entry for the binding with this WGSL name.
    pub fn entry_named(&self, name: &str) -> Option<&LayoutEntryDesc> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Number of entries with a dynamic offset (in binding order, the order of the offsets
    /// passed to `set_bind_group`).
    pub fn dynamic_offset_count(&self) -> usize {
        self.entries.iter().filter(|e| e.has_dynamic_offset).count()
    }
}

/// The bind-group layouts of a pipeline: `groups[i].group == i`, no gaps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PipelineLayoutDesc {
    /// One layout per group, indexed by group number.
    pub groups: Vec<BindGroupLayoutDesc>,
}

impl PipelineLayoutDesc {
    /// Merges the bindings used by a pipeline's entry points (possibly of several shaders):
    /// each `(binding, stage)` pair adds `stage` to the binding's visibility. Fails with
    /// `VGPU-SHADER-LAYOUT-CONFLICT` when one (group, binding) is declared with different
    /// names, types or dynamic-offset choices, and with `VGPU-SHADER-LAYOUT-GAP` when the group
    /// numbers used are not `0..n`.
    pub fn build<'a>(
        label: &str,
        uses: impl IntoIterator<Item = (&'a BindingInfo, wgpu::ShaderStages)>,
        dynamic_offset: impl Fn(&BindingInfo) -> bool,
    ) -> Result<Self, ShaderError> {
        let mut groups: Vec<BindGroupLayoutDesc> = Vec::new();
        for (b, stage) in uses {
            let entry = LayoutEntryDesc {
                name: b.name.clone(),
                binding: b.binding,
                visibility: stage,
                kind: b.kind,
                count: b.count,
                has_dynamic_offset: b.kind.is_buffer() && dynamic_offset(b),
                min_binding_size: b.min_binding_size(),
                type_name: b.type_name.clone(),
            };
            if b.group > MAX_GROUP {
                return Err(ShaderError::Limit {
                    label: label.to_owned(),
                    what: "bind group number",
                    expected: u64::from(MAX_GROUP),
                    actual: u64::from(b.group),
                });
            }
            let g = b.group as usize;
            if g >= groups.len() {
                let start = groups.len() as u32;
                groups.extend((start..=b.group).map(|group| BindGroupLayoutDesc {
                    group,
                    entries: Vec::new(),
                }));
            }
            let entries = &mut groups[g].entries;
            match entries.binary_search_by_key(&b.binding, |e| e.binding) {
                Ok(i) => {
                    let existing = &mut entries[i];
                    let same = existing.name == entry.name
                        && existing.kind == entry.kind
                        && existing.count == entry.count
                        && existing.has_dynamic_offset == entry.has_dynamic_offset
                        && existing.min_binding_size == entry.min_binding_size
                        && existing.type_name == entry.type_name;
                    if !same {
                        return Err(ShaderError::LayoutConflict {
                            label: label.to_owned(),
                            group: b.group,
                            binding: b.binding,
                            first: existing.describe(),
                            second: entry.describe(),
                        });
                    }
                    existing.visibility |= stage;
                }
                Err(i) => entries.insert(i, entry),
            }
        }
        if let Some(missing) = groups.iter().position(|g| g.entries.is_empty()) {
            let used: Vec<u32> = groups
                .iter()
                .filter(|g| !g.entries.is_empty())
                .map(|g| g.group)
                .collect();
            return Err(ShaderError::LayoutGap {
                label: label.to_owned(),
                missing: missing as u32,
                max: used.last().copied().unwrap_or_default(),
                used,
            });
        }
        Ok(PipelineLayoutDesc { groups })
    }

    /// The layout of group `group`.
    pub fn group(&self, group: u32) -> Option<&BindGroupLayoutDesc> {
        self.groups.get(group as usize)
    }

    /// `Vec<wgpu::BindGroupLayoutEntry>` per group, indexed by group number.
    pub fn wgpu_entries(&self) -> Vec<Vec<wgpu::BindGroupLayoutEntry>> {
        self.groups
            .iter()
            .map(BindGroupLayoutDesc::wgpu_entries)
            .collect()
    }
}
