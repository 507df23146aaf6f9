//! Setting bindings of draws, effects and computes (`Draw::set` and friends).

use std::num::NonZeroU64;

use vgpu_bind::ResourceKey;
use vgpu_core::PackContext;
use vgpu_core::reflect::BindingKind;
use vgpu_core::value::Value;
use vgpu_uniforms::AddressSpace;

use crate::bind::Bind;
use crate::draw::{Keep, OpKey, Slot};
use crate::error::{BindingError, Result};
use crate::gpu::State;

/// Maximum raw resources kept registered after their last binding was released (so rebinding
/// them finds their bind groups still cached).
const IDLE_RESOURCES: usize = 256;

impl State {
    /// `Draw::set`: one binding, by binding name or member shorthand.
    pub(crate) fn set_binding(&mut self, key: OpKey, name: &str, value: Bind<'_>) -> Result<()> {
        if let Some(done) = self.set_value_fast(key, name, &value) {
            return done;
        }
        self.set_binding_slow(key, name, value)
    }

    /// Fast path of `set`: a new value for a binding already holding a library-owned value.
    /// Packs straight into the engine's scratch bytes; no handle clones, no allocation.
    #[inline]
    fn set_value_fast(&mut self, key: OpKey, name: &str, value: &Bind<'_>) -> Option<Result<()>> {
        let v: Option<&Value> = match value {
            Bind::Value(v) => Some(v),
            Bind::ValueRef(v) => Some(v),
            Bind::Pod(_) => None,
            _ => return None,
        };
        let State { ops, engine, .. } = self;
        let op = ops.get(key)?;
        let i = op.program.binding_index(name)?;
        let Slot::Value { owner } = op.slots[i] else {
            return None;
        };
        let pb = &op.program.bindings[i];
        let plan = op
            .program
            .shader
            .reflection()
            .bindings()
            .get(pb.info)?
            .plan
            .as_deref()?;
        let cx = PackContext::new(&op.label, &pb.name);
        Some(match (v, value) {
            (Some(v), _) => engine
                .update(owner, |bytes| {
                    plan.pack_partial(v, bytes, &cx)
                        .map(|_| ())
                        .map_err(crate::Error::from)
                })
                .map(|_| ()),
            (None, Bind::Pod(bytes)) => plan
                .check_pod_size(bytes.len(), &cx)
                .map_err(crate::Error::from)
                .and_then(|()| {
                    engine
                        .set_bytes(owner, bytes)
                        .map(|_| ())
                        .map_err(crate::Error::from)
                }),
            _ => return None,
        })
    }

    fn set_binding_slow(&mut self, key: OpKey, name: &str, value: Bind<'_>) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let program = op.program.clone();
        if let Some(i) = program.binding_index(name) {
            return self.set_slot(key, i, value);
        }
        // Member shorthand: a field of exactly one struct binding.
        let label = op.label.clone();
        let refl = program.shader.reflection();
        let member = refl.resolve_member(name, &label)?;
        let Some(i) = program
            .bindings
            .iter()
            .position(|b| b.info == member.binding_index)
        else {
            return Err(vgpu_core::SetError::BindingUnknown {
                label: label.to_string().into(),
                name: name.into(),
                available: program
                    .bindings
                    .iter()
                    .map(|b| Box::<str>::from(&*b.name))
                    .collect(),
                hint: Some(
                    format!(
                        "`{name}` is a member of `{}`, which these entry points do not use",
                        member.binding.name
                    )
                    .into(),
                ),
            }
            .into());
        };
        let field = match value {
            Bind::Value(v) => std::borrow::Cow::Owned(v),
            Bind::ValueRef(v) => std::borrow::Cow::Borrowed(v),
            other => {
                return Err(BindingError::Kind {
                    label: label.to_string(),
                    binding: format!("{}.{name}", member.binding.name),
                    expected: "a value for a struct member".to_owned(),
                    actual: other.describe().to_owned(),
                }
                .into());
            }
        };
        // A value already set: pack just the member in place (no partial value built).
        let owner = match self.ops.get(key).map(|op| &op.slots[i]) {
            Some(Slot::Value { owner }) if self.engine.revision(*owner).unwrap_or(0) > 0 => {
                Some(*owner)
            }
            _ => None,
        };
        if let (Some(owner), Some(plan)) = (owner, member.binding.plan.as_deref()) {
            let cx = PackContext::new(&label, &member.binding.name);
            return self
                .engine
                .update(owner, |bytes| {
                    plan.pack_member(member.member_index, &field, bytes, &cx)
                        .map(|_| ())
                        .map_err(crate::Error::from)
                })
                .map(|_| ());
        }
        let member_name: vgpu_core::FieldName = member.member.name.to_string().into();
        let partial = Value::Struct(vec![(member_name, field.into_owned())]);
        self.set_slot(key, i, Bind::Value(partial))
    }

