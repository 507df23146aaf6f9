//! Render bundles: draws recorded once against a target signature and replayed in passes.
//!
//! Bundles pay off when the same draws are replayed many times with few changes
//! ([WebGPU render bundle best practices](https://toji.dev/webgpu-best-practices/render-bundles)):
//! recording validates and encodes once, replay skips per-draw work. Values bound by the draws
//! are *live* inside a bundle: recording pins each owner to its home slot (the recorded dynamic
//! offsets cannot change), later `set()`s are written through at the next submit, and every
//! replay sees the value as it is at submit. Ordinary draws recorded in frames keep their
//! per-operation snapshots of the same owners (they use other slots). A bundle whose
//! draws were rebound (a resource or block replaced) or whose buffers were destroyed fails with
//! `VGPU-BUNDLE-STALE` instead of drawing garbage.

use std::sync::Arc;

use vgpu_uniforms::OwnerKey;

use crate::buffer::Buffer;
use crate::descriptors::{DrawRange, GpuId, TargetSignature};
use crate::draw::Draw;
use crate::error::{FrameError, Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::indirect_args::{ARGUMENTS, args_size, check_features, check_indirect_buffer};
use crate::state::{BundleCmd, DrawCall, IndirectArgs, OpKey, PassBindings, encode_render_bundle};

/// A draw recorded into a bundle, kept alive by it.
struct Dep {
    key: OpKey,
    /// The operation's `bindings_rev` when recorded: a draw rebound since no longer replays
    /// (`State::bundle_staleness`).
    bindings_rev: u64,
    _draw: Draw,
}

struct BundleInner {
    gpu: Gpu,
    label: String,
    bundle: wgpu::RenderBundle,
    sig: TargetSignature,
    deps: Vec<Dep>,
    /// The argument buffers of its indirect draws, with the draw's label: one destroyed makes
    /// the bundle stale.
    indirect: Vec<(Buffer, String)>,
    pinned: Vec<OwnerKey>,
    draws: usize,
}

impl Drop for BundleInner {
    fn drop(&mut self) {
        let pinned = &self.pinned;
        self.gpu.with_state(|st| {
            for &owner in pinned {
                let _ = st.engine.unpin(owner);
            }
        });
    }
}

/// A recorded render bundle. Cheap to clone (an `Arc`); keeps its draws alive.
#[derive(Clone)]
pub struct Bundle {
    inner: Arc<BundleInner>,
}

impl std::fmt::Debug for Bundle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bundle")
            .field("label", &self.inner.label)
            .field("draws", &self.inner.draws)
            .finish_non_exhaustive()
    }
}

/// Records draws into a bundle (see [`Gpu::bundle`]).
pub struct BundleRecorder<'g> {
    gpu: &'g Gpu,
    cmds: Vec<BundleCmd>,
    sig: TargetSignature,
    bound: PassBindings,
    deps: Vec<Dep>,
    indirect: Vec<(Buffer, String)>,
}

impl std::fmt::Debug for BundleRecorder<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BundleRecorder")
            .field("draws", &self.deps.len())
            .finish_non_exhaustive()
    }
}

impl BundleRecorder<'_> {
    /// Records `draw` (values it binds are pinned and live).
    pub fn draw(&mut self, draw: &Draw) -> Result<()> {
        self.draw_range(draw, None)
    }

    /// Records `draw` with explicit ranges.
    pub fn draw_with(&mut self, draw: &Draw, range: DrawRange) -> Result<()> {
        self.draw_range(draw, Some(&range))
    }

    /// Records `draw` with its counts read from `args` at `offset`, as
    /// [`Pass::draw_indirect`](crate::Pass::draw_indirect) does (20-byte arguments for an
    /// indexed draw, else 16), checked the same way. Replaying the bundle after `args` was
    /// destroyed fails with `VGPU-BUNDLE-STALE`. A bundle has no multi-draw: record several
    /// `draw_indirect`s.
    pub fn draw_indirect(&mut self, draw: &Draw, args: &Buffer, offset: u64) -> Result<()> {
        let gpu_id = self.gpu.id();
        if draw.gpu_id != gpu_id {
            return Err(foreign_gpu("draw", &draw.label(), "recording the bundle"));
        }
        check_features(&self.gpu.ctx, draw, false)?;
        let indexed = self.gpu.with_state(|st| st.draw_is_indexed(draw.inner.key));
        let size = args_size(indexed);
        check_indirect_buffer(gpu_id, draw, args, ARGUMENTS, offset, size)?;
        let call = DrawCall::Indirect(IndirectArgs {
            buffer: args.raw(),
            offset,
            count: 1,
            count_buffer: None,
        });
        self.record(draw, call)?;
        self.indirect.push((args.clone(), draw.label().to_string()));
        Ok(())
    }

    fn draw_range(&mut self, draw: &Draw, range: Option<&DrawRange>) -> Result<()> {
        if draw.gpu_id != self.gpu.id() {
            return Err(foreign_gpu("draw", &draw.label(), "recording the bundle"));
        }
        self.record(draw, range.into())
    }

    /// Records `draw` ending with `call` (the full path, values pinned) and keeps it alive.
    fn record(&mut self, draw: &Draw, call: DrawCall<'_>) -> Result<()> {
        let key = draw.inner.key;
        let (cmds, bound, sig) = (&mut self.cmds, &mut self.bound, self.sig);
        let rev = self.gpu.with_state(|st| -> Result<u64> {
            st.record_draw(key, cmds, bound, sig, 0, call)?;
            Ok(st.bindings_rev(key))
        })?;
        self.deps.push(Dep {
            key,
            bindings_rev: rev,
            _draw: draw.clone(),
        });
        Ok(())
    }
}

