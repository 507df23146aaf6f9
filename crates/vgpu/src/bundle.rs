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

use crate::descriptors::{DrawRange, GpuId, TargetSignature};
use crate::draw::Draw;
use crate::error::{FrameError, Result, foreign_gpu};
use crate::gpu::Gpu;
use crate::state::{BundleCmd, OpKey, PassBindings, encode_bundle};

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

    fn draw_range(&mut self, draw: &Draw, range: Option<&DrawRange>) -> Result<()> {
        if draw.gpu_id != self.gpu.id() {
            return Err(foreign_gpu("draw", &draw.label(), "recording the bundle"));
        }
        let key = draw.inner.key;
        let (cmds, bound, sig) = (&mut self.cmds, &mut self.bound, self.sig);
        let rev = self.gpu.with_state(|st| -> Result<u64> {
            st.record_draw(key, cmds, bound, sig, 0, range)?;
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
        let color = signature.color.map(Some);
        let color_formats: &[Option<wgpu::TextureFormat>] = match &color {
            Some(c) => std::slice::from_ref(c),
            None => &[],
        };
        let mut rec = BundleRecorder {
            gpu: self,
            cmds: Vec::new(),
            sig: signature,
            bound: PassBindings::for_bundle(),
            deps: Vec::new(),
        };
        let result = record(&mut rec);
        let BundleRecorder {
            cmds,
            mut bound,
            deps,
            ..
        } = rec;
        bound.flush(self.ctx.stats());
        let pinned = bound.pinned.take().unwrap_or_default();
        let finished = match result {
            Ok(()) => self
                .ctx
                .scoped("RenderBundleEncoder::finish", Some(label), |d| {
                    let mut encoder =
                        d.create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
                            label: Some(label),
                            color_formats,
                            depth_stencil: signature.depth.map(|format| {
                                wgpu::RenderBundleDepthStencil {
                                    format,
                                    depth_read_only: false,
                                    stencil_read_only: true,
                                }
                            }),
                            sample_count: signature.samples,
                            multiview: None,
                        });
                    encode_bundle(&mut encoder, &cmds);
                    encoder.finish(&wgpu::RenderBundleDescriptor { label: Some(label) })
                }),
            Err(e) => {
                self.unpin_all(&pinned);
                return Err(e);
            }
        };
        let bundle = match finished {
            Ok(b) => b,
            Err(e) => {
                self.unpin_all(&pinned);
                return Err(e.into());
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
