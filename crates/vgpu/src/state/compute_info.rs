//! Override values as pipelines are keyed by them ([`ConstantSet`]: a render state's and a
//! compute's), what a compute operation holds of its own ([`ComputeInfo`]: its values and its
//! pipeline once made), and the key of the compute pipeline cache.

use std::sync::Arc;

/// The values an operation gives its shader's `override`s, as checked by
/// `vgpu_core::Shader::pipeline_constants`: wgpu's keys in declaration order, each value's
/// bits (so that the set hashes). Empty (the default) when none is given; cheap to clone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ConstantSet(Option<Arc<[Constant]>>);

/// One constant of a [`ConstantSet`]: wgpu's key and the value's bits.
type Constant = (Box<str>, u64);

impl ConstantSet {
    /// The set of `pairs` (already checked and normalized, see the type's docs).
    pub(crate) fn new(pairs: Vec<(String, f64)>) -> Self {
        if pairs.is_empty() {
            return ConstantSet(None);
        }
        ConstantSet(Some(
            pairs
                .into_iter()
                .map(|(k, v)| (k.into_boxed_str(), v.to_bits()))
                .collect(),
        ))
    }

    /// The set as `PipelineCompilationOptions::constants` takes it.
    pub(crate) fn for_wgpu(&self) -> Vec<(&str, f64)> {
        self.0.as_deref().map_or_else(Vec::new, |pairs| {
            pairs
                .iter()
                .map(|(k, v)| (&**k, f64::from_bits(*v)))
                .collect()
        })
    }
}

/// A compute operation's own parts: its constant set and its pipeline once made
/// (`(id, pipeline)`).
#[derive(Debug, Default)]
pub(crate) struct ComputeInfo {
    pub(crate) pipeline: Option<(u64, wgpu::ComputePipeline)>,
    pub(crate) constants: ConstantSet,
}

impl ComputeInfo {
    /// A compute with `constants` and no pipeline made yet.
    pub(crate) fn with_constants(constants: ConstantSet) -> Self {
        ComputeInfo {
            pipeline: None,
            constants,
        }
    }
}

/// Key of the compute pipeline cache: the program's id and the constant set.
pub(crate) type ComputePipelineKey = (u64, ConstantSet);
