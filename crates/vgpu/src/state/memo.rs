//! What recording an operation remembers, so a steady-state record does no lookup.
//!
//! Three layers, each valid under a condition that is one integer compare:
//!
//! 1. **Cached group** ([`CachedGroup`], per bind group of an operation): the bind group last
//!    built (or found in the bind-group cache) for the group's contents. Valid while the cache's
//!    invalidation epoch (it moves when a resource is destroyed or the cache cleared, not on a
//!    capacity eviction: the memo holds its own `wgpu::BindGroup`), the operation's binding
//!    revision, and the pages its values resolved to are unchanged. A single value alternating
//!    between two pages (a camera set per pass whose second value sits in another page) keeps
//!    the other page's group in [`PageGroup`] and swaps.
//! 2. **Fast record** ([`FastRecord`], per operation, first in its record): for a draw without
//!    geometry buffers whose groups each hold one value with one dynamic offset, a copy of its
//!    pipeline for one target signature and of each group's cached group, plus the dynamic
//!    offset the value resolved to and the value's *stamp* at that time.
//! 3. **Stamps** (`vgpu_uniforms::UniformEngine::stamps`): a value's stamp moves whenever its
//!    slot could move (a set that cannot go to the home slot, pin, unpin, removal, a submission
//!    that bound it elsewhere, a cancel). While a value's stamp equals the memoized one, the
//!    memoized offset is where the value is: the draw binds it without resolving. A pass also
//!    shares what it resolved (`record.rs`'s `ResolvedValue`), so draws sharing a camera set
//!    before the pass take the new offset without each resolving it.
//!
//! Any change of an operation's bindings invalidates its fast record; the full record path
//! (`record.rs`) rebuilds it after recording.

use vgpu_bind::BindGroupId;
use vgpu_uniforms::{BufferKey, OwnerKey};

use crate::descriptors::TargetSignature;

/// Most value bindings per group whose pages are memoized (groups with more still work, through
/// the bind-group cache on every record).
pub(crate) const MEMO_VALUES: usize = 4;
/// Groups an operation may have for the fast record.
pub(crate) const FAST_GROUPS: usize = 2;

/// The memoized bind group of one group of one operation: valid while the buffers its values
/// resolved to (and, for bindings without a dynamic offset, their offsets), the operation's
/// binding revision and the cache's invalidation epoch are unchanged.
///
/// `repr(C)`, fields read on every record first.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct CachedGroup {
    pub(crate) epoch: u64,
    pub(crate) bindings_rev: u64,
    pub(crate) id: BindGroupId,
    pub(crate) group: wgpu::BindGroup,
    /// The page each value resolved to, in value order.
    pub(crate) pages: [Option<BufferKey>; MEMO_VALUES],
    /// The offsets of values bound without a dynamic offset.
    pub(crate) static_offsets: [u32; MEMO_VALUES],
}

/// A single-value group's bind group on another page (see the module doc).
#[derive(Debug)]
pub(crate) struct PageGroup {
    pub(crate) page: Option<BufferKey>,
    pub(crate) id: BindGroupId,
    pub(crate) group: wgpu::BindGroup,
}

/// The render pipelines of an operation for its two most recent target signatures (a draw
/// rendered into a shadow map and the screen alternates between two), most recent first.
#[derive(Debug, Default)]
pub(crate) struct PipelineMemo {
    entries: [Option<(TargetSignature, u64, wgpu::RenderPipeline)>; 2],
}

impl PipelineMemo {
    /// The pipeline for `sig`, made the most recent; `None` if neither entry has it.
    #[inline]
    pub(crate) fn get(&mut self, sig: TargetSignature) -> Option<(u64, &wgpu::RenderPipeline)> {
        if !matches!(&self.entries[0], Some((s, _, _)) if *s == sig) {
            if !matches!(&self.entries[1], Some((s, _, _)) if *s == sig) {
                return None;
            }
            self.entries.swap(0, 1);
        }
        self.entries[0].as_ref().map(|(_, id, p)| (*id, p))
    }

