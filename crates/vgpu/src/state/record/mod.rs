//! Recording operations into a [`CommandSink`](super::command_sink::CommandSink) (a render pass,
//! a compute pass, a bundle's command list), path by path. What each path reads, and what moves
//! it, is the table of memo layers in `memo.rs`.
//!
//! - **The fast path** (`fast.rs`, `State::record_fast`): a draw into a pass from its fast record
//!   alone, in steps that each cost more than the one before and run only when it did not hold:
//!   1. its `checked_at` equals the stamp clock: each group binds its memo (one compare with what
//!      the pass has bound);
//!   2. its `value_checked_at` equals the value clock (only shared blocks moved, a per-pass
//!      camera): the other groups bind their memos, a shared block's group is found bound
//!      already;
//!   3. `record_checked`: the record is valid (the pass's signature id, group memos built under
//!      the current invalidation epoch); each group binds the slot memoized under its owner's
//!      stamp or the slot another draw of this pass resolved (`record_picked`), else the groups
//!      catch up out of line (`catch_up_and_set`, resolving owners whose stamps moved);
//!   4. else it returns `false` having drawn nothing, and the caller runs the full path.
//!
//!   Then a pipeline compare and the draw. No allocation, hashing or string.
//! - **The full path** (`full.rs`, `State::record_draw`; `State::record_groups` for a dispatch):
//!   the pipeline step (`pipeline.rs`: only when the operation's pipeline memo lacks the pass's
//!   signature), then per group a resolve per value, a compare with the group memo (building the
//!   group through the bind-group cache on a miss), a compare with what is bound; vertex and index
//!   buffers; the draw; and the fast record made valid again for the next draw.
//! - **What the pass has bound** (`bound.rs`, `PassBindings`): the compares both paths use to skip
//!   a set that would change nothing, and what the draws of one pass share (resolved slots, shared
//!   blocks bound).

mod bound;
mod fast;
mod full;

pub(crate) use bound::PassBindings;
