//! [`OcclusionQueries`]: a set of occlusion queries a render pass counts samples into, resolved
//! after the pass and read back without blocking the next frame.

use std::sync::Arc;

/// A set of occlusion queries: give it to a pass with [`PassDesc::occlusion`](crate::PassDesc),
/// wrap draws in queries, read the samples that passed a frame or two later.
#[derive(Clone, Debug)]
pub struct OcclusionQueries {
    pub(crate) inner: Arc<OcclusionRecord>,
}

/// The shared part of an [`OcclusionQueries`].
#[derive(Debug)]
pub(crate) struct OcclusionRecord {
    pub(crate) label: String,
    pub(crate) set: wgpu::QuerySet,
    pub(crate) count: u32,
}

impl OcclusionQueries {
    /// The wgpu query set a pass counts into.
    pub(crate) fn query_set(&self) -> &wgpu::QuerySet {
        &self.inner.set
    }
    /// How many queries the set has.
    pub fn count(&self) -> u32 {
        self.inner.count
    }
    /// The label.
    pub fn label(&self) -> &str {
        &self.inner.label
    }
}
