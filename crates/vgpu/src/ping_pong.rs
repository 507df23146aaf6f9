//! [`PingPong`]: a pair of targets ([`Gpu::ping_pong`]) or storage buffers
//! ([`Gpu::ping_pong_buffers`]) for iterative effects and simulations: each step reads the
//! `read` side and writes the `write` side, then [`swap`](PingPong::swap) flips them.
//!
//! Bindings follow the swaps without a new `set`: a binding given a target pair's read side
//! (`draw.set("src", pp.read())`, or [`reading`](PingPong::reading)) is re-pointed at the new
//! read side by each swap, through the normal assignment path (the state's target followers,
//! the same as `Target::resize` uses); bindings handed to
//! [`follow_read`](PingPong::follow_read) / [`follow_write`](PingPong::follow_write) (of targets
//! or buffers) are set to their side at each swap. Bind groups are cached by resource identity,
//! so once both parities have been drawn (two frames), swapping creates no bind group.

use crate::binding::Binding;
use crate::binding_arg::BindingArg;
use crate::buffer::{Buffer, BufferDesc};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::target::Target;
use crate::target_desc::TargetDesc;

mod sealed {
    /// What a [`PingPong`](super::PingPong) can hold: [`Target`](crate::Target) or
    /// [`Buffer`](crate::Buffer).
    pub trait Side: std::fmt::Debug {
        /// `self` as a binding argument.
        fn arg(&self) -> crate::BindingArg<'_>;
        /// Re-points the bindings that follow `from` (the state's followers) at `to`.
        fn repoint(gpu: &crate::Gpu, from: &Self, to: &Self, reason: &str) -> crate::Result<()>;
    }
}

/// What a [`PingPong`] can hold: a [`Target`] or a [`Buffer`] (sealed).
pub trait PingPongSide: sealed::Side {}

impl sealed::Side for Target {
    fn arg(&self) -> BindingArg<'_> {
        BindingArg::TargetColor(self)
    }
    fn repoint(gpu: &Gpu, from: &Self, to: &Self, reason: &str) -> Result<()> {
        gpu.with_state(|st| st.repoint_followers(&from.inner, &to.inner, reason))
    }
}
impl PingPongSide for Target {}

impl sealed::Side for Buffer {
    fn arg(&self) -> BindingArg<'_> {
        BindingArg::Buffer(self)
    }
    fn repoint(_: &Gpu, _: &Self, _: &Self, _: &str) -> Result<()> {
        // Buffers have no followers: only `follow_read`/`follow_write` bindings follow.
        Ok(())
    }
}
impl PingPongSide for Buffer {}

/// Which side a followed binding is set to at each swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Read,
    Write,
}

/// A pair of targets or storage buffers, `read` and `write`, flipped by [`swap`](Self::swap).
/// The sides are ordinary targets or buffers labelled `{label}.ping` and `{label}.pong`; `read`
/// is `ping` at parity 0.
///
/// Bindings follow the swaps without a new `set`: a binding given a target pair's read side
/// (`draw.set("src", pp.read())`, or [`reading`](Self::reading)) is re-pointed at the new read
/// side by each swap, through the normal assignment path (as `Target::resize` re-points the
/// bindings of a resized target); bindings handed to [`follow_read`](Self::follow_read) /
/// [`follow_write`](Self::follow_write) (of targets or buffers) are set to their side at each
/// swap. Bind groups are cached by resource identity, so once both parities have been drawn
/// (two frames), swapping creates no bind group. A bundle that recorded a draw whose binding
/// followed a swap reports `VGPU-BUNDLE-STALE`.
///
/// ```
/// # let gpu = vgpu::Gpu::noop();
/// let mut pp = gpu.ping_pong(&vgpu::TargetDesc::new(8, 8).label("sim"))?;
/// let step = gpu.effect("step", "
///     @group(0) @binding(0) var src: texture_2d<f32>;
///     @fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
///         return textureLoad(src, vec2u(p.xy), 0) + vec4f(1.0 / 255.0);
///     }")?;
/// step.set("src", pp.reading())?; // follows every swap: no new set
/// for _ in 0..4 {
///     gpu.frame(|f| f.pass(vgpu::PassDesc::new(pp.write()), |p| p.draw(&step)))?;
///     pp.swap()?;
/// }
/// assert_eq!(pp.parity(), 0);
/// assert_eq!(pp.read().label(), "sim.ping");
/// # Ok::<(), vgpu::Error>(())
/// ```
#[derive(Debug)]
pub struct PingPong<T: PingPongSide> {
    gpu: Gpu,
    label: String,
    sides: [T; 2],
    /// Index of the read side.
    parity: usize,
    swaps: u64,
    followed: Vec<(Binding, Role)>,
}