impl Gpu {
    /// Records a bundle for targets with `signature` (see
    /// [`Target::signature`](crate::Target::signature)).
    pub fn bundle(
        &self,
        label: &str,
        signature: TargetSignature,
        record: impl FnOnce(&mut BundleRecorder<'_>) -> Result<()>,
    ) -> Result<Bundle> {
        self.ctx.check_device("Gpu::bundle")?;
        let mut rec = BundleRecorder {
            gpu: self,
            cmds: Vec::new(),
            sig: signature,
            bound: PassBindings::for_bundle(),
            deps: Vec::new(),
            indirect: Vec::new(),
        };
        let result = record(&mut rec);
        let BundleRecorder {
            cmds,
            mut bound,
            deps,
            indirect,
            ..
        } = rec;
        bound.flush(self.ctx.stats());
        let pinned = bound.pinned.take().unwrap_or_default();
        let finished = match result {
            Ok(()) => encode_render_bundle(&self.ctx, label, signature, &cmds),
            Err(e) => {
                self.unpin_all(&pinned);
                return Err(e);
            }
        };
        let bundle = match finished {
            Ok(b) => b,
            Err(e) => {
                self.unpin_all(&pinned);
                return Err(e);
            }
        };
        let draws = deps.len();
        Ok(Bundle {
            inner: Arc::new(BundleInner {
                gpu: self.clone(),
                label: label.to_owned(),
                bundle,
                sig: signature,
                deps,
                indirect,
                pinned,
                draws,
            }),
        })
    }
}

impl Gpu {
    /// Undoes the pins of a bundle that was not made.
    fn unpin_all(&self, pinned: &[OwnerKey]) {
        self.with_state(|st| {
            for &o in pinned {
                let _ = st.engine.unpin(o);
            }
        });
    }
}

impl Bundle {
    /// The id of the `Gpu` that recorded it.
    pub(crate) fn gpu_id(&self) -> GpuId {
        self.inner.gpu.id()
    }
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
    /// Number of draws recorded.
    pub fn len(&self) -> usize {
        self.inner.draws
    }
    /// True if no draw was recorded.
    pub fn is_empty(&self) -> bool {
        self.inner.draws == 0
    }
    /// The target signature it was recorded for.
    pub fn signature(&self) -> TargetSignature {
        self.inner.sig
    }
    pub(crate) fn raw(&self) -> &wgpu::RenderBundle {
        &self.inner.bundle
    }

    /// Checks the bundle can replay in a pass with `sig`.
    pub(crate) fn check(&self, sig: TargetSignature) -> Result<()> {
        if sig != self.inner.sig {
            return Err(FrameError::BundleSignature {
                label: self.inner.label.clone(),
                expected: self.inner.sig,
                actual: sig,
            }
            .into());
        }
        let deps = &self.inner.deps;
        let stale = self.inner.gpu.with_state(|st| {
            deps.iter()
                .find_map(|dep| st.bundle_staleness(dep.key, dep.bindings_rev))
        });
        let destroyed = self.inner.indirect.iter().find(|(b, _)| b.is_destroyed());
        let stale = stale.or_else(|| {
            destroyed.map(|(b, draw)| {
                let reason = format!("its indirect argument buffer {:?} was destroyed", b.label());
                (draw.clone(), reason)
            })
        });
        if let Some((draw, reason)) = stale {
            return Err(FrameError::BundleStale {
                label: self.inner.label.clone(),
                draw,
                reason,
            }
            .into());
        }
        Ok(())
    }
}
