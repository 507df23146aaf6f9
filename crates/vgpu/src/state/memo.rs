//! What recording an operation remembers, so a steady-state record does no lookup.
//!
//! Layers, each valid under a condition that is one integer compare:
//!
//! 1. **Group memo** ([`GroupMemo`], per bind group of an operation): the bind group last
//!    built (or found in the bind-group cache) for the group's contents. Valid while the cache's
//!    invalidation epoch (it moves when a resource is destroyed or the cache cleared, not on a
//!    capacity eviction: the memo holds its own `wgpu::BindGroup`) and the pages its values
//!    resolved to are unchanged; a change of the operation's bindings forgets it (the bundles'
//!    check uses the operation's binding revision instead). A single value alternating
//!    between two pages (a camera set per pass whose second value sits in another page) keeps
//!    the other page's group in [`PageGroup`] and swaps.
//! 2. **Fast record** ([`FastRecord`], per operation, first in its record, and the fast fields
//!    of each group memo): for a draw without geometry buffers whose groups (at most two) each
//!    hold one value with one dynamic offset, its pipeline for one target signature, and per
//!    group the dynamic offset the value resolved to and the value's *stamp* at that time. The
//!    group memos sit inline right after it, so a steady-state record reads one block.
//! 3. **Stamps** (`vgpu_uniforms::UniformEngine::stamps`): a value's stamp moves whenever its
//!    slot could move (a set that cannot go to the home slot, pin, unpin, removal, a submission
//!    that bound it elsewhere, a cancel). While a value's stamp equals the memoized one, the
//!    memoized offset is where the value is: the draw binds it without resolving. A pass also
//!    shares what it resolved (`record.rs`'s `ResolvedValue`), so draws sharing a camera set
//!    before the pass take the new offset without each resolving it.
//! 4. **Check token** (`FastRecord::checked_at`): the engine's stamp clock
//!    (`UniformEngine::stamp_clock`, which moves with any stamp, and with the bind-group cache's
//!    invalidation epoch: `State::destroy_bound_resource` moves it at every destroy) when the
//!    record last found all its groups' stamps current. It only grows, so while the token is
//!    unchanged nothing any record depends on has moved: a static frame's draw binds its
//!    memoized offsets after one compare, without reading stamps.
//! 5. **Value token** (`FastRecord::value_checked_at`): the same with the engine's value clock
//!    (`UniformEngine::value_clock`), which shared blocks (`SharedUniforms`, marked shared in
//!    the engine) do not move, for the groups without a block. While it holds and only a block
//!    moved (a camera set before each pass), the draw binds those groups' memos and finds each
//!    block's group bound already: the pass's bound state notes the block and the stamp clock
//!    at which a draw bound its current slot (`record.rs`'s `BoundGroup`), so no draw writes the
//!    camera's new offset back into its record.
//!
//! Any change of an operation's bindings invalidates its fast record; the full record path
//! (`record.rs`) makes it valid again after recording. A memo whose group changes (rebuilt, or
//! swapped with the other page's) forgets its offset (stamp 0), so the fast record resolves it.

use vgpu_bind::BindGroupId;
use vgpu_uniforms::BufferKey;

/// Most value bindings per group whose pages are memoized (groups with more still work, through
/// the bind-group cache on every record).
pub(crate) const MEMO_VALUES: usize = 4;
/// Groups an operation may have for the fast record.
pub(crate) const FAST_GROUPS: usize = 2;

/// A bind group just built (or found in the bind-group cache) for one group of an operation,
/// with the page each value resolved to (in value order) and the offsets of values bound
/// without a dynamic offset.
#[derive(Debug)]
pub(crate) struct BuiltGroup {
    pub(crate) id: BindGroupId,
    pub(crate) group: wgpu::BindGroup,
    pub(crate) pages: ValuePages,
}

/// Where each value of a group resolved when its bind group was built.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ValuePages {
    pub(crate) pages: [Option<BufferKey>; MEMO_VALUES],
    pub(crate) static_offsets: [u32; MEMO_VALUES],
}

/// A single-value group's bind group on another page (see the module doc).
#[derive(Debug)]
pub(crate) struct PageGroup {
    pub(crate) page: Option<BufferKey>,
    pub(crate) id: BindGroupId,
    pub(crate) group: wgpu::BindGroup,
}

/// What a group memo keeps besides its current page, out of line: most groups (one value
/// that stays on its page) have neither.
#[derive(Debug)]
pub(crate) enum MemoExtra {
    /// A single value alternating between two pages: the other page's group.
    Other(PageGroup),
    /// Several values or a value without a dynamic offset: where each resolved.
    Values(ValuePages),
}

/// The epoch of a memo whose operation's bindings changed since it was built (the bind-group
/// cache's invalidation epoch only grows and never reaches it).
const FORGOTTEN: u64 = u64::MAX;

