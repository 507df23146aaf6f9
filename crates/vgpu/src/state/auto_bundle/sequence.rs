//! What a pass records, as compared between frames: one [`SeqEntry`] per draw or pass-state
//! command, and the [`Call`]s (explicit ranges, pass state) the entries that are not a plain
//! draw name.

use crate::auto_bundle::DirectReason;
use crate::descriptors::DrawRange;
use crate::state::OpKey;

/// One draw with its own counts (its operation's key), or a [`Call`]: a draw with explicit
/// ranges or a pass-state command (the null key; the calls are taken in order). Eight bytes: a
/// replayed draw is one compare.
/// Kept as the key's 64 bits (`KeyData::as_ffi`; a `Draw` keeps its own, so that the compare
/// is one load).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SeqEntry(u64);

impl SeqEntry {
    /// A draw with its own counts.
    #[inline(always)]
    pub(crate) fn draw(key: OpKey) -> Self {
        SeqEntry(slotmap::Key::data(&key).as_ffi())
    }

    /// A call (the next of the sequence's calls).
    #[inline]
    pub(crate) fn call() -> Self {
        SeqEntry::draw(OpKey::default())
    }

    /// Whether it stands for a call (not a draw with its own counts).
    #[inline]
    pub(crate) fn is_call(&self) -> bool {
        *self == SeqEntry::call()
    }

    /// The draw's operation (the null key for a call).
    #[inline]
    pub(crate) fn key(&self) -> OpKey {
        OpKey::from(slotmap::KeyData::from_ffi(self.0))
    }
}

/// A draw's explicit ranges, or a pass-state command bundles cannot hold (issued between them).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Call {
    /// A draw with explicit ranges.
    Range(OpKey, DrawRange),
    Viewport([f32; 6]),
    Scissor([u32; 4]),
    BlendConstant([f64; 4]),
    StencilReference(u32),
}

impl Call {
    /// Issues a pass-state command into `rpass` (a range is part of a draw: nothing).
    pub(crate) fn issue(&self, rpass: &mut wgpu::RenderPass<'_>) {
        match self {
            Call::Range(..) => {}
            Call::Viewport([x, y, w, h, min, max]) => {
                rpass.set_viewport(*x, *y, *w, *h, *min, *max)
            }
            Call::Scissor([x, y, w, h]) => rpass.set_scissor_rect(*x, *y, *w, *h),
            Call::BlendConstant([r, g, b, a]) => rpass.set_blend_constant(wgpu::Color {
                r: *r,
                g: *g,
                b: *b,
                a: *a,
            }),
            Call::StencilReference(r) => rpass.set_stencil_reference(*r),
        }
    }
}

/// Why this frame's sequence differs from last frame's (`prev`).
pub(crate) fn difference(
    prev: (&[SeqEntry], &[Call]),
    now: (&[SeqEntry], &[Call]),
) -> DirectReason {
    let (p, n) = (prev.0, now.0);
    let common = p.iter().zip(n).take_while(|(a, b)| a == b).count();
    let same_draws = common == p.len().min(n.len());
    match (same_draws, p.len().cmp(&n.len())) {
        (true, std::cmp::Ordering::Less) => DirectReason::DrawsAdded,
        (true, std::cmp::Ordering::Greater) => DirectReason::DrawsRemoved,
        (true, std::cmp::Ordering::Equal) => DirectReason::PassStateChanged,
        (false, _) => DirectReason::DrawOrderChanged,
    }
}

/// Whether two frames' sequences are the same (entries, and the calls they name).
pub(crate) fn same(prev: (&[SeqEntry], &[Call]), now: (&[SeqEntry], &[Call])) -> bool {
    prev.0 == now.0 && prev.1 == now.1
}
