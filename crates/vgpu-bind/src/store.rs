//! [`BindingStore`]: the registry and the cache together, on one device context.

use std::num::NonZeroU64;
use std::sync::Arc;

use smallvec::SmallVec;
use vgpu_core::GpuContext;

use crate::cache::BindGroupCache;
use crate::config::CacheConfig;
use crate::entry::{BindEntry, BindGroupId, SORT_ON_STACK};
use crate::error::BindError;
use crate::registry::{BindRegistry, LayoutKey, ResourceKey};
use crate::resource::{Layout, Resource, ResourceObject, resolve_range};

/// Resource registry + bind-group cache of one [`GpuContext`].
///
/// Register resources and layouts to get generational keys, then ask
/// [`get_or_create`](Self::get_or_create) for the bind group of (layout, entries). Destroying a
/// resource or layout through the store turns its key stale and evicts exactly the cached groups
/// that use it. Evicted groups are *retired*: the store keeps their handles until
/// [`release_retired`](Self::release_retired), so a group recorded into a render pass, a command
/// buffer or a still-open `wgpu::RenderBundleEncoder` stays valid after eviction. (Passes and
/// finished bundles keep their own references; an open bundle encoder does not, see
/// gfx-rs/wgpu#8234.)
///
/// The store holds clones of the registered wgpu handles; it never destroys the objects
/// themselves. An owner that destroys or drops a resource calls [`destroy`](Self::destroy).
#[derive(Debug)]
pub struct BindingStore {
    ctx: Arc<GpuContext>,
    registry: BindRegistry,
    pub(crate) cache: BindGroupCache,
    uniform_alignment: u64,
    storage_alignment: u64,
    /// The first label given to [`note_creator`](BindingStore::note_creator) since the last
    /// [`take_creator`](BindingStore::take_creator).
    creator: Option<String>,
}

impl BindingStore {
    /// An empty store on `ctx` with the default [`CacheConfig`].
    pub fn new(ctx: Arc<GpuContext>) -> Self {
        Self::with_config(ctx, CacheConfig::default())
    }

    /// An empty store on `ctx` with the given bounds.
    pub fn with_config(ctx: Arc<GpuContext>, config: CacheConfig) -> Self {
        let limits = ctx.limits();
        BindingStore {
            uniform_alignment: u64::from(limits.min_uniform_buffer_offset_alignment.max(1)),
            storage_alignment: u64::from(limits.min_storage_buffer_offset_alignment.max(1)),
            ctx,
            registry: BindRegistry::default(),
            cache: BindGroupCache::new(config),
            creator: None,
        }
    }

    /// Diagnostics: names what made the store create a group (e.g. the draw whose recording
    /// missed the cache). Keeps only the first name given since the last
    /// [`take_creator`](Self::take_creator): one allocation per take at most.
    pub fn note_creator(&mut self, label: &str) {
        if self.creator.is_none() {
            self.creator = Some(label.to_owned());
        }
    }

    /// The first name given to [`note_creator`](Self::note_creator) since the last call, if any.
    pub fn take_creator(&mut self) -> Option<String> {
        self.creator.take()
    }

    /// The device context groups are created on (and whose stats are counted).
    pub fn ctx(&self) -> &Arc<GpuContext> {
        &self.ctx
    }

    /// Read access to the registered resources and layouts.
    pub fn registry(&self) -> &BindRegistry {
        &self.registry
    }

    /// Read access to the cache (sizes, index).
    pub fn cache(&self) -> &BindGroupCache {
        &self.cache
    }

    /// Live cached bind groups.
    pub fn len(&self) -> usize {
        self.cache.len()
    }

