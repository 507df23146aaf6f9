//! What recording an operation remembers, so a steady-state record does no lookup; and the one
//! description of every memo layer the record path (`record/`) reads, with what moves each.
//!
//! | Layer | What it caches | What moves (invalidates) it |
//! |---|---|---|
//! | **Pipeline memo** ([`PipelineMemo`], per render operation) | the pipeline id for its two latest target signature ids | nothing: pipelines are never removed; a third signature replaces the older entry |
//! | **Group memo** ([`GroupMemo`], per bind group of an operation) | the bind group built for the group's contents, with the page (and static offset) each value resolved to; for a value alternating between two pages, the other page's group too | the bind-group cache's **invalidation epoch** (a resource destroyed, the cache cleared); a binding given new content (`Operation::bindings_changed`, which moves **`bindings_rev`** too, calls [`GroupMemo::forget`]); a value resolving to a page (or static offset) the memo was not built on (rebuilt) |
//! | **Fast record** ([`FastRecord`] and its groups' `stamp`, `stamp_slot`, `offset`) | for a draw without geometry whose groups (at most [`FAST_GROUPS`]) each bind one value at their only dynamic offset: the pipeline id for one signature id, per group the offset the value resolved to at the owner's **stamp** | another signature id; a binding given new content ([`FastRecord::invalidate`]); a group memo no longer current; per group, the owner's stamp (resolved again, `record/fast.rs`). Made valid again by the draw's next full record in a pass |
//! | **[`checked_at`](FastRecord::checked_at)** | the **stamp clock** when the fast record last found every group's stamp current | the stamp clock: any stamp, and every destroy (`State::destroy_bound_resource`) |
//! | **[`value_checked_at`](FastRecord::value_checked_at)** | the **value clock** when the groups without a shared block last held | the value clock: any unshared owner's stamp, and every destroy |
//! | **Bound groups** (`record/bound.rs`'s `PassBindings`, per pass or bundle) | what the pass has bound: per group index the bind group's id and dynamic offsets, and whether it binds a shared block's current slot as of a stamp clock reading (`block_bound_at`); the pipeline, vertex and index buffers | a set of something else at that index; [`reset`](super::PassBindings::reset) (after executing bundles); the pass's end; `block_bound_at` holds while the stamp clock does |
//! | **Resolved values** (`record/bound.rs`'s `ResolvedValue`, per pass and fast group index) | the slot a fast group's owner last resolved to in this pass (a catch-up), at its stamp, for one bind group, with the stamp clock right after (`resolved_at`) | the owner's stamp; `resolved_at` holds while the stamp clock does |
//!
//! Below these, in the crates vgpu builds on: the **bind-group cache** (`vgpu_bind::BindingStore`:
//! groups by layout and entries, valid while its invalidation epoch holds; a capacity eviction
//! invalidates no memo, the memo holds its own `wgpu::BindGroup`) and the capture engine's
//! **stamps** (`vgpu_uniforms::UniformEngine::stamps`: an owner's stamp moves whenever the slot
//! of an earlier resolve could move; read only after `UniformEngine::memos_in_use`). Each
//! counter named here (stamp, stamp clock, value clock, invalidation epoch, `bindings_rev`,
//! `checked_at`, `value_checked_at`, `resolved_at`, `block_bound_at`) is defined once, in the
//! capture vocabulary of the crate docs (`lib.rs`).
//!
//! The clocks move with the invalidation epoch too: every destroy goes through
//! `State::destroy_bound_resource` (or calls `UniformEngine::invalidate_memos` after it), so
//! while `checked_at` equals the stamp clock, every group memo of the record is current as well.
//! A memo whose group changes (rebuilt, or swapped with the other page's) forgets its offset
//! (`stamp` 0), so the fast record resolves it again.
//!
//! None of this crate's counters is derivable from another without a cost where it is read:
//! `bindings_rev` outlives the group memos it invalidates (they are rebuilt at the next record,
//! a bundle's check is not); `checked_at` and `value_checked_at` read two clocks that move
//! apart; `resolved_at` stands for a read of the owner's stamp, which the per-pass camera's draws
//! would otherwise load from the stamps table; `block_bound_at` is also taken when a group binds
//! its memo without a resolve, so it is no copy of `resolved_at`; and a group memo's invalidation
//! epoch cannot be the stamp clock, which every set moves.

use vgpu_bind::BindGroupId;
use vgpu_uniforms::BufferKey;

use super::command_sink::MAX_GROUPS;

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

/// A single-value group's bind group on another page (a value alternating between two pages: a
/// camera set per pass whose second value sits in another page).
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
    /// A group the caller claimed (`claim.rs`): recording sets the caller's bind group, never
    /// this memo's.
    Claimed(Box<super::claimed_group::ClaimedGroup>),
}

impl GroupMemo {
    /// The caller's group, when this group is claimed (`claim.rs`; the full path's first
    /// question per group).
    #[inline(always)]
    pub(crate) fn claimed(&self) -> Option<&super::claimed_group::ClaimedGroup> {
        match self.extra.as_deref() {
            Some(MemoExtra::Claimed(c)) => Some(c),
            _ => None,
        }
    }

