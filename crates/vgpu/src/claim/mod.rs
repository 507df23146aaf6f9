//! Claimed groups (upstream's "group claim"): a [`Draw`] or [`Compute`] hands one of its bind
//! groups to the caller. [`Draw::claim_group`] returns the group's layout as the shader reflects
//! it (optionally with dynamic offsets for its uniform and storage buffers); the caller makes and
//! owns the bind group ([`Draw::create_group`] checks its entries first, or any
//! `wgpu::BindGroup` made from that layout) and attaches it with [`Draw::set_group`]; offsets
//! are given per recorded draw with [`Pass::draw_with_offsets`] (or
//! [`Draw::set_group_offsets`]). vgpu no longer manages that group: setting one of its bindings
//! is `VGPU-GROUP-CLAIMED`.
//!
//! The same calls on a [`Compute`](crate::Compute) are in `compute.rs` here.
//!
//! Draws that claim nothing pay nothing: their record holds no claim and takes the fast path as
//! before; a draw that claims a group is recorded on the full path.

mod compute;

use crate::draw::Draw;
use crate::error::Result;
use crate::pass::Pass;

impl Draw {
    /// Claims bind group `group`: the caller provides it from now on, and vgpu stops managing
    /// it. Returns the group's layout as reflected from the shader, with a dynamic offset for
    /// each uniform and storage buffer when `dynamic` is true (given per draw with
    /// [`Pass::draw_with_offsets`]), else none. What the group's bindings held is released; the
    /// draw records only once a bind group is attached ([`set_group`](Self::set_group), else
    /// `VGPU-GROUP-UNSET`). Claiming again as claimed returns the same layout; claiming with
    /// another `dynamic` detaches the bind group (it was made from the other layout).
    ///
    /// Errors: `VGPU-GROUP-UNKNOWN` for a group the entry points do not use; `VGPU-GROUP-LAYOUT`
    /// when the dynamic buffers would pass the device's limits. A rejected claim changes nothing.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let shader = gpu.shader(
    ///     "claimed",
    ///     "struct P { color: vec4f }
    ///      @group(0) @binding(0) var<uniform> p: P;
    ///      @vertex fn vs() -> @builtin(position) vec4f { return vec4f(0.0, 0.0, 0.0, 1.0); }
    ///      @fragment fn fs() -> @location(0) vec4f { return p.color; }",
    /// )?;
    /// let draw = gpu.draw(&shader, vgpu::DrawDesc::default())?;
    /// let layout = draw.claim_group(0, true)?;
    /// let buffer = gpu.device().create_buffer(&vgpu::wgpu::BufferDescriptor {
    ///     label: Some("colors"),
    ///     size: 512,
    ///     usage: vgpu::wgpu::BufferUsages::UNIFORM | vgpu::wgpu::BufferUsages::COPY_DST,
    ///     mapped_at_creation: false,
    /// });
    /// let group = draw.create_group(0, &[vgpu::wgpu::BindGroupEntry {
    ///     binding: 0,
    ///     resource: vgpu::wgpu::BindingResource::Buffer(vgpu::wgpu::BufferBinding {
    ///         buffer: &buffer,
    ///         offset: 0,
    ///         size: std::num::NonZeroU64::new(16),
    ///     }),
    /// }])?;
    /// draw.set_group(0, &group)?;
    /// // vgpu no longer sets the group's bindings:
    /// let err = draw.set("p", vgpu::value! { color: [1.0, 0.0, 0.0, 1.0] }).unwrap_err();
    /// assert_eq!(vgpu::ErrorCode::code(&err), "VGPU-GROUP-CLAIMED");
    /// # let _ = layout;
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn claim_group(&self, group: u32, dynamic: bool) -> Result<wgpu::BindGroupLayout> {
        self.inner.claim_group(group, dynamic)
    }

    /// Attaches the caller's bind group to claimed group `group` (made from the layout
    /// [`claim_group`](Self::claim_group) returned; vgpu cannot tell which layout a
    /// `wgpu::BindGroup` was made from: one made from another layout is reported by wgpu when
    /// the pass is validated). Attaching another bind group makes bundles recorded before refuse
    /// to replay (`VGPU-BUNDLE-STALE`). `VGPU-GROUP-NOT-CLAIMED` for a group vgpu manages.
    pub fn set_group(&self, group: u32, bind_group: &wgpu::BindGroup) -> Result<()> {
        self.inner.set_group(group, bind_group)
    }

    /// The dynamic offsets claimed group `group` is recorded with from now on (until given
    /// again): one per uniform or storage buffer of the group, in binding order, each a multiple
    /// of the device's offset alignment for its kind (`VGPU-GROUP-OFFSETS`; a group claimed
    /// without dynamic offsets takes none). Offsets start at 0. That an offset plus the bound
    /// size stays inside the caller's buffer is left to wgpu.
    pub fn set_group_offsets(&self, group: u32, offsets: &[u32]) -> Result<()> {
        self.inner.set_group_offsets(group, offsets)
    }

    /// A bind group for claimed group `group`, made from the layout handed out once `entries`
    /// were checked against the shader's bindings of that group: one entry per binding, of the
    /// resource kind its WGSL declaration takes, a buffer with the usage its binding needs and at
    /// least the size of its type (`VGPU-GROUP-LAYOUT` names the first difference, before wgpu
    /// sees it). Not attached: pass it to [`set_group`](Self::set_group).
    pub fn create_group(
        &self,
        group: u32,
        entries: &[wgpu::BindGroupEntry<'_>],
    ) -> Result<wgpu::BindGroup> {
        self.inner.create_group(group, entries)
    }
}

impl Pass<'_> {
    /// Records `draw` with `offsets` as the dynamic offsets of its claimed group `group`
    /// ([`Draw::set_group_offsets`], which they stay for later draws until given again): two
    /// draws of one draw may select two slices of the caller's buffer. A rejected offset
    /// (`VGPU-GROUP-OFFSETS`, `VGPU-GROUP-NOT-CLAIMED`) records nothing.
    pub fn draw_with_offsets(&mut self, draw: &Draw, group: u32, offsets: &[u32]) -> Result<()> {
        // A draw of another `Gpu` is refused before its offsets change.
        if draw.gpu_id != self.gpu_id {
            return Err(crate::error::foreign_gpu(
                "draw",
                &draw.label(),
                "recording the pass",
            ));
        }
        draw.set_group_offsets(group, offsets)?;
        self.draw(draw)
    }
}
