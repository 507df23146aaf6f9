//! How many bindings use each user resource, and the resources no binding uses any more: they
//! stay registered (their bind groups cached, so rebinding them creates nothing) until
//! [`IDLE_RESOURCES`] other resources are idle, oldest first.

use std::collections::VecDeque;

use ahash::AHashMap;
use vgpu_bind::ResourceKey;

use super::State;

/// Most raw resources kept registered after their last binding was released.
pub(crate) const IDLE_RESOURCES: usize = 256;

/// Binding counts and the idle queue.
#[derive(Debug, Default)]
pub(crate) struct ResourceUses {
    /// Bindings using each resource (absent: none).
    counts: AHashMap<ResourceKey, u32>,
    /// Idle resources, each once, with the sequence number of the time it went idle.
    idle: AHashMap<ResourceKey, u64>,
    /// Idle resources oldest first, with that sequence number; an entry whose number is not the
    /// resource's current one is stale (the resource was used again since) and is skipped when
    /// popped; stale entries are compacted away when they outnumber the idle ones.
    order: VecDeque<(ResourceKey, u64)>,
    next_seq: u64,
}

impl State {
    /// One more binding uses `res` (it is no longer idle).
    pub(crate) fn acquire_resource(&mut self, res: ResourceKey) {
        let uses = &mut self.resource_uses;
        *uses.counts.entry(res).or_insert(0) += 1;
        uses.idle.remove(&res);
    }

    /// One binding fewer uses `res`; a resource no binding uses any more becomes idle, and the
    /// oldest idle resources past [`IDLE_RESOURCES`] are unregistered (their bind groups
    /// evicted).
    pub(crate) fn release_resource(&mut self, res: ResourceKey) {
        let uses = &mut self.resource_uses;
        let Some(n) = uses.counts.get_mut(&res) else {
            return;
        };
        *n -= 1;
        if *n > 0 {
            return;
        }
        uses.counts.remove(&res);
        uses.next_seq += 1;
        uses.idle.insert(res, uses.next_seq);
        uses.order.push_back((res, uses.next_seq));
        while uses.idle.len() > IDLE_RESOURCES {
            let Some((old, seq)) = uses.order.pop_front() else {
                break;
            };
            if uses.idle.get(&old) == Some(&seq) {
                uses.idle.remove(&old);
                self.bind.destroy(old);
                // As `destroy_bound_resource` does (`uses` borrows the state's table).
                self.engine.invalidate_memos();
            }
        }
        if uses.order.len() > 2 * IDLE_RESOURCES {
            let idle = &uses.idle;
            uses.order.retain(|(r, seq)| idle.get(r) == Some(seq));
        }
    }
}
