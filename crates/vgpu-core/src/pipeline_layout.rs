//! The bind-group layouts of a pipeline ([`PipelineLayoutDesc`]), merged from the bindings its
//! entry points use (possibly of several shaders).

use crate::bind_layout::{BindGroupLayoutDesc, LayoutEntryDesc};
use crate::reflect::BindingInfo;
use crate::shader_error::ShaderError;

/// Highest group number accepted (wgpu allows at most 8 bind groups; this bound only keeps a
/// hostile `@group(4000000000)` from allocating).
pub(crate) const MAX_GROUP: u32 = 31;

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