    /// `Draw::set_all`: validate every binding first, then apply all.
    pub(crate) fn set_bindings_atomic(
        &mut self,
        key: OpKey,
        values: &[(&str, Bind<'_>)],
    ) -> Result<()> {
        // Apply in order, keeping every replaced slot (not released) and the bytes of every value
        // owner that existed before; roll back on the first failure.
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let mut saved_bytes: Vec<(vgpu_uniforms::OwnerKey, Vec<u8>)> = Vec::new();
        for slot in &op.slots {
            if let Slot::Value { owner } = slot {
                if let Some(b) = self.engine.bytes(*owner) {
                    saved_bytes.push((*owner, b.to_vec()));
                }
            }
        }
        let saved_rev = op.bindings_rev;
        let outer = self.replaced.replace(Vec::new());
        let mut result = Ok(());
        for (name, value) in values {
            if let Err(e) = self.set_binding(key, name, reborrow(value)) {
                result = Err(e);
                break;
            }
        }
        let replaced = std::mem::replace(&mut self.replaced, outer).unwrap_or_default();
        match result {
            Ok(()) => {
                for (_, old) in replaced {
                    self.release_slot(old);
                }
            }
            Err(_) => self.rollback(key, replaced, saved_bytes, saved_rev),
        }
        result
    }

    /// Puts back the slots `set_all` replaced (latest first, so each binding ends with what it
    /// held before) and the previous bytes of value owners, releasing what `set_all` created.
    fn rollback(
        &mut self,
        key: OpKey,
        replaced: Vec<(usize, Slot)>,
        bytes: Vec<(vgpu_uniforms::OwnerKey, Vec<u8>)>,
        saved_rev: u64,
    ) {
        for (owner, b) in bytes {
            let _ = self.engine.set_bytes(owner, &b);
        }
        let Some(op) = self.ops.get_mut(key) else {
            return;
        };
        let mut created = Vec::new();
        for (i, old) in replaced.into_iter().rev() {
            created.push(std::mem::replace(&mut op.slots[i], old));
        }
        op.hot.unset = op.slots.iter().filter(|s| matches!(s, Slot::Unset)).count() as u32;
        // Every slot holds what it held before `set_all` (nothing was recorded in between), so
        // the binding revision is restored too: memos and bundles recorded before stay valid.
        op.bindings_rev = saved_rev;
        op.rebuild_groups();
        for slot in created {
            self.release_slot(slot);
        }
    }

    /// Sets binding `i` of operation `key`.
    pub(crate) fn set_slot(&mut self, key: OpKey, i: usize, value: Bind<'_>) -> Result<()> {
        let Some(op) = self.ops.get(key) else {
            return Ok(());
        };
        let program = op.program.clone();
        let label = op.label.clone();
        let pb = &program.bindings[i];
        let info = &program.shader.reflection().bindings()[pb.info];
        let binding_name = &*pb.name;
        let current = op.slots[i].ownership();
        let kind_err = |actual: &str| -> crate::Error {
            BindingError::Kind {
                label: label.to_string(),
                binding: binding_name.to_owned(),
                expected: pb.kind.describe(),
                actual: actual.to_owned(),
            }
            .into()
        };
        // Only a value or a buffer can switch a buffer binding's ownership; anything else (a
        // texture, a sampler) is a kind error below.
        let buffer_like = value.is_library_owned()
            || matches!(
                value,
                Bind::Buffer(_)
                    | Bind::BufferRange(..)
                    | Bind::RawBuffer(_)
                    | Bind::RawBufferBinding(_)
            );
        if let Some(current) = current {
            let latched_library = matches!(op.slots[i], Slot::Value { .. } | Slot::Shared { .. });
            if latched_library != value.is_library_owned() && pb.kind.is_buffer() && buffer_like {
                return Err(BindingError::Ownership {
                    label: label.to_string(),
                    binding: binding_name.to_owned(),
                    current,
                    requested: if value.is_library_owned() {
                        "library-owned (a value or uniforms block)"
                    } else {
                        "user-owned (a buffer bound by identity)"
                    },
                }
                .into());
            }
        }
        let new_slot = match value {
            Bind::Value(_) | Bind::ValueRef(_) | Bind::Pod(_) => {
                let Some(plan) = info.plan.clone() else {
                    return Err(kind_err(value.describe()));
                };
                let space = match pb.kind {
                    BindingKind::UniformBuffer => AddressSpace::Uniform,
                    BindingKind::StorageBuffer { .. } => AddressSpace::Storage,
                    _ => return Err(kind_err(value.describe())),
                };
                let cx = PackContext::new(&label, binding_name);
                let (owner, fresh) = match op.slots[i] {
                    Slot::Value { owner } => (owner, false),
                    _ => {
                        let owner_label = format!("{label}.{binding_name}");
                        (self.engine.create_owner(&owner_label, space), true)
                    }
                };
                let has_bytes = !fresh && self.engine.bytes(owner).is_some_and(|b| !b.is_empty());
                let result: Result<bool> = match &value {
                    Bind::Pod(bytes) => plan
                        .check_pod_size(bytes.len(), &cx)
                        .map_err(crate::Error::from)
                        .and_then(|()| {
                            self.engine
                                .set_bytes(owner, bytes)
                                .map_err(crate::Error::from)
                        }),
                    Bind::Value(v) if has_bytes => self.engine.update(owner, |bytes| {
                        plan.pack_partial(v, bytes, &cx)
                            .map(|_| ())
                            .map_err(crate::Error::from)
                    }),
                    Bind::ValueRef(v) if has_bytes => {
                        let v: &Value = v;
                        self.engine.update(owner, |bytes| {
                            plan.pack_partial(v, bytes, &cx)
                                .map(|_| ())
                                .map_err(crate::Error::from)
                        })
                    }
                    Bind::Value(_) | Bind::ValueRef(_) => {
                        let v: &Value = match &value {
                            Bind::Value(v) => v,
                            Bind::ValueRef(v) => v,
                            _ => unreachable!("matched above"),
                        };
                        match plan.packed_size(v, &cx) {
                            Ok(size) => self.engine.update_sized(owner, size, |bytes| {
                                plan.pack(v, bytes, &cx)
                                    .map(|_| ())
                                    .map_err(crate::Error::from)
                            }),
                            Err(e) => Err(e.into()),
                        }
                    }
                    _ => unreachable!("matched above"),
                };
                if let Err(e) = result {
                    if fresh {
                        let _ = self.engine.remove_owner(owner);
                    }
                    return Err(e);
                }
                if !fresh {
                    return Ok(());
                }
                Slot::Value { owner }
            }
            Bind::Shared(block) => {
                if pb.kind != BindingKind::UniformBuffer {
                    return Err(kind_err(
                        "a uniforms block (binds to var<uniform> only; use a Buffer for storage)",
                    ));
                }
                let Some(plan) = info.plan.clone() else {
                    return Err(kind_err("a uniforms block"));
                };
                let owner = block.inner.owner;
                if let Slot::Shared { owner: o, .. } = &op.slots[i] {
                    if *o == owner {
                        return Ok(());
                    }
                }
                self.adopt_block(owner, &block.inner.label, &plan, &label, binding_name)?;
                Slot::Shared {
                    owner,
                    block: block.clone(),
                }
            }
            Bind::Buffer(_)
            | Bind::BufferRange(..)
            | Bind::RawBuffer(_)
            | Bind::RawBufferBinding(_) => {
                if !pb.kind.is_buffer() {
                    return Err(kind_err(value.describe()));
                }
                let (raw, offset, size, keep, res_label): (
                    &wgpu::Buffer,
                    u64,
                    Option<NonZeroU64>,
                    Keep,
                    String,
                ) = match &value {
                    Bind::Buffer(b) => (
                        b.raw(),
                        0,
                        None,
                        Keep::Buffer((*b).clone()),
                        b.label().to_owned(),
                    ),
                    Bind::BufferRange(b, o, s) => (
                        b.raw(),
                        *o,
                        *s,
                        Keep::Buffer((*b).clone()),
                        b.label().to_owned(),
                    ),
                    Bind::RawBuffer(b) => (b, 0, None, Keep::None, "wgpu buffer".to_owned()),
                    Bind::RawBufferBinding(bb) => (
                        bb.buffer,
                        bb.offset,
                        bb.size,
                        Keep::None,
                        "wgpu buffer binding".to_owned(),
                    ),
                    _ => unreachable!("matched above"),
                };
                if let Keep::Buffer(b) = &keep {
                    if b.is_destroyed() {
                        return Err(BindingError::Destroyed {
                            label: label.to_string(),
                            binding: binding_name.to_owned(),
                            resource: format!("buffer {:?}", b.label()),
                        }
                        .into());
                    }
                }
                self.check_buffer_range(
                    &label,
                    binding_name,
                    pb.kind,
                    pb.min_size,
                    raw,
                    offset,
                    size,
                )?;
                let res = self
                    .bind
                    .register_buffer_range(raw, offset, size, &res_label)?;
                if let Keep::Buffer(b) = &keep {
                    b.note_registered(res);
                }
                if let Slot::Resource { res: r, .. } = &op.slots[i] {
                    if *r == res {
                        return Ok(());
                    }
                }
                self.acquire_resource(res);
                Slot::Resource { res, keep }
            }
            Bind::Texture(_) | Bind::TargetColor(_) | Bind::TargetDepth(_) | Bind::RawView(_) => {
                let (view, format, samples, keep): (
                    &wgpu::TextureView,
                    Option<wgpu::TextureFormat>,
                    u32,
                    Keep,
                ) = match &value {
                    Bind::Texture(t) => {
                        (t.view(), Some(t.format()), 1, Keep::Texture((*t).clone()))
                    }
                    Bind::TargetColor(t) => match t.color_view() {
                        Some(v) => (v, Some(t.format()), 1, Keep::Target((*t).clone())),
                        None => return Err(kind_err("a depth-only target's color (it has none)")),
                    },
                    Bind::TargetDepth(t) => match (t.depth_view(), t.depth_texture()) {
                        (Some(v), Some(tex)) => (
                            v,
                            Some(tex.format()),
                            tex.sample_count(),
                            Keep::Target((*t).clone()),
                        ),
                        _ => return Err(kind_err("a target without depth")),
                    },
                    Bind::RawView(v) => (
                        v,
                        v.texture().format().into(),
                        v.texture().sample_count(),
                        Keep::None,
                    ),
                    _ => unreachable!("matched above"),
                };
                self.check_texture(&label, binding_name, pb.kind, format, samples)?;
                // Checked here, not left to bind-group creation at record time.
                let need = match pb.kind {
                    BindingKind::StorageTexture { .. } => wgpu::TextureUsages::STORAGE_BINDING,
                    _ => wgpu::TextureUsages::TEXTURE_BINDING,
                };
                let usage = view.texture().usage();
                if !usage.contains(need) {
                    return Err(kind_err(&format!(
                        "a view of a texture without {need:?} usage (it has {usage:?})"
                    )));
                }
                let res = self.bind.register_texture_view(view, "texture view");
                if let Slot::Resource { res: r, .. } = &op.slots[i] {
                    if *r == res {
                        return Ok(());
                    }
                }
                self.acquire_resource(res);
                Slot::Resource { res, keep }
            }
            Bind::Sampler(_) | Bind::RawSampler(_) => {
                let BindingKind::Sampler(ty) = pb.kind else {
                    return Err(kind_err(value.describe()));
                };
                let (raw, keep, desc) = match &value {
                    Bind::Sampler(s) => (s.raw(), Keep::Sampler((*s).clone()), Some(s.desc())),
                    Bind::RawSampler(s) => (*s, Keep::None, None),
                    _ => unreachable!("matched above"),
                };
                if let Some(d) = desc {
                    let comparison = d.compare.is_some();
                    let filtering = d.mag_filter == wgpu::FilterMode::Linear
                        || d.min_filter == wgpu::FilterMode::Linear;
                    let ok = match ty {
                        wgpu::SamplerBindingType::Comparison => comparison,
                        wgpu::SamplerBindingType::Filtering => !comparison,
                        wgpu::SamplerBindingType::NonFiltering => !comparison && !filtering,
                    };
                    if !ok {
                        return Err(kind_err(&format!(
                            "a sampler with compare {:?} and filters {:?}/{:?}",
                            d.compare, d.mag_filter, d.min_filter
                        )));
                    }
                }
                let res = self.bind.register_sampler(raw, "sampler");
                if let Slot::Resource { res: r, .. } = &op.slots[i] {
                    if *r == res {
                        return Ok(());
                    }
                }
                self.acquire_resource(res);
                Slot::Resource { res, keep }
            }
        };
        let Some(op) = self.ops.get_mut(key) else {
            return Ok(());
        };
        let old = std::mem::replace(&mut op.slots[i], new_slot);
        if matches!(old, Slot::Unset) {
            op.hot.unset -= 1;
        }
        op.bindings_rev += 1;
        op.rebuild_groups();
        match &mut self.replaced {
            // Inside `set_all`: released once every binding was accepted, else put back.
            Some(replaced) => replaced.push((i, old)),
            None => self.release_slot(old),
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn check_buffer_range(
        &self,
        label: &str,
        binding: &str,
        kind: BindingKind,
        min_size: u64,
        raw: &wgpu::Buffer,
        offset: u64,
        size: Option<NonZeroU64>,
    ) -> Result<()> {
        let err = |what, expected: String, actual: String| -> crate::Error {
            BindingError::BufferRange {
                label: label.to_owned(),
                binding: binding.to_owned(),
                what,
                expected,
                actual,
            }
            .into()
        };
        let limits = self.ctx.limits();
        let (usage, align, max) = match kind {
            BindingKind::UniformBuffer => (
                wgpu::BufferUsages::UNIFORM,
                u64::from(limits.min_uniform_buffer_offset_alignment),
                limits.max_uniform_buffer_binding_size,
            ),
            _ => (
                wgpu::BufferUsages::STORAGE,
                u64::from(limits.min_storage_buffer_offset_alignment),
                limits.max_storage_buffer_binding_size,
            ),
        };
        if !raw.usage().contains(usage) {
            return Err(err(
                "usage",
                format!("{usage:?}"),
                format!("{:?}", raw.usage()),
            ));
        }
        if !offset.is_multiple_of(align) {
            return Err(err(
                "offset alignment",
                format!("a multiple of {align}"),
                offset.to_string(),
            ));
        }
        let len = match size {
            Some(s) => s.get(),
            None => raw.size().saturating_sub(offset),
        };
        if offset.checked_add(len).is_none_or(|end| end > raw.size()) {
            return Err(err(
                "range",
                format!("offset + size <= {} (the buffer's size)", raw.size()),
                format!("{offset} + {len}"),
            ));
        }
        if len < min_size {
            return Err(err(
                "size",
                format!("at least {min_size} bytes (the WGSL type)"),
                format!("{len} bytes"),
            ));
        }
        if len > max {
            return Err(err(
                "size",
                format!("at most {max} bytes (the device's binding size limit)"),
                format!("{len} bytes"),
            ));
        }
        Ok(())
    }

    fn check_texture(
        &self,
        label: &str,
        binding: &str,
        kind: BindingKind,
        format: Option<wgpu::TextureFormat>,
        samples: u32,
    ) -> Result<()> {
        let err = |expected: String, actual: String| -> crate::Error {
            BindingError::Kind {
                label: label.to_owned(),
                binding: binding.to_owned(),
                expected,
                actual,
            }
            .into()
        };
        let Some(format) = format else { return Ok(()) };
        match kind {
            BindingKind::Texture {
                sample_type,
                multisampled,
                ..
            } => {
                if multisampled != (samples > 1) {
                    return Err(err(
                        kind.describe(),
                        format!("a texture with {samples} samples"),
                    ));
                }
                let aspect = if format.is_depth_stencil_format() {
                    Some(wgpu::TextureAspect::DepthOnly)
                } else {
                    None
                };
                let Some(actual) = format.sample_type(aspect, Some(self.ctx.features())) else {
                    return Err(err(
                        kind.describe(),
                        format!("{format:?}, which cannot be sampled"),
                    ));
                };
                let ok = match (sample_type, actual) {
                    (
                        wgpu::TextureSampleType::Float { filterable: true },
                        wgpu::TextureSampleType::Float { filterable },
                    ) => filterable,
                    (
                        wgpu::TextureSampleType::Float { filterable: false },
                        wgpu::TextureSampleType::Float { .. },
                    ) => true,
                    (
                        wgpu::TextureSampleType::Float { filterable: false },
                        wgpu::TextureSampleType::Depth,
                    ) => true,
                    (wgpu::TextureSampleType::Depth, wgpu::TextureSampleType::Depth) => true,
                    (a, b) => a == b,
                };
                if !ok {
                    return Err(err(
                        kind.describe(),
                        format!("a {format:?} texture (sample type {actual:?})"),
                    ));
                }
            }
            BindingKind::StorageTexture { format: want, .. } => {
                if want != format {
                    return Err(err(kind.describe(), format!("a {format:?} texture")));
                }
            }
            _ => return Err(err(kind.describe(), "a texture".to_owned())),
        }
        Ok(())
    }

    pub(crate) fn acquire_resource(&mut self, res: ResourceKey) {
        *self.res_refs.entry(res).or_insert(0) += 1;
    }

    /// Drops one reference; a resource no binding uses any more is kept registered (its bind
    /// groups cached) until [`IDLE_RESOURCES`] others are idle.
    pub(crate) fn release_resource(&mut self, res: ResourceKey) {
        let Some(n) = self.res_refs.get_mut(&res) else {
            return;
        };
        *n -= 1;
        if *n == 0 {
            self.res_refs.remove(&res);
            self.idle_resources.push_back(res);
            while self.idle_resources.len() > IDLE_RESOURCES {
                if let Some(old) = self.idle_resources.pop_front() {
                    if !self.res_refs.contains_key(&old) {
                        self.bind.destroy(old);
                    }
                }
            }
        }
    }
}

fn reborrow<'a>(b: &'a Bind<'_>) -> Bind<'a> {
    match b {
        Bind::Value(v) => Bind::ValueRef(v),
        Bind::ValueRef(v) => Bind::ValueRef(v),
        Bind::Pod(p) => Bind::Pod(p),
        Bind::Shared(s) => Bind::Shared(s),
        Bind::Buffer(x) => Bind::Buffer(x),
        Bind::BufferRange(x, o, s) => Bind::BufferRange(x, *o, *s),
        Bind::RawBuffer(x) => Bind::RawBuffer(x),
        Bind::RawBufferBinding(bb) => Bind::RawBufferBinding(wgpu::BufferBinding {
            buffer: bb.buffer,
            offset: bb.offset,
            size: bb.size,
        }),
        Bind::Texture(x) => Bind::Texture(x),
        Bind::TargetColor(x) => Bind::TargetColor(x),
        Bind::TargetDepth(x) => Bind::TargetDepth(x),
        Bind::RawView(x) => Bind::RawView(x),
        Bind::Sampler(x) => Bind::Sampler(x),
        Bind::RawSampler(x) => Bind::RawSampler(x),
    }
}
