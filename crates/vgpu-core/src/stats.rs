//! Counters behind every performance claim (docs/design.md §5).
//!
//! [`Stats`] is a set of relaxed atomic counters owned by one device context. Every buffer, bind
//! group, pipeline, texture and sampler creation and every `write_buffer` of the framework goes
//! through [`GpuContext`](crate::GpuContext), which bumps these counters, so no code path can
//! bypass the counts. The caches and the capture engine add their own counters (hits, misses, slots).
//!
//! Read them with [`Stats::snapshot`]; subtract two snapshots to get the work between them.

use core::ops::Sub;
use core::sync::atomic::{AtomicU64, Ordering};

macro_rules! counters {
    ($( $(#[$doc:meta])* $name:ident ),* $(,)?) => {
        /// Live counters of one device context. All increments are relaxed atomics.
        #[derive(Debug, Default)]
        pub struct Stats {
            $( $(#[$doc])* pub $name: Counter, )*
        }

        /// A plain copy of [`Stats`] at one instant. Subtract two snapshots to get a delta.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct StatsSnapshot {
            $( $(#[$doc])* pub $name: u64, )*
        }

        impl Stats {
            /// Copies every counter.
            pub fn snapshot(&self) -> StatsSnapshot {
                StatsSnapshot { $( $name: self.$name.get(), )* }
            }
        }

        impl Sub for StatsSnapshot {
            type Output = StatsSnapshot;
            /// Counter-wise difference (saturating, so gauges that went down read 0).
            fn sub(self, rhs: StatsSnapshot) -> StatsSnapshot {
                StatsSnapshot { $( $name: self.$name.saturating_sub(rhs.$name), )* }
            }
        }

        impl StatsSnapshot {
            /// `(name, value)` pairs of every counter, in declaration order.
            pub fn fields(&self) -> [(&'static str, u64); counters!(@count $($name)*)] {
                [ $( (stringify!($name), self.$name), )* ]
            }
        }
    };
    (@count) => { 0 };
    (@count $head:ident $($tail:ident)*) => { 1 + counters!(@count $($tail)*) };
}

counters! {
    /// Draws and dispatches recorded.
    operations_recorded,
    /// `wgpu::BindGroup`s created.
    bind_groups_created,
    /// `wgpu::BindGroupLayout`s created.
    bind_group_layouts_created,
    /// `wgpu::Buffer`s created.
    buffers_created,
    /// Bytes of all buffers created.
    buffer_bytes_created,
    /// `wgpu::Texture`s created.
    textures_created,
    /// `wgpu::Sampler`s created.
    samplers_created,
    /// Shader modules created.
    shader_modules_created,
    /// Render and compute pipelines created.
    pipelines_created,
    /// Lookups in the shared render pipeline cache: a draw recorded for a target signature that
    /// its own memo (its two most recent signatures) did not hold.
    pipeline_cache_lookups,
    /// `Queue::write_buffer` and `Queue::write_texture` calls.
    write_calls,
    /// Bytes passed to `Queue::write_buffer` and `Queue::write_texture`.
    bytes_uploaded,
    /// Command buffers submitted.
    submissions,
    /// Values copied into a capture slot other than the owner's home slot.
    slots_captured,
    /// Capture pages allocated.
    pages_created,
    /// Bind-group cache hits.
    cache_hits,
    /// Bind-group cache misses.
    cache_misses,
    /// Bind-group cache entries evicted.
    cache_evictions,
    /// Cache entries visited while evicting: each evicted entry, plus the hash-collision chain
    /// entries stepped through to unlink it (proves eviction is targeted, not a scan).
    cache_eviction_visits,
    /// `set_bind_group` calls issued to wgpu.
    set_bind_group_calls,
    /// `set_bind_group` calls skipped because the same group was already bound.
    set_bind_group_skipped,
    /// `set_pipeline` calls issued to wgpu.
    set_pipeline_calls,
    /// Write plans compiled (one per distinct type).
    plans_compiled,
    /// Value sets whose bytes equalled what the value already held (compared, nothing
    /// changed). Counted by the capture engine and added to the stats when a frame ends.
    values_set_unchanged,
    /// Draws replayed from render bundles (`Pass::execute`); also counted in
    /// `operations_recorded`.
    bundle_draws_replayed,
    /// Draws replayed from auto-bundles (a steady pass replayed from the render bundle vgpu
    /// recorded for it); also counted in `operations_recorded`.
    auto_bundle_draws,
    /// Render bundles vgpu recorded for steady passes (auto-bundles), counted per pass.
    auto_bundles_recorded,
    /// Render passes recorded directly (not replayed from an auto-bundle);
    /// `FrameReport::direct_passes` says why.
    passes_recorded_directly,
    /// wgpu errors reported outside an error scope (routed to the `Gpu`, never a panic).
    uncaptured_errors,
    /// Render passes recorded into a command encoder of their own: large passes, finished in
    /// parallel when a frame has two or more (vgpu's `GpuOptions::parallel_finish`).
    pass_encoders,
    /// Command encoders finished on a worker thread while the frame's thread finished the
    /// others (a frame's large passes but its last).
    encoders_finished_in_parallel,
}

/// One relaxed atomic counter.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    /// Adds one.
    #[inline]
    pub fn bump(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
    /// Adds `n`.
    #[inline]
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
    /// Current value.
    #[inline]
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_difference_counts_work_between_snapshots() {
        let s = Stats::default();
        s.write_calls.bump();
        let a = s.snapshot();
        s.write_calls.add(2);
        s.bytes_uploaded.add(256);
        let d = s.snapshot() - a;
        assert_eq!(d.write_calls, 2);
        assert_eq!(d.bytes_uploaded, 256);
        assert_eq!(d.bind_groups_created, 0);
        assert!(
            d.fields()
                .iter()
                .any(|&(n, v)| n == "bytes_uploaded" && v == 256)
        );
    }
}
