//! [`BindRegistry`]: buffers, texture views, samplers and bind group layouts under generational
//! slotmap keys.
//!
//! A key is valid from registration until its resource is destroyed through the owning
//! [`BindingStore`](crate::BindingStore). Keys are generational: once destroyed, a key never
//! resolves again, even after its slot is reused. The registry keeps the label of a bounded
//! number of recently destroyed keys so that errors about a stale key can still name it.

use ahash::AHashMap;
use slotmap::SlotMap;

use crate::resource::{Layout, Resource, ResourceKind, ResourceObject};
use crate::stale_labels::StaleLabels;

slotmap::new_key_type! {
    /// Generational key of a registered buffer (range), texture view or sampler.
    /// `Copy + Eq + Ord + Hash`; stale once the resource is destroyed.
    pub struct ResourceKey;
    /// Generational key of a registered bind group layout.
    /// `Copy + Eq + Ord + Hash`; stale once the layout is destroyed.
    pub struct LayoutKey;
}

/// Identity of a registered object: registering the same object (and range) twice yields the
/// same key while it is live.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Identity {
    Buffer(wgpu::Buffer, u64, u64),
    TextureView(wgpu::TextureView),
    Sampler(wgpu::Sampler),
}

impl Identity {
    fn of(object: &ResourceObject) -> Self {
        match object {
            ResourceObject::Buffer {
                buffer,
                offset,
                size,
            } => Identity::Buffer(buffer.clone(), *offset, *size),
            ResourceObject::TextureView(v) => Identity::TextureView(v.clone()),
            ResourceObject::Sampler(s) => Identity::Sampler(s.clone()),
        }
    }
}

/// Registered resources and layouts.
///
/// Invariant: every live key maps to exactly one object, and one object (buffer + range, view,
/// sampler, layout) has at most one live key.
#[derive(Debug, Default)]
pub struct BindRegistry {
    resources: SlotMap<ResourceKey, Resource>,
    layouts: SlotMap<LayoutKey, Layout>,
    resource_ids: AHashMap<Identity, ResourceKey>,
    layout_ids: AHashMap<wgpu::BindGroupLayout, LayoutKey>,
    stale_resources: StaleLabels<ResourceKey>,
    stale_layouts: StaleLabels<LayoutKey>,
}

impl BindRegistry {
    /// Registers `object`, or returns the live key it already has.
    pub(crate) fn insert_resource(&mut self, object: ResourceObject, label: &str) -> ResourceKey {
        let identity = Identity::of(&object);
        if let Some(&key) = self.resource_ids.get(&identity) {
            return key;
        }
        let key = self.resources.insert(Resource {
            object,
            label: label.into(),
        });
        self.resource_ids.insert(identity, key);
        key
    }

    /// Registers a layout, or returns the live key it already has.
    pub(crate) fn insert_layout(
        &mut self,
        layout: wgpu::BindGroupLayout,
        entries: &[wgpu::BindGroupLayoutEntry],
        label: &str,
    ) -> LayoutKey {
        if let Some(&key) = self.layout_ids.get(&layout) {
            return key;
        }
        let mut entries: Box<[wgpu::BindGroupLayoutEntry]> = entries.into();
        entries.sort_unstable_by_key(|e| e.binding);
        let key = self.layouts.insert(Layout {
            layout: layout.clone(),
            entries,
            label: label.into(),
        });
        self.layout_ids.insert(layout, key);
        key
    }

    /// Removes a resource; its key turns stale. Returns false if it was already stale.
    pub(crate) fn remove_resource(&mut self, key: ResourceKey) -> bool {
        let Some(resource) = self.resources.remove(key) else {
            return false;
        };
        self.resource_ids.remove(&Identity::of(&resource.object));
        self.stale_resources.remember(key, resource.label);
        true
    }

    /// Removes a layout; its key turns stale. Returns false if it was already stale.
    pub(crate) fn remove_layout(&mut self, key: LayoutKey) -> bool {
        let Some(layout) = self.layouts.remove(key) else {
            return false;
        };
        self.layout_ids.remove(&layout.layout);
        self.stale_layouts.remember(key, layout.label);
        true
    }

    pub(crate) fn resource(&self, key: ResourceKey) -> Option<&Resource> {
        self.resources.get(key)
    }

    pub(crate) fn layout_entry(&self, key: LayoutKey) -> Option<&Layout> {
        self.layouts.get(key)
    }

    pub(crate) fn stale_resource_label(&self, key: ResourceKey) -> String {
        self.stale_resources.label(key)
    }

    pub(crate) fn stale_layout_label(&self, key: LayoutKey) -> String {
        self.stale_layouts.label(key)
    }

    /// True while `key` is live.
    pub fn contains(&self, key: ResourceKey) -> bool {
        self.resources.contains_key(key)
    }

    /// True while `key` is live.
    pub fn contains_layout(&self, key: LayoutKey) -> bool {
        self.layouts.contains_key(key)
    }

    /// The kind of a live resource.
    pub fn kind(&self, key: ResourceKey) -> Option<ResourceKind> {
        self.resources.get(key).map(|r| r.object.kind())
    }

    /// The label of a live resource.
    pub fn label(&self, key: ResourceKey) -> Option<&str> {
        self.resources.get(key).map(|r| &*r.label)
    }

    /// The label of a live layout.
    pub fn layout_label(&self, key: LayoutKey) -> Option<&str> {
        self.layouts.get(key).map(|l| &*l.label)
    }

    /// The wgpu layout of a live layout key.
    pub fn layout(&self, key: LayoutKey) -> Option<&wgpu::BindGroupLayout> {
        self.layouts.get(key).map(|l| &l.layout)
    }

    /// The entries of a live layout, sorted by binding number.
    pub fn layout_entries(&self, key: LayoutKey) -> Option<&[wgpu::BindGroupLayoutEntry]> {
        self.layouts.get(key).map(|l| &*l.entries)
    }

    /// The buffer and registered range (`offset`, `size`) of a live buffer key.
    pub fn buffer(&self, key: ResourceKey) -> Option<(&wgpu::Buffer, u64, u64)> {
        match self.resources.get(key).map(|r| &r.object) {
            Some(ResourceObject::Buffer {
                buffer,
                offset,
                size,
            }) => Some((buffer, *offset, *size)),
            _ => None,
        }
    }

    /// The key `buffer` (registered over `offset..offset + size`) has, if it is registered.
    pub fn find_buffer(
        &self,
        buffer: &wgpu::Buffer,
        offset: u64,
        size: u64,
    ) -> Option<ResourceKey> {
        self.resource_ids
            .get(&Identity::Buffer(buffer.clone(), offset, size))
            .copied()
    }

    /// Number of live resources.
    pub fn resource_count(&self) -> usize {
        self.resources.len()
    }

    /// Number of live layouts.
    pub fn layout_count(&self) -> usize {
        self.layouts.len()
    }
}