    /// [`claimed`](Self::claimed), mutably.
    pub(crate) fn claimed_mut(&mut self) -> Option<&mut super::claimed_group::ClaimedGroup> {
        match self.extra.as_deref_mut() {
            Some(MemoExtra::Claimed(c)) => Some(c),
            _ => None,
        }
    }

    /// Claims the group (`claim.rs`): forgets what the memo held.
    pub(crate) fn set_claimed(&mut self, claimed: super::claimed_group::ClaimedGroup) {
        *self = GroupMemo {
            extra: Some(Box::new(MemoExtra::Claimed(Box::new(claimed)))),
            ..GroupMemo::default()
        };
    }
}

/// The invalidation epoch of a memo whose operation's bindings changed since it was built (the
/// bind-group cache's invalidation epoch only grows and never reaches it).
const FORGOTTEN: u64 = u64::MAX;

/// The group memo of one group of one operation (see the module doc's table), which the fast
/// record reads in place, and what the group's contents say about its dynamic offsets.
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
    invalidation_epoch: u64,
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
    /// Whether the memo was built under `invalidation_epoch` (the bind-group cache's current
    /// one), with the operation's current bindings.
    #[inline]
    pub(crate) fn current(&self, invalidation_epoch: u64) -> bool {
        self.group.is_some() && self.invalidation_epoch == invalidation_epoch
    }

    /// The operation's bindings changed: the memo no longer holds (its group stays until
    /// replaced, so the next build does not keep it as the other page's group).
    #[inline]
    pub(crate) fn forget(&mut self) {
        self.invalidation_epoch = FORGOTTEN;
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
        invalidation_epoch: u64,
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
        self.invalidation_epoch = invalidation_epoch;
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
/// state's pipeline table plus one (`pipeline::RenderPipelines::by_id`). 16 bytes: the table holds
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

    /// The latest pipeline's id (the one [`get`](Self::get) or [`insert`](Self::insert) last
    /// made the most recent).
    pub(crate) fn latest(&self) -> Option<u64> {
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

/// The operation-wide part of the fast record (see the module doc's table), first in its
/// operation record; the groups' parts are their [`GroupMemo`]s. Valid while its groups' memos
/// are current and the pass's target signature id equals `signature_id` (0 while invalid).
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct FastRecord {
    /// The stamp clock (`UniformEngine::stamp_clock`) when every group's memoized stamp was last
    /// found current with the record valid (0: not since the record or a memo last changed).
    /// While the stamp clock still reads this, a draw binds the memoized offsets without reading
    /// a stamp.
    pub(crate) checked_at: u64,
    /// The value clock (`UniformEngine::value_clock`) when the groups without a shared block
    /// ([`shared_groups`](Self::shared_groups)) were last found current (0: not since). While the
    /// value clock still reads this, only shared blocks moved (a per-pass camera): those groups
    /// bind their memos, and a shared block's group is bound already when the pass bound it at
    /// the current stamp clock (`record/bound.rs`'s `bind_fast_group`).
    pub(crate) value_checked_at: u64,
    /// The pipeline's id (the state's pipeline table holds the pipeline: see
    /// `pipeline::RenderPipelines::by_id`).
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
    /// Bit `i`: fast group `i` holds a shared block (a `SharedUniforms`), whose moves the value
    /// clock, so [`value_checked_at`](Self::value_checked_at), does not follow. Kept in the
    /// record's padding.
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

/// An operation's group memos, in group order: the first [`FAST_GROUPS`] inline (all a fast
/// record reads, at fixed places), the others up to [`MAX_GROUPS`] in a box that only
/// operations with more groups have. Its length is `FastRecord::groups_len`.
#[derive(Debug, Default)]
#[repr(C)]
pub(crate) struct Groups {
    pub(crate) head: [GroupMemo; FAST_GROUPS],
    tail: Option<Box<[GroupMemo; MAX_GROUPS - FAST_GROUPS]>>,
}

impl Groups {
    /// Group `gi`'s memo, if the operation has that group (`len` of them).
    pub(crate) fn memo(&self, len: u8, gi: usize) -> Option<&GroupMemo> {
        if gi >= usize::from(len).min(MAX_GROUPS) {
            return None;
        }
        match gi.checked_sub(FAST_GROUPS) {
            None => self.head.get(gi),
            Some(t) => self.tail.as_deref().and_then(|tail| tail.get(t)),
        }
    }

    /// `len` empty group memos.
    pub(crate) fn new(len: usize) -> Self {
        Groups {
            head: Default::default(),
            tail: (len > FAST_GROUPS).then(Box::default),
        }
    }

    /// The first `len` group memos (`len` is the operation's group count, at most
    /// [`MAX_GROUPS`]), in order.
    pub(crate) fn iter_mut(&mut self, len: u8) -> impl Iterator<Item = &mut GroupMemo> {
        let len = usize::from(len).min(MAX_GROUPS);
        let head = len.min(FAST_GROUPS);
        let tail = match self.tail.as_deref_mut() {
            Some(t) => &mut t[..len - head],
            None => &mut [],
        };
        self.head[..head].iter_mut().chain(tail.iter_mut())
    }
}