/// The memoized bind group of one group of one operation (layer 1 of the module doc), which
/// the fast record (layer 2) reads in place, and what the group's contents say about its
/// dynamic offsets: valid while `group` is set and the cache's invalidation epoch is the one
/// it was built under (a change of the operation's bindings forgets it: [`Self::forget`]) and
/// the pages its values resolve to are unchanged.
///
/// A group holding one value with one dynamic offset keeps its page in `page` and, for a value
/// alternating between two pages, the other page's group in `extra`; the fast record's offset
/// for it holds while the owner's stamp at `stamp_slot` equals `stamp`. Any other group keeps
/// every value's page and static offset in `extra`.
///
/// `repr(C)`: what a fast record reads comes first; 64 bytes.
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct GroupMemo {
    /// The owner's stamp `offset` was resolved at (0: resolve before use; stamps start at 1).
    pub(crate) stamp: u64,
    pub(crate) stamp_slot: u32,
    /// The dynamic offset the single value resolved to, at `stamp`.
    pub(crate) offset: u32,
    pub(crate) id: Option<BindGroupId>,
    pub(crate) group: Option<wgpu::BindGroup>,
    /// The bind-group cache's invalidation epoch the group was built under ([`FORGOTTEN`]:
    /// the operation's bindings changed since).
    epoch: u64,
    /// Boxed: only values alternating between pages and groups of several values have one.
    extra: Option<Box<MemoExtra>>,
    /// The page the group's first value resolved to.
    pub(crate) page: Option<BufferKey>,
    /// Number of dynamic offsets the group takes (from its contents, not its bind group).
    pub(crate) dynamic_offsets: u8,
    /// The binding index plus one of the group's only value when it takes the group's only
    /// dynamic offset (0: none, or past index 254: the group takes the general path; see
    /// `GroupMemo::single_value`). From the contents, kept in the memo's padding.
    pub(crate) single: u8,
    /// The fast record can bind the group: it holds one value taking its only dynamic offset
    /// (`GroupMemo::single_value`), or no value and one dynamic offset (user-owned resources,
    /// bound at offset 0).
    pub(crate) fast: bool,
}

impl GroupMemo {
    /// Whether the memo was built under this epoch, with the operation's current bindings.
    #[inline]
    pub(crate) fn current(&self, epoch: u64) -> bool {
        self.group.is_some() && self.epoch == epoch
    }

    /// The operation's bindings changed: the memo no longer holds (its group stays until
    /// replaced, so the next build does not keep it as the other page's group).
    #[inline]
    pub(crate) fn forget(&mut self) {
        self.epoch = FORGOTTEN;
    }

    /// The other page's group of a single value alternating between two pages.
    #[inline(always)]
    pub(crate) fn other(&self) -> Option<&PageGroup> {
        match self.extra.as_deref() {
            Some(MemoExtra::Other(o)) => Some(o),
            _ => None,
        }
    }

    /// Whether value `j`, resolved to `page` (at `static_offset` when it has no dynamic
    /// offset), is where the memo's group was built.
    #[inline]
    pub(crate) fn holds(&self, j: usize, page: BufferKey, static_offset: Option<u32>) -> bool {
        match self.extra.as_deref() {
            Some(MemoExtra::Values(v)) => {
                v.pages.get(j) == Some(&Some(page))
                    && static_offset.is_none_or(|o| v.static_offsets[j] == o)
            }
            _ => j == 0 && self.page == Some(page) && static_offset.is_none(),
        }
    }

    /// Stores a newly built group. With `keep_other`, the group it replaces becomes the other
    /// page's group (a single value alternating between two pages); else that is forgotten.
    /// The fast record's offset must be resolved again.
    pub(crate) fn install(
        &mut self,
        built: BuiltGroup,
        epoch: u64,
        single: bool,
        keep_other: bool,
    ) {
        let previous = self
            .group
            .take()
            .zip(self.id)
            .filter(|_| keep_other && single);
        let extra = match previous {
            Some((group, id)) => Some(MemoExtra::Other(PageGroup {
                page: self.page,
                id,
                group,
            })),
            None if single => None,
            None => Some(MemoExtra::Values(built.pages)),
        };
        // The box is reused when there was one and is still needed.
        self.extra = match (extra, self.extra.take()) {
            (Some(e), Some(mut b)) => {
                *b = e;
                Some(b)
            }
            (Some(e), None) => Some(Box::new(e)),
            (None, _) => None,
        };
        self.id = Some(built.id);
        self.group = Some(built.group);
        self.page = built.pages.pages[0];
        self.epoch = epoch;
        self.stamp = 0;
    }

    /// The group on its current page (`other == false`) or its other page, with its id.
    #[inline(always)]
    pub(crate) fn chosen(&self, other: bool) -> Option<(&wgpu::BindGroup, u64)> {
        if other {
            self.other().map(|o| (&o.group, o.id.get()))
        } else {
            self.group.as_ref().map(|g| (g, self.group_id()))
        }
    }

    /// The id of the current group (0: none).
    #[inline(always)]
    pub(crate) fn group_id(&self) -> u64 {
        self.id.map_or(0, BindGroupId::get)
    }

    /// The id of the other page's group (0: none).
    #[inline(always)]
    pub(crate) fn other_group_id(&self) -> u64 {
        self.other().map_or(0, |o| o.id.get())
    }