    /// The most recent pipeline, with its id.
    pub(crate) fn current(&self) -> Option<(u64, &wgpu::RenderPipeline)> {
        self.entries[0].as_ref().map(|(_, id, p)| (*id, p))
    }

    /// Remembers `pipeline` for `sig` as the most recent, forgetting the older entry.
    pub(crate) fn insert(&mut self, sig: TargetSignature, id: u64, pipeline: wgpu::RenderPipeline) {
        self.entries[1] = self.entries[0].take();
        self.entries[0] = Some((sig, id, pipeline));
    }
}

/// One single-value group as the fast record sees it: the bind group last used (built on page
/// `page`) and the dynamic offset the value's owner resolved to, valid while the owner's stamp
/// at `stamp_slot` equals `stamp`; the owner; and the other page's group, for a value that
/// alternates between two pages. The two are swapped when the owner resolves to the other page.
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct FastGroup {
    pub(crate) stamp: u64,
    pub(crate) stamp_slot: u32,
    pub(crate) offset: u32,
    pub(crate) group_id: u64,
    pub(crate) group: Option<wgpu::BindGroup>,
    pub(crate) owner: OwnerKey,
    pub(crate) page: Option<BufferKey>,
    pub(crate) other_page: Option<BufferKey>,
    pub(crate) other_group_id: u64,
    pub(crate) other_group: Option<wgpu::BindGroup>,
}

impl FastGroup {
    /// The group on its current page (`other == false`) or its other page, with its id.
    #[inline(always)]
    pub(crate) fn chosen(&self, other: bool) -> Option<(&wgpu::BindGroup, u64)> {
        if other {
            self.other_group.as_ref().map(|g| (g, self.other_group_id))
        } else {
            self.group.as_ref().map(|g| (g, self.group_id))
        }
    }

    /// Makes the other page's group the current one.
    #[inline]
    pub(crate) fn swap_pages(&mut self) {
        std::mem::swap(&mut self.page, &mut self.other_page);
        std::mem::swap(&mut self.group_id, &mut self.other_group_id);
        std::mem::swap(&mut self.group, &mut self.other_group);
    }
}

/// Everything a steady-state record of a simple draw reads, in one block at the start of its
/// operation record: a copy of the pipeline memo and of each single-value group's memo.
/// Valid while `valid_epoch` equals the bind-group cache's invalidation epoch and the pass's
/// target signature id equals `signature_id`; any change of the operation's bindings invalidates
/// it. Each group's offset holds while its owner's stamp does.
#[derive(Debug)]
#[repr(C)]
pub(crate) struct FastRecord {
    /// Invalidation epoch the copies were made at (`u64::MAX`: invalid, or not eligible).
    pub(crate) valid_epoch: u64,
    /// Interned target signature of `pipeline` (0: none).
    pub(crate) signature_id: u32,
    /// Number of groups.
    pub(crate) groups_len: u8,
    /// A render operation without vertex or index buffers whose groups (at most
    /// [`FAST_GROUPS`]) each hold exactly one value taking its only dynamic offset.
    pub(crate) eligible: bool,
    /// Bindings never set (recording fails while non-zero).
    pub(crate) unset: u32,
    pub(crate) vertex_count: u32,
    pub(crate) instance_count: u32,
    pub(crate) pipeline_id: u64,
    pub(crate) pipeline: Option<wgpu::RenderPipeline>,
    pub(crate) groups: [FastGroup; FAST_GROUPS],
}

impl Default for FastRecord {
    fn default() -> Self {
        FastRecord {
            valid_epoch: u64::MAX,
            unset: 0,
            eligible: false,
            groups_len: 0,
            signature_id: 0,
            pipeline_id: 0,
            pipeline: None,
            vertex_count: 0,
            instance_count: 0,
            groups: Default::default(),
        }
    }
}

impl FastRecord {
    /// Makes the next record take the full path.
    #[inline]
    pub(crate) fn invalidate(&mut self) {
        self.valid_epoch = u64::MAX;
    }
}
