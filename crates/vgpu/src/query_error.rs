//! [`QueryError`]: errors of occlusion queries, caught before wgpu sees them; and their codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of occlusion queries ([`OcclusionQueries`](crate::OcclusionQueries)). Each is caught
/// before wgpu sees the call; a refused call changes nothing (the pass records on).
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
    /// A query set of 0 queries, or of more than WebGPU allows.
    #[error(
        "VGPU-QUERY-COUNT: occlusion queries {label:?}: a set of {count} queries; expected 1..={max}"
    )]
    Count {
        /// The query set's label.
        label: String,
        /// The count given.
        count: u32,
        /// The most a set may have.
        max: u32,
    },
    /// A query begun or ended in a pass that was given no occlusion queries.
    #[error(
        "VGPU-QUERY-NO-SET: occlusion query {index:?} in a pass given no occlusion queries; expected `PassDesc::occlusion(&queries)`"
    )]
    NoSet {
        /// The index given to `begin_occlusion_query` (`None`: `end_occlusion_query`).
        index: Option<u32>,
    },
    /// A query begun while another is open (WebGPU does not nest occlusion queries).
    #[error(
        "VGPU-QUERY-OPEN: occlusion queries {label:?}: query {index} begun while query {open} is open; expected `end_occlusion_query` first"
    )]
    AlreadyOpen {
        /// The query set's label.
        label: String,
        /// The index given.
        index: u32,
        /// The query still open.
        open: u32,
    },
    /// `end_occlusion_query` with no query open.
    #[error(
        "VGPU-QUERY-NOT-OPEN: occlusion queries {label:?}: end_occlusion_query with no query open; expected `begin_occlusion_query` first"
    )]
    NotOpen {
        /// The query set's label.
        label: String,
    },
    /// The pass's closure returned with a query still open (vgpu ended it).
    #[error(
        "VGPU-QUERY-UNCLOSED: occlusion queries {label:?}: the pass ended with query {index} open; expected `end_occlusion_query` before the pass ends"
    )]
    Unclosed {
        /// The query set's label.
        label: String,
        /// The query left open.
        index: u32,
    },
    /// A query index begun a second time in one pass.
    #[error(
        "VGPU-QUERY-TWICE: occlusion queries {label:?}: query {index} was already used in this pass; expected each index once per pass"
    )]
    UsedTwice {
        /// The query set's label.
        label: String,
        /// The index given.
        index: u32,
    },
    /// A second pass of one frame given the same query set.
    #[error(
        "VGPU-QUERY-REUSED: occlusion queries {label:?} were already used by a pass of this frame; expected one pass per set and frame"
    )]
    Reused {
        /// The query set's label.
        label: String,
    },
    /// Occlusion queries in a frame recorded into the app's encoder (`Gpu::frame_in`).
    #[error(
        "VGPU-QUERY-APP-ENCODER: occlusion queries {label:?} in a frame recorded into the app's encoder; expected `Gpu::frame` (their read-back follows vgpu's own submit)"
    )]
    AppEncoder {
        /// The query set's label.
        label: String,
    },
    /// `read_async` before any frame using the set was submitted.
    #[error(
        "VGPU-QUERY-NOT-SUBMITTED: occlusion queries {label:?}: read_async before any frame using them was submitted"
    )]
    NotSubmitted {
        /// The query set's label.
        label: String,
    },
}

impl ErrorCode for QueryError {
    fn code(&self) -> &'static str {
        match self {
            QueryError::Index { .. } => "VGPU-QUERY-INDEX",
            QueryError::Count { .. } => "VGPU-QUERY-COUNT",
            QueryError::NoSet { .. } => "VGPU-QUERY-NO-SET",
            QueryError::AlreadyOpen { .. } => "VGPU-QUERY-OPEN",
            QueryError::NotOpen { .. } => "VGPU-QUERY-NOT-OPEN",
            QueryError::Unclosed { .. } => "VGPU-QUERY-UNCLOSED",
            QueryError::UsedTwice { .. } => "VGPU-QUERY-TWICE",
            QueryError::Reused { .. } => "VGPU-QUERY-REUSED",
            QueryError::AppEncoder { .. } => "VGPU-QUERY-APP-ENCODER",
            QueryError::NotSubmitted { .. } => "VGPU-QUERY-NOT-SUBMITTED",
        }
    }
}

/// The codes of [`QueryError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-QUERY-INDEX",
        variant: "QueryError::Index",
        meaning: "An occlusion query index is at or past the number of queries the pass was given.",
        fix: "Create the `OcclusionQueries` with enough queries, or use a smaller index.",
    },
    CodeInfo {
        code: "VGPU-QUERY-COUNT",
        variant: "QueryError::Count",
        meaning: "`Gpu::occlusion_queries` was asked for 0 queries or more than WebGPU allows in one set (4096).",
        fix: "Ask for 1 to `OcclusionQueries::MAX_COUNT` queries; use several sets for more.",
    },
    CodeInfo {
        code: "VGPU-QUERY-NO-SET",
        variant: "QueryError::NoSet",
        meaning: "An occlusion query was begun or ended in a pass that was given no occlusion queries.",
        fix: "Give the pass a set: `f.pass(PassDesc::new(&target).occlusion(&queries), ..)`.",
    },
    CodeInfo {
        code: "VGPU-QUERY-OPEN",
        variant: "QueryError::AlreadyOpen",
        meaning: "An occlusion query was begun while another one was open; queries do not nest.",
        fix: "End the open query first (`end_occlusion_query`), or wrap draws with `Pass::occlusion_query`.",
    },
    CodeInfo {
        code: "VGPU-QUERY-NOT-OPEN",
        variant: "QueryError::NotOpen",
        meaning: "`end_occlusion_query` was called with no occlusion query open.",
        fix: "Call `begin_occlusion_query` first, or wrap draws with `Pass::occlusion_query`.",
    },
    CodeInfo {
        code: "VGPU-QUERY-UNCLOSED",
        variant: "QueryError::Unclosed",
        meaning: "A pass's closure returned with an occlusion query still open (vgpu ended it so the pass stays valid).",
        fix: "End each query in the pass that began it, or wrap draws with `Pass::occlusion_query`.",
    },
    CodeInfo {
        code: "VGPU-QUERY-TWICE",
        variant: "QueryError::UsedTwice",
        meaning: "An occlusion query index was begun a second time in one pass.",
        fix: "Use each index once per pass: give each object (or group of draws) its own index.",
    },
    CodeInfo {
        code: "VGPU-QUERY-REUSED",
        variant: "QueryError::Reused",
        meaning: "A second pass of one frame was given an occlusion query set already used by a pass of that frame.",
        fix: "Give each pass of a frame its own `OcclusionQueries`.",
    },
    CodeInfo {
        code: "VGPU-QUERY-APP-ENCODER",
        variant: "QueryError::AppEncoder",
        meaning: "A pass of a frame recorded into the app's encoder (`Gpu::frame_in`) was given occlusion queries: their read-back needs vgpu's own submit.",
        fix: "Record the pass in `Gpu::frame`, or count with a wgpu query set of your own.",
    },
    CodeInfo {
        code: "VGPU-QUERY-NOT-SUBMITTED",
        variant: "QueryError::NotSubmitted",
        meaning: "`OcclusionQueries::read_async` was called before any frame using the set was submitted.",
        fix: "Submit a frame whose pass uses the set first; `latest()` returns `None` until results arrive.",
    },
];
