//! [`QueryError`]: errors of occlusion queries, caught before wgpu sees them; and their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of occlusion queries.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// A query index at or past the query set's count.
    #[error(
        "VGPU-QUERY-INDEX: occlusion queries {label:?}: index {index} is out of range; expected 0..{count}"
    )]
    Index {
        /// The query set's label.
        label: String,
        /// The index given.
        index: u32,
        /// How many queries the set has.
        count: u32,
    },
}

impl ErrorCode for QueryError {
    fn code(&self) -> &'static str {
        match self {
            QueryError::Index { .. } => "VGPU-QUERY-INDEX",
        }
    }
}

/// The codes of [`QueryError`].
pub(crate) const CODES: &[CodeInfo] = &[CodeInfo {
    code: "VGPU-QUERY-INDEX",
    variant: "QueryError::Index",
    meaning: "An occlusion query index is at or past the number of queries the pass was given.",
    fix: "Create the `OcclusionQueries` with enough queries, or use a smaller index.",
}];
