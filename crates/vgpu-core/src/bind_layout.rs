//! Explicit bind-group layout descriptions built from reflection (never wgpu's automatic
//! layouts); a pipeline's groups are in [`PipelineLayoutDesc`](crate::PipelineLayoutDesc).

use std::num::NonZeroU32;

use crate::reflect::BindingKind;

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

    /// The entry for messages: its WGSL declaration and binding type.
    pub(crate) fn describe(&self) -> String {
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
