//! Bindings that follow a target: the state remembers, per target identity
//! ([`TargetRecord::id`]), which binding of which operation holds one of the target's views, and
//! which one ([`TargetPart`]). When the target's textures change (`Target::resize`), each such
//! binding is re-pointed at the new view through the normal assignment path
//! ([`State::repoint_followers`]): its bindings revision moves, so its bind group is rebuilt at
//! the next record and a bundle that recorded it reports stale, naming the change.
//!
//! Registration happens where a target's view is assigned (`assign/textures.rs` calls
//! [`State::follow_target`]); it is idempotent per (operation, binding). Entries are checked
//! lazily: a binding that was given something else since, or an operation that is gone, is
//! skipped (and forgotten) at the next re-point, and a sweep drops them once the registry has
//! doubled. Nothing here runs while recording: a target never resized costs nothing per draw.

use std::sync::{Arc, Weak};

use ahash::AHashMap;

use super::State;
use super::binding_input::{BindingInput, ViewInput, ViewOwner};
use super::operation::{BindingContent, OpKey};
use super::resources::{HeldResource, TargetRecord};
use crate::error::Result;

/// Which view of a target a binding holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TargetPart {
    /// Color attachment `n`'s single-sample texture.
    Color(usize),
    /// The depth aspect (what `texture_depth_2d` bindings take).
    Depth,
}

/// Part `part` of `target` as it is now: its current view (a clone: the target may be
/// resized), its format and sample count, what it is; `Err` (what the binding was given, for
/// the kind error) when the target has no such part. What a `BindingInput::Target` (from
/// `BindingArg::TargetColor*`/`TargetDepth`, or a re-pointing) is assigned as.
pub(crate) fn target_part_view(
    target: &TargetRecord,
    part: TargetPart,
) -> std::result::Result<TargetPartView, &'static str> {
    let textures = target.textures.read();
    match part {
        TargetPart::Depth => match (&textures.depth_sampled, &textures.depth) {
            (Some(view), Some((tex, _))) => Ok(TargetPartView {
                view: view.clone(),
                format: tex
                    .format()
                    .aspect_specific_format(wgpu::TextureAspect::DepthOnly),
                samples: tex.sample_count(),
                what: "a target's depth texture",
            }),
            _ => Err("a target without depth"),
        },
        TargetPart::Color(index) => match textures.colors.get(index).map(|c| &c.resolved) {
            Some(Some((tex, view))) => Ok(TargetPartView {
                view: view.clone(),
                format: Some(tex.format()),
                samples: 1,
                what: "a target's color texture",
            }),
            _ if textures.colors.is_empty() => Err("a depth-only target's color (it has none)"),
            Some(None) => Err("a multisampled app view's color (it has no single-sample texture)"),
            None => Err("a color attachment index past the target's last"),
        },
    }
}

/// A target's part as [`target_part_view`] read it.
pub(crate) struct TargetPartView {
    pub(crate) view: wgpu::TextureView,
    pub(crate) format: Option<wgpu::TextureFormat>,
    pub(crate) samples: u32,
    pub(crate) what: &'static str,
}

impl TargetPartView {
    /// The view input of `target`'s part, borrowing this view.
    pub(crate) fn input<'a>(
        &'a self,
        target: &'a Arc<TargetRecord>,
        part: TargetPart,
    ) -> ViewInput<'a> {
        ViewInput {
            view: &self.view,
            format: self.format,
            samples: self.samples,
            owner: ViewOwner::Target(target, part),
            what: self.what,
        }
    }
}

/// One binding that holds a view of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Follower {
    op: OpKey,
    index: usize,
    part: TargetPart,
}

/// The bindings that hold views of one target.
#[derive(Debug)]
struct Followed {
    target: Weak<TargetRecord>,
    followers: Vec<Follower>,
}

/// The followers registry, one per `Gpu` state (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct Followers {
    targets: AHashMap<u64, Followed>,
    /// A sweep runs when `targets` reaches this length.
    sweep_at: usize,
    /// Per operation re-pointed by a change of a target: its `bindings_rev` right after, and
    /// what changed (for `VGPU-BUNDLE-STALE`).
    repointed: AHashMap<OpKey, (u64, String)>,
}

impl Followers {
    /// Binding `index` of `op` holds part `part` of `target` (replacing what it held before).
    fn add(&mut self, target: &Arc<TargetRecord>, op: OpKey, index: usize, part: TargetPart) {
        let followed = self.targets.entry(target.id).or_insert_with(|| Followed {
            target: Arc::downgrade(target),
            followers: Vec::new(),
        });
        let follower = Follower { op, index, part };
        match followed
            .followers
            .iter_mut()
            .find(|f| f.op == op && f.index == index)
        {
            Some(f) => *f = follower,
            None => followed.followers.push(follower),
        }
    }
}