    /// True when no bind group is cached.
    pub fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }

    /// Grows on every [`destroy`](Self::destroy) and [`destroy_layout`](Self::destroy_layout) of
    /// a live key and on every [`clear`](Self::clear), never on a least-recently-used
    /// (capacity) eviction; see [`BindGroupCache::invalidation_epoch`]. While it is unchanged, a
    /// memoized `(id, group)` from [`get_or_create`](Self::get_or_create) is still valid, so a
    /// caller can skip even the hash lookup.
    #[inline]
    pub fn invalidation_epoch(&self) -> u64 {
        self.cache.invalidation_epoch()
    }

    /// Live cached bind groups of `layout`.
    pub fn layout_len(&self, layout: LayoutKey) -> usize {
        self.cache.layout_len(layout)
    }

    /// Registers a whole buffer. Registering the same buffer again returns the same live key.
    pub fn register_buffer(&mut self, buffer: &wgpu::Buffer, label: &str) -> ResourceKey {
        self.registry.insert_resource(
            ResourceObject::Buffer {
                buffer: buffer.clone(),
                offset: 0,
                size: buffer.size(),
            },
            label,
        )
    }

    /// Registers `offset..offset + size` of a buffer (`size: None` = to its end, as in
    /// `wgpu::BufferBinding`). Bind entries' offsets are relative to `offset`. The same buffer
    /// and range registered again returns the same live key.
    ///
    /// Errors: `VGPU-BIND-RANGE` if the range does not fit the buffer or is empty.
    pub fn register_buffer_range(
        &mut self,
        buffer: &wgpu::Buffer,
        offset: u64,
        size: Option<NonZeroU64>,
        label: &str,
    ) -> Result<ResourceKey, BindError> {
        let size = resolve_range(buffer.size(), offset, size).map_err(
            |(what, relation, expected, actual)| BindError::Range {
                at: "register_buffer_range".to_owned(),
                label: label.to_owned(),
                what,
                relation,
                expected,
                actual,
            },
        )?;
        Ok(self.registry.insert_resource(
            ResourceObject::Buffer {
                buffer: buffer.clone(),
                offset,
                size,
            },
            label,
        ))
    }

    /// Registers a texture view. The same view registered again returns the same live key.
    pub fn register_texture_view(&mut self, view: &wgpu::TextureView, label: &str) -> ResourceKey {
        self.registry
            .insert_resource(ResourceObject::TextureView(view.clone()), label)
    }

    /// Registers a sampler. The same sampler registered again returns the same live key.
    pub fn register_sampler(&mut self, sampler: &wgpu::Sampler, label: &str) -> ResourceKey {
        self.registry
            .insert_resource(ResourceObject::Sampler(sampler.clone()), label)
    }

    /// Registers a layout created elsewhere, with the entries it was created from (used to check
    /// resource kinds, bindings and alignment). The same layout again returns the same live key.
    pub fn register_layout(
        &mut self,
        layout: wgpu::BindGroupLayout,
        entries: &[wgpu::BindGroupLayoutEntry],
        label: &str,
    ) -> LayoutKey {
        self.registry.insert_layout(layout, entries, label)
    }

    /// Creates a layout through the context (counted) and registers it.
    ///
    /// Errors: `VGPU-BIND-DEVICE` with wgpu's description if wgpu rejects the layout.
    pub fn create_layout(
        &mut self,
        entries: &[wgpu::BindGroupLayoutEntry],
        label: &str,
    ) -> Result<LayoutKey, BindError> {
        let layout = self
            .ctx
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some(label),
                entries,
            })
            .map_err(|source| BindError::Device {
                layout: label.to_owned(),
                source,
            })?;
        Ok(self.registry.insert_layout(layout, entries, label))
    }

    /// Destroys a resource's key: it turns stale, and exactly the cached groups that use it are
    /// evicted (returned count; `cache_eviction_visits` grows by the same number). Moves the
    /// [`invalidation_epoch`](Self::invalidation_epoch), even when nothing was evicted (a group
    /// evicted earlier for capacity may still be memoized). A stale key returns 0 and changes
    /// nothing. The wgpu object itself is not destroyed.
    pub fn destroy(&mut self, key: ResourceKey) -> usize {
        if !self.registry.remove_resource(key) {
            return 0;
        }
        self.cache.invalidate();
        self.cache.evict_resource(self.ctx.stats(), key)
    }

    /// Destroys a layout's key: it turns stale, and exactly its cached groups are evicted
    /// (returned count). Moves the [`invalidation_epoch`](Self::invalidation_epoch) as
    /// [`destroy`](Self::destroy) does. A stale key returns 0 and changes nothing.
    pub fn destroy_layout(&mut self, key: LayoutKey) -> usize {
        if !self.registry.remove_layout(key) {
            return 0;
        }
        self.cache.invalidate();
        self.cache.evict_layout(self.ctx.stats(), key)
    }

    /// Drops the handles of evicted groups; returns how many. Call it when no
    /// `wgpu::RenderBundleEncoder` that recorded a group of this store is still open (e.g. once
    /// per frame after recording); work already recorded (passes, command buffers, finished
    /// bundles) keeps its own references. Until then evicted groups stay allocated.
    pub fn release_retired(&mut self) -> usize {
        self.cache.release_retired()
    }

    /// Evicts every cached group (keys stay valid); returns how many. Moves the
    /// [`invalidation_epoch`](Self::invalidation_epoch).
    pub fn clear(&mut self) -> usize {
        self.cache.clear(self.ctx.stats())
    }

    /// The bind group of `layout` with `entries` (any order), created on a miss.
    ///
    /// Hit path: no allocation (for entries already in binding order, or up to
    /// [`SORT_ON_STACK`] entries in any order), no string, no maintenance;
    /// counts `cache_hits`. Miss path: validates
    /// every entry, creates the group through [`GpuContext::create_bind_group`] (counted), may
    /// evict least recently used entries (counted), counts `cache_misses`.
    ///
    /// The returned id is unique to this group for the life of the store.
    ///
    /// Errors: `VGPU-BIND-STALE-LAYOUT`, `VGPU-BIND-STALE-RESOURCE`, `VGPU-BIND-WRONG-KIND`,
    /// `VGPU-BIND-RANGE`, `VGPU-BIND-RANGE-NOT-BUFFER`, `VGPU-BIND-ALIGNMENT`,
    /// `VGPU-BIND-UNKNOWN-BINDING`, `VGPU-BIND-MISSING-BINDING`, `VGPU-BIND-DUPLICATE-BINDING`,
    /// `VGPU-BIND-DEVICE`. A failed call changes nothing but the miss counter.
    pub fn get_or_create(
        &mut self,
        layout: LayoutKey,
        entries: &[BindEntry],
    ) -> Result<(BindGroupId, &wgpu::BindGroup), BindError> {
        let sorted_copy: SmallVec<[BindEntry; SORT_ON_STACK]>;
        let sorted: &[BindEntry] = if entries.is_sorted() {
            entries
        } else {
            sorted_copy = {
                let mut copy = SmallVec::from_slice(entries);
                copy.sort_unstable();
                copy
            };
            &sorted_copy
        };
        let stats = self.ctx.stats();
        let key = match self.cache.lookup(layout, sorted) {
            Some(key) => {
                stats.cache_hits.bump();
                key
            }
            None => {
                stats.cache_misses.bump();
                let group = self.create(layout, sorted)?;
                self.cache.insert(stats, layout, sorted, group)
            }
        };
        self.cache.get(key).ok_or_else(|| BindError::StaleLayout {
            label: self.registry.stale_layout_label(layout),
            key: layout,
        })
    }

    /// Validates `sorted` against the layout and creates its bind group.
    fn create(
        &self,
        layout_key: LayoutKey,
        sorted: &[BindEntry],
    ) -> Result<wgpu::BindGroup, BindError> {
        let Some(layout) = self.registry.layout_entry(layout_key) else {
            return Err(BindError::StaleLayout {
                label: self.registry.stale_layout_label(layout_key),
                key: layout_key,
            });
        };
        let mut wgpu_entries: SmallVec<[wgpu::BindGroupEntry<'_>; SORT_ON_STACK]> =
            SmallVec::with_capacity(sorted.len());
        let mut previous = None;
        for entry in sorted {
            if previous == Some(entry.binding) {
                return Err(BindError::DuplicateBinding {
                    layout: layout.label.to_string(),
                    binding: entry.binding,
                });
            }
            previous = Some(entry.binding);
            wgpu_entries.push(self.resolve(layout, entry)?);
        }
        if sorted.len() != layout.entries.len()
            && let Some(missing) = layout.entries.iter().find(|l| {
                sorted
                    .binary_search_by_key(&l.binding, |e| e.binding)
                    .is_err()
            })
        {
            return Err(BindError::MissingBinding {
                layout: layout.label.to_string(),
                binding: missing.binding,
            });
        }
        self.ctx
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(&layout.label),
                layout: &layout.layout,
                entries: &wgpu_entries,
            })
            .map_err(|source| BindError::Device {
                layout: layout.label.to_string(),
                source,
            })
    }

    /// Checks one entry against its layout entry and returns the wgpu entry.
    fn resolve<'a>(
        &'a self,
        layout: &Layout,
        entry: &BindEntry,
    ) -> Result<wgpu::BindGroupEntry<'a>, BindError> {
        let binding = entry.binding;
        let Some(layout_entry) = layout.entry(binding) else {
            return Err(BindError::UnknownBinding {
                layout: layout.label.to_string(),
                binding,
            });
        };
        let Some(resource) = self.registry.resource(entry.resource) else {
            return Err(BindError::StaleResource {
                layout: layout.label.to_string(),
                binding,
                label: self.registry.stale_resource_label(entry.resource),
                key: entry.resource,
            });
        };
        let wrong_kind = |expected: &'static str| BindError::WrongKind {
            layout: layout.label.to_string(),
            binding,
            label: resource.label.to_string(),
            expected,
            actual: resource.object.kind().describe(),
        };
        if layout_entry.count.is_some() {
            return Err(wrong_kind("a binding array (not supported by the cache)"));
        }
        let binding_resource = match (&layout_entry.ty, &resource.object) {
            (
                wgpu::BindingType::Buffer { ty, .. },
                ResourceObject::Buffer {
                    buffer,
                    offset: base,
                    size: range,
                },
            ) => {
                let size = resolve_range(*range, entry.offset, entry.size).map_err(
                    |(what, relation, expected, actual)| BindError::Range {
                        at: format!("binding {binding} of layout {:?}", layout.label),
                        label: resource.label.to_string(),
                        what,
                        relation,
                        expected,
                        actual,
                    },
                )?;
                let offset = base + entry.offset;
                let alignment = match ty {
                    wgpu::BufferBindingType::Uniform => self.uniform_alignment,
                    wgpu::BufferBindingType::Storage { .. } => self.storage_alignment,
                };
                if !offset.is_multiple_of(alignment) {
                    return Err(BindError::Alignment {
                        layout: layout.label.to_string(),
                        binding,
                        label: resource.label.to_string(),
                        expected: alignment,
                        actual: offset,
                    });
                }
                wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer,
                    offset,
                    size: NonZeroU64::new(size),
                })
            }
            (wgpu::BindingType::Buffer { .. }, _) => return Err(wrong_kind("a buffer")),
            (
                wgpu::BindingType::Texture { .. } | wgpu::BindingType::StorageTexture { .. },
                ResourceObject::TextureView(view),
            ) => {
                self.no_range(layout, entry, resource)?;
                wgpu::BindingResource::TextureView(view)
            }
            (wgpu::BindingType::Texture { .. } | wgpu::BindingType::StorageTexture { .. }, _) => {
                return Err(wrong_kind("a texture view"));
            }
            (wgpu::BindingType::Sampler(_), ResourceObject::Sampler(sampler)) => {
                self.no_range(layout, entry, resource)?;
                wgpu::BindingResource::Sampler(sampler)
            }
            (wgpu::BindingType::Sampler(_), _) => return Err(wrong_kind("a sampler")),
            _ => return Err(wrong_kind("a resource kind the cache does not bind")),
        };
        Ok(wgpu::BindGroupEntry {
            binding,
            resource: binding_resource,
        })
    }

    fn no_range(
        &self,
        layout: &Layout,
        entry: &BindEntry,
        resource: &Resource,
    ) -> Result<(), BindError> {
        if entry.offset == 0 && entry.size.is_none() {
            return Ok(());
        }
        Err(BindError::RangeOnNonBuffer {
            layout: layout.label.to_string(),
            binding: entry.binding,
            label: resource.label.to_string(),
            actual: resource.object.kind().describe(),
            offset: entry.offset,
            size: entry.size.map(NonZeroU64::get),
        })
    }
}