    /// Makes the other page's group the current one (`false`: there is none).
    #[inline]
    pub(crate) fn swap_pages(&mut self) -> bool {
        let (Some(MemoExtra::Other(other)), Some(group), Some(id)) = (
            self.extra.as_deref_mut(),
            self.group.as_mut(),
            self.id.as_mut(),
        ) else {
            return false;
        };
        std::mem::swap(&mut self.page, &mut other.page);
        std::mem::swap(group, &mut other.group);
        std::mem::swap(id, &mut other.id);
        true
    }
}

/// The render pipelines of an operation for its two most recent target signatures (a draw
/// rendered into a shadow map and the screen alternates between two), most recent first: per
/// interned signature id (`State::signature_id`, never 0) the pipeline's id, an index into the
/// state's pipeline table plus one (`pipeline::pipeline_by_id`). 16 bytes: the table holds
/// the pipelines, shared by every operation with the same program, state and targets.
#[derive(Debug, Default)]
pub(crate) struct PipelineMemo {
    /// `(signature id, pipeline id)`; signature id 0: empty.
    entries: [(u32, u32); 2],
}

impl PipelineMemo {
    /// The pipeline id for signature `sig`, made the most recent; `None` if neither entry has
    /// it.
    #[inline]
    pub(crate) fn get(&mut self, sig: u32) -> Option<u64> {
        if sig == 0 {
            return None;
        }
        if self.entries[0].0 != sig {
            if self.entries[1].0 != sig {
                return None;
            }
            self.entries.swap(0, 1);
        }
        Some(u64::from(self.entries[0].1))
    }

    /// The most recent pipeline's id.
    pub(crate) fn current(&self) -> Option<u64> {
        let (sig, id) = self.entries[0];
        (sig != 0).then_some(u64::from(id))
    }

    /// Remembers pipeline `id` for signature `sig` (not 0) as the most recent, forgetting the
    /// older entry.
    pub(crate) fn insert(&mut self, sig: u32, id: u32) {
        self.entries[1] = self.entries[0];
        self.entries[0] = (sig, id);
    }
}

/// The operation-wide part of the fast record (layer 2 of the module doc), first in its
/// operation record; the groups' parts are their [`GroupMemo`]s. Valid while its groups' memos
/// are current (built under the bind-group cache's invalidation epoch) and the pass's target
/// signature id equals `signature_id` (0 while invalid); any change of the operation's bindings
/// invalidates it.
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct FastRecord {
    /// The engine's stamp clock (`UniformEngine::stamp_clock`) when every group's memoized
    /// stamp was last found current with the record valid (0: not since the record or a memo
    /// last changed). The clock moves with any stamp and with the bind-group cache's
    /// invalidation epoch (`State::destroy_bound_resource` moves it at every destroy), and never
    /// goes back: while it is unchanged the record is still valid and every memoized offset
    /// still holds, and a draw binds them without checking stamps.
    pub(crate) checked_at: u64,
    /// Like [`checked_at`](Self::checked_at) with the engine's value clock
    /// (`UniformEngine::value_clock`, which shared blocks do not move and destroys do) for the
    /// groups without a shared block ([`shared_groups`](Self::shared_groups)): while it matches,
    /// only shared blocks moved (a per-pass camera), those groups' memos hold, and a shared
    /// block's group is bound already when the pass bound it at the current clock
    /// (`record_fast`).
    pub(crate) value_checked_at: u64,
    /// The pipeline's id (the state's pipeline table holds the pipeline: see
    /// `pipeline::pipeline_by_id`).
    pub(crate) pipeline_id: u64,
    /// Interned target signature of the pipeline (0: none, or the record is invalid or not
    /// eligible).
    pub(crate) signature_id: u32,
    /// Bindings never set (recording fails while non-zero).
    pub(crate) unset: u32,
    /// The draw's vertex (or index) and instance counts.
    pub(crate) vertex_count: u32,
    pub(crate) instance_count: u32,
    /// A render operation without vertex or index buffers whose groups (at most
    /// [`FAST_GROUPS`]) each hold exactly one value taking its only dynamic offset.
    pub(crate) eligible: bool,
    /// The operation's number of bind groups (fixed by its program).
    pub(crate) groups_len: u8,
    /// Bit `i`: fast group `i` holds a shared block (a `SharedUniforms`), whose moves the
    /// [`value_checked_at`](Self::value_checked_at) token does not follow. Kept in the record's
    /// padding.
    pub(crate) shared_groups: u8,
    /// Handles (`OpHandle`s: draws, computes, their bindings and clones) alive: the last one
    /// dropped removes the operation. Not part of the fast record: kept in its padding.
    pub(crate) handles: u32,
}

impl FastRecord {
    /// Makes the next record take the full path.
    #[inline]
    pub(crate) fn invalidate(&mut self) {
        self.signature_id = 0;
        self.checked_at = 0;
        self.value_checked_at = 0;
    }

    /// Whether fast group `gi` holds a shared block.
    #[inline(always)]
    pub(crate) fn shared_group(&self, gi: usize) -> bool {
        self.shared_groups & (1 << gi) != 0
    }
}