impl State {
    /// Binding `index` of operation `key` now holds part `part` of `target`: remembered, so
    /// that the binding follows the target's resize. Called where a target's view is assigned;
    /// idempotent.
    pub(crate) fn follow_target(
        &mut self,
        key: OpKey,
        index: usize,
        target: &Arc<TargetRecord>,
        part: TargetPart,
    ) {
        if self.followers.targets.len() >= self.followers.sweep_at {
            self.sweep_followers();
        }
        self.followers.add(target, key, index, part);
    }

    /// Re-points every binding that still holds a view of `from` at the same part of `to`, as
    /// it is now, through the normal assignment (`set_by_index`): each binding's revision
    /// moves (its bind group is rebuilt at the next record) and a bundle that recorded its
    /// operation reports stale with `reason` (e.g. "follows target \"a\", which was resized to
    /// 8×8"). `from` and `to` are the same record for a resize; the followers move to `to`
    /// otherwise. The first refusal is returned after every other binding was re-pointed.
    pub(crate) fn repoint_followers(
        &mut self,
        from: &Arc<TargetRecord>,
        to: &Arc<TargetRecord>,
        reason: &str,
    ) -> Result<()> {
        let Some(followed) = self.followers.targets.get_mut(&from.id) else {
            return Ok(());
        };
        let followers = std::mem::take(&mut followed.followers);
        let mut first_error = Ok(());
        for f in followers {
            if !self.still_follows(f, from.id) {
                continue;
            }
            // Kept even if the assignment below is refused (the binding still holds `from`);
            // once it holds `to` (another target), the entry is skipped and swept.
            self.followers.add(from, f.op, f.index, f.part);
            let input = BindingInput::Target(to, f.part);
            if let Err(e) = self.set_by_index(f.op, f.index, input) {
                if first_error.is_ok() {
                    first_error = Err(e);
                }
                continue;
            }
            if let Some(op) = self.ops.get(f.op) {
                let name = &op.program.bindings[f.index].name;
                let why = format!("(binding `{name}`) {reason}");
                self.followers
                    .repointed
                    .insert(f.op, (op.bindings_rev, why));
            }
        }
        if self
            .followers
            .targets
            .get(&from.id)
            .is_some_and(|f| f.followers.is_empty())
        {
            self.followers.targets.remove(&from.id);
        }
        first_error
    }

    /// Operation `key`'s bindings were renumbered (`reload.rs`): binding `i` is now
    /// `renumbered[i]`, or gone (`None`: its follower is dropped).
    pub(crate) fn remap_followers(&mut self, key: OpKey, renumbered: &[Option<usize>]) {
        for followed in self.followers.targets.values_mut() {
            followed.followers.retain_mut(|f| {
                if f.op != key {
                    return true;
                }
                match renumbered.get(f.index).copied().flatten() {
                    Some(i) => {
                        f.index = i;
                        true
                    }
                    None => false,
                }
            });
        }
    }

    /// Why operation `key`, recorded into a bundle at `bindings_rev` `rev`, was re-pointed
    /// since by a change of a target it follows; `None` if it was not.
    pub(crate) fn repointed_since(&self, key: OpKey, rev: u64) -> Option<&str> {
        match self.followers.repointed.get(&key) {
            Some((after, reason)) if *after > rev => Some(reason),
            _ => None,
        }
    }

    /// Whether binding `f.index` of `f.op` still holds a view of target `id`.
    fn still_follows(&self, f: Follower, id: u64) -> bool {
        let Some(op) = self.ops.get(f.op) else {
            return false;
        };
        matches!(
            op.contents.get(f.index),
            Some(BindingContent::Resource {
                held: HeldResource::Target(t),
                ..
            }) if t.id == id
        )
    }

    /// Forgets dead targets, followers that follow no more, and re-points of operations that
    /// are gone; the next sweep runs once the registry has doubled.
    #[cold]
    fn sweep_followers(&mut self) {
        let mut targets = std::mem::take(&mut self.followers.targets);
        targets.retain(|&id, followed| {
            followed.followers.retain(|&f| self.still_follows(f, id));
            followed.target.strong_count() > 0 && !followed.followers.is_empty()
        });
        self.followers.targets = targets;
        let ops = &self.ops;
        self.followers
            .repointed
            .retain(|key, _| ops.contains_key(*key));
        self.followers.sweep_at = (self.followers.targets.len() * 2).max(16);
    }
}
