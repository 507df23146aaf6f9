//! Render bundles: draws recorded once against a target signature and replayed in passes.
//!
//! Bundles pay off when the same draws are replayed many times with few changes (seed 001):
//! recording validates and encodes once, replay skips per-draw work. Values bound by the draws
//! are *live* inside a bundle: recording pins each owner to its home slot (the recorded dynamic
//! offsets cannot change), later `set()`s are written through at the next submit, and every
//! replay sees the value as it is at submit. Ordinary draws recorded in frames keep their
//! per-operation snapshots of the same owners (they use other slots). A bundle whose
//! draws were rebound (a resource or block replaced) or whose buffers were destroyed fails with
//! `VGPU-BUNDLE-STALE` instead of drawing garbage.

use std::sync::Arc;

use vgpu_uniforms::OwnerKey;

use crate::draw::{Draw, Keep, OpKey, Slot};
use crate::error::{FrameError, Result};
use crate::gpu::Gpu;
use crate::record::{Bound, BundleCmd, DrawRange, encode_bundle};
use crate::target::TargetSignature;

struct Dep {
    key: OpKey,
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
        let mut st = self.gpu.shared.lock();
        for &owner in &self.pinned {
            let _ = st.engine.unpin(owner);
        }
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
    bound: Bound,
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
        if draw.gpu_id != self.gpu.identity() {
            return Err(crate::frame::foreign("draw", &draw.inner.label));
        }
        let mut st = self.gpu.shared.lock();
        let key = draw.inner.key;
        st.record_draw(key, &mut self.cmds, &mut self.bound, self.sig, 0, range)?;
        let rev = st.ops.get(key).map_or(0, |o| o.bindings_rev);
        self.deps.push(Dep {
            key,
            bindings_rev: rev,
            _draw: draw.clone(),
        });
        Ok(())
    }
}

impl Gpu {
    /// Records a bundle for targets with `signature` (see [`Target::signature`](crate::Target::signature)).
    pub fn bundle(
        &self,
        label: &str,
        signature: TargetSignature,
        record: impl FnOnce(&mut BundleRecorder<'_>) -> Result<()>,
    ) -> Result<Bundle> {
        let color = signature.color.map(Some);
        let color_formats: &[Option<wgpu::TextureFormat>] = match &color {
            Some(c) => std::slice::from_ref(c),
            None => &[],
        };
        let mut rec = BundleRecorder {
            gpu: self,
            cmds: Vec::new(),
            sig: signature,
            bound: Bound::for_bundle(),
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
                let mut st = self.shared.lock();
                for &o in &pinned {
                    let _ = st.engine.unpin(o);
                }
                return Err(e);
            }
        };
        let bundle = match finished {
            Ok(b) => b,
            Err(e) => {
                let mut st = self.shared.lock();
                for &o in &pinned {
                    let _ = st.engine.unpin(o);
                }
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

impl Bundle {
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
        let st = self.inner.gpu.shared.lock();
        for dep in &self.inner.deps {
            let Some(op) = st.ops.get(dep.key) else {
                continue;
            };
            let stale = |reason: String| -> crate::Error {
                FrameError::BundleStale {
                    label: self.inner.label.clone(),
                    draw: op.label.to_string(),
                    reason,
                }
                .into()
            };
            for (slot, b) in op.slots.iter().zip(&op.program.bindings) {
                if let Slot::Resource {
                    keep: Keep::Buffer(buf),
                    ..
                } = slot
                {
                    if buf.is_destroyed() {
                        return Err(stale(format!(
                            "binding `{}` uses buffer {:?}, which was destroyed",
                            b.name,
                            buf.label()
                        )));
                    }
                }
            }
            // Vertex and index buffers are recorded into the bundle too.
            if let Some(render) = &op.render {
                let geometry = render
                    .vertex_buffers
                    .iter()
                    .map(|v| (&v.buffer, "vertex"))
                    .chain(render.index.iter().map(|i| (&i.buffer, "index")));
                for (buf, what) in geometry {
                    if buf.is_destroyed() {
                        return Err(stale(format!(
                            "its {what} buffer {:?} was destroyed",
                            buf.label()
                        )));
                    }
                }
            }
            if op.bindings_rev != dep.bindings_rev {
                return Err(stale(
                    "was rebound since the bundle was recorded".to_owned(),
                ));
            }
        }
        Ok(())
    }
}