impl<T: PingPongSide> PingPong<T> {
    /// The side to read (sample, bind as input): the latest completed step.
    pub fn read(&self) -> &T {
        &self.sides[self.parity]
    }
    /// The side to write (a pass target, a writable storage buffer): the next step.
    pub fn write(&self) -> &T {
        &self.sides[1 - self.parity]
    }
    /// The read side as a binding argument. For a target pair, a binding given it follows every
    /// swap (as one given `read()` does); for buffers, use [`follow_read`](Self::follow_read).
    pub fn reading(&self) -> BindingArg<'_> {
        self.read().arg()
    }
    /// 0 while `read` is the `.ping` side, 1 while it is `.pong`: flipped by each swap.
    pub fn parity(&self) -> usize {
        self.parity
    }
    /// Swaps since creation or the last [`reset`](Self::reset).
    pub fn swaps(&self) -> u64 {
        self.swaps
    }
    /// The pair's label (its sides are `{label}.ping` and `{label}.pong`).
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Sets `binding` to the read side now and at every swap (it keeps its draw or compute
    /// alive while the pair lives).
    ///
    /// ```
    /// # let gpu = vgpu::Gpu::noop();
    /// let desc = vgpu::BufferDesc {
    ///     label: "cells".into(),
    ///     size: 64,
    ///     usage: wgpu::BufferUsages::STORAGE,
    /// };
    /// let mut cells = gpu.ping_pong_buffers(&desc)?;
    /// let shader = gpu.shader("step", "
    ///     @group(0) @binding(0) var<storage, read> src: array<u32>;
    ///     @group(0) @binding(1) var<storage, read_write> dst: array<u32>;
    ///     @compute @workgroup_size(16) fn main(@builtin(global_invocation_id) id: vec3u) {
    ///         dst[id.x] = src[id.x] + 1u;
    ///     }")?;
    /// let step = gpu.compute(&shader, vgpu::ComputeDesc::default())?;
    /// cells.follow_read(&step.binding("src")?)?;
    /// cells.follow_write(&step.binding("dst")?)?;
    /// cells.swap()?; // src is now the other buffer, dst the first
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn follow_read(&mut self, binding: &Binding) -> Result<()> {
        self.follow(binding, Role::Read)
    }
    /// Sets `binding` to the write side now and at every swap (e.g. a compute's
    /// `var<storage, read_write>` output).
    pub fn follow_write(&mut self, binding: &Binding) -> Result<()> {
        self.follow(binding, Role::Write)
    }

    /// Registers `binding` for `role` (replacing an earlier registration of it) and sets it.
    fn follow(&mut self, binding: &Binding, role: Role) -> Result<()> {
        binding.set(self.side(role).arg())?;
        let same = |b: &Binding| b.op.key == binding.op.key && b.index == binding.index;
        match self.followed.iter_mut().find(|(b, _)| same(b)) {
            Some(entry) => entry.1 = role,
            None => self.followed.push((binding.clone(), role)),
        }
        Ok(())
    }

    fn side(&self, role: Role) -> &T {
        match role {
            Role::Read => self.read(),
            Role::Write => self.write(),
        }
    }

    /// Flips `read` and `write`: the bindings that followed the old read side now hold the new
    /// one, those handed to `follow_read`/`follow_write` hold their new sides. Call once after
    /// each step. Nothing is created: with both parities seen, no bind group either.
    ///
    /// Errors: the first refused re-assignment (every other one is still made).
    pub fn swap(&mut self) -> Result<()> {
        self.flip_to(1 - self.parity)?;
        self.swaps += 1;
        Ok(())
    }

    /// Restores the initial parity (`read` is `.ping`), re-pointing as a swap does when it
    /// changes, and zeroes [`swaps`](Self::swaps).
    pub fn reset(&mut self) -> Result<()> {
        self.swaps = 0;
        if self.parity == 0 {
            return Ok(());
        }
        self.flip_to(0)
    }

    /// Makes side `parity` the read side and re-points what follows.
    fn flip_to(&mut self, parity: usize) -> Result<()> {
        let from = self.parity;
        self.parity = parity;
        let reason = format!("follows ping-pong {:?}, which was swapped", self.label);
        let mut result = T::repoint(&self.gpu, &self.sides[from], &self.sides[parity], &reason);
        for (binding, role) in &self.followed {
            let set = binding.set(self.side(*role).arg());
            if result.is_ok() {
                result = set;
            }
        }
        result
    }
}

impl PingPong<Target> {
    /// Resizes both targets (see `Target::resize`: bindings of either follow); their contents
    /// are lost, so re-seed the read side. The parity is kept.
    pub fn resize(&self, width: u32, height: u32) -> Result<()> {
        self.sides[0].resize(width, height)?;
        self.sides[1].resize(width, height)
    }
}

impl Gpu {
    /// A pair of targets made from `desc` (labelled `{label}.ping` and `{label}.pong`; the
    /// label `ping-pong` when `desc` has none) for effects that read the previous step: see
    /// [`PingPong`].
    pub fn ping_pong(&self, desc: &TargetDesc) -> Result<PingPong<Target>> {
        let label = pair_label(&desc.label);
        let side = |suffix: &str| {
            let mut d = desc.clone();
            d.label = format!("{label}.{suffix}");
            self.target_with(&d)
        };
        let sides = [side("ping")?, side("pong")?];
        Ok(self.pair(label, sides))
    }

    /// A pair of buffers made from `desc` (labelled `{label}.ping` and `{label}.pong`) for
    /// computes that read the previous step: see [`PingPong`] and
    /// [`follow_read`](PingPong::follow_read).
    pub fn ping_pong_buffers(&self, desc: &BufferDesc) -> Result<PingPong<Buffer>> {
        let label = pair_label(&desc.label);
        let side = |suffix: &str| {
            let mut d = desc.clone();
            d.label = format!("{label}.{suffix}");
            self.buffer(&d)
        };
        let sides = [side("ping")?, side("pong")?];
        Ok(self.pair(label, sides))
    }

    fn pair<T: PingPongSide>(&self, label: String, sides: [T; 2]) -> PingPong<T> {
        PingPong {
            gpu: self.clone(),
            label,
            sides,
            parity: 0,
            swaps: 0,
            followed: Vec::new(),
        }
    }
}

/// The pair's label: `label`, or `ping-pong` when empty.
fn pair_label(label: &str) -> String {
    if label.is_empty() {
        "ping-pong".to_owned()
    } else {
        label.to_owned()
    }
}
