//! [`GeometryError`]: errors of geometry primitives, meshes and draws from meshes; and their
//! codes.

use vgpu_core::{CodeInfo, ErrorCode};

/// Errors of [`geometry`](crate::geometry) primitives (checked before anything is allocated),
/// of [`Gpu::mesh`](crate::Gpu::mesh) (checked before anything is uploaded) and of draws from a
/// [`Mesh`](crate::Mesh) (checked at [`Gpu::draw`](crate::Gpu::draw); a refused draw is not
/// created).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GeometryError {
    /// A segment (or subdivision) count outside the primitive's range.
    #[error(
        "VGPU-GEOMETRY-SEGMENTS: {primitive}: {parameter} = {value} is out of range; expected {min}..={max}"
    )]
    Segments {
        /// The primitive (`"sphere"`, …).
        primitive: &'static str,
        /// The parameter (`"width_segments"`, …).
        parameter: &'static str,
        /// The count given.
        value: u32,
        /// The least it takes.
        min: u32,
        /// The most it takes ([`MAX_SEGMENTS`](crate::geometry::MAX_SEGMENTS)).
        max: u32,
    },
    /// A size (radius, length, …) that is not finite, not positive, too large, or (a torus's
    /// tube) not less than another.
    #[error("VGPU-GEOMETRY-SIZE: {primitive}: {parameter} = {value}; expected {expected}")]
    Size {
        /// The primitive.
        primitive: &'static str,
        /// The parameter.
        parameter: &'static str,
        /// The size given.
        value: f32,
        /// What it must be.
        expected: String,
    },
    /// A primitive with more vertices than [`MAX_VERTICES`](crate::geometry::MAX_VERTICES), or
    /// a geometry with more than a `u32` index can address.
    #[error(
        "VGPU-GEOMETRY-VERTICES: {what}: {vertices} vertices; expected at most {max} (fewer segments)"
    )]
    Vertices {
        /// The primitive, or the geometry's label.
        what: String,
        /// How many vertices it would have.
        vertices: u64,
        /// The most allowed.
        max: u64,
    },
    /// A geometry given to [`Gpu::mesh`](crate::Gpu::mesh) whose attributes differ in length.
    #[error(
        "VGPU-MESH-ATTRIBUTE-LENGTH: geometry {geometry:?}: attribute `{attribute}` has {actual} values; expected {expected} (one per vertex, as `{first}` has)"
    )]
    AttributeLength {
        /// The geometry's label.
        geometry: String,
        /// The attribute whose length differs.
        attribute: String,
        /// The first attribute, which sets the vertex count.
        first: String,
        /// The vertex count.
        expected: usize,
        /// Its length.
        actual: usize,
    },
    /// A geometry given to [`Gpu::mesh`](crate::Gpu::mesh) with an index at or past its vertex
    /// count.
    #[error(
        "VGPU-MESH-INDEX-RANGE: geometry {geometry:?}: index {index} (at position {position}) is out of range; expected less than the vertex count {vertex_count}"
    )]
    IndexRange {
        /// The geometry's label.
        geometry: String,
        /// Where in the index list.
        position: usize,
        /// The index.
        index: u32,
        /// The geometry's vertex count.
        vertex_count: usize,
    },
    /// A geometry given to [`Gpu::mesh`](crate::Gpu::mesh) with no attribute, no vertex, or an
    /// empty index list.
    #[error(
        "VGPU-MESH-EMPTY: geometry {geometry:?} has {what}; a mesh needs at least one vertex (and one index when indexed)"
    )]
    Empty {
        /// The geometry's label.
        geometry: String,
        /// What is missing (`"no attribute"`, `"0 vertices"`, `"an empty index list"`).
        what: &'static str,
    },
    /// A vertex input of a draw's vertex entry point that the mesh has no attribute of that name
    /// for (and that no buffer of `DrawDesc::vertex_buffers` feeds).
    #[error(
        "VGPU-MESH-ATTRIBUTE-MISSING: draw {draw:?}: vertex input `{input}` (@location({location})) has no attribute of that name in mesh {mesh:?}, which has {}; rename the input, add the attribute to the geometry, or feed the location from DrawDesc::vertex_buffers",
        list(.attributes)
    )]
    AttributeMissing {
        /// The draw's label.
        draw: String,
        /// The mesh's label.
        mesh: String,
        /// The input's name.
        input: String,
        /// Its `@location`.
        location: u32,
        /// The mesh's attributes: name and format.
        attributes: Vec<(String, wgpu::VertexFormat)>,
    },
    /// A vertex input whose type does not read the mesh attribute of its name: another
    /// component count, or another scalar kind (float, signed, unsigned).
    #[error(
        "VGPU-MESH-ATTRIBUTE-TYPE: draw {draw:?}: vertex input `{input}` (@location({location})) is {wgsl} ({input_format:?}); mesh {mesh:?} has `{input}` as {attribute_format:?}; expected the same scalar kind and component count"
    )]
    AttributeType {
        /// The draw's label.
        draw: String,
        /// The mesh's label.
        mesh: String,
        /// The input's (and attribute's) name.
        input: String,
        /// Its `@location`.
        location: u32,
        /// The input's WGSL type (`vec2f`, …).
        wgsl: String,
        /// The vertex format matching the input's type.
        input_format: wgpu::VertexFormat,
        /// The mesh attribute's format.
        attribute_format: wgpu::VertexFormat,
    },
    /// A draw given both a mesh and `DrawDesc::index_buffer`.
    #[error(
        "VGPU-MESH-INDEX-BUFFER: draw {draw:?}: given mesh {mesh:?} and an index_buffer; the mesh brings its own indices (leave index_buffer None, or build the geometry with those indices)"
    )]
    IndexBuffer {
        /// The draw's label.
        draw: String,
        /// The mesh's label.
        mesh: String,
    },
    /// A draw from a mesh that needs more vertex buffers (one per attribute read, plus
    /// `DrawDesc::vertex_buffers`) than the device allows.
    #[error(
        "VGPU-MESH-VERTEX-BUFFERS: draw {draw:?}: needs {needed} vertex buffers ({mesh} from mesh attributes, the rest from DrawDesc::vertex_buffers); the device allows {max}"
    )]
    VertexBuffers {
        /// The draw's label.
        draw: String,
        /// How many buffers the draw needs.
        needed: usize,
        /// How many of them are the mesh's.
        mesh: usize,
        /// The device's `max_vertex_buffers`.
        max: u32,
    },
}

/// `name (Format), …` or `no attribute`.
fn list(attributes: &[(String, wgpu::VertexFormat)]) -> String {
    if attributes.is_empty() {
        return "no attribute".to_owned();
    }
    let names: Vec<String> = attributes
        .iter()
        .map(|(name, format)| format!("`{name}` ({format:?})"))
        .collect();
    format!("attributes {}", names.join(", "))
}

impl ErrorCode for GeometryError {
    fn code(&self) -> &'static str {
        match self {
            GeometryError::Segments { .. } => "VGPU-GEOMETRY-SEGMENTS",
            GeometryError::Size { .. } => "VGPU-GEOMETRY-SIZE",
            GeometryError::Vertices { .. } => "VGPU-GEOMETRY-VERTICES",
            GeometryError::AttributeLength { .. } => "VGPU-MESH-ATTRIBUTE-LENGTH",
            GeometryError::IndexRange { .. } => "VGPU-MESH-INDEX-RANGE",
            GeometryError::Empty { .. } => "VGPU-MESH-EMPTY",
            GeometryError::AttributeMissing { .. } => "VGPU-MESH-ATTRIBUTE-MISSING",
            GeometryError::AttributeType { .. } => "VGPU-MESH-ATTRIBUTE-TYPE",
            GeometryError::IndexBuffer { .. } => "VGPU-MESH-INDEX-BUFFER",
            GeometryError::VertexBuffers { .. } => "VGPU-MESH-VERTEX-BUFFERS",
        }
    }
}

/// The codes of [`GeometryError`].
pub(crate) const CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VGPU-GEOMETRY-SEGMENTS",
        variant: "GeometryError::Segments",
        meaning: "A geometry primitive was given a segment or subdivision count outside its range: fewer than its minimum (3 around an axis, 1 along one, 2 from pole to pole) or more than `geometry::MAX_SEGMENTS`. The message names the primitive, the parameter, the value and the range.",
        fix: "Give a count in the range the message states.",
    },
    CodeInfo {
        code: "VGPU-GEOMETRY-SIZE",
        variant: "GeometryError::Size",
        meaning: "A geometry primitive was given a size (radius, width, length, …) that is NaN, infinite, zero, negative or over `geometry::MAX_SIZE`, or a torus a tube not thinner than its radius.",
        fix: "Give finite, positive sizes (scale the result with a transform if needed); keep a torus's tube below its radius.",
    },
    CodeInfo {
        code: "VGPU-GEOMETRY-VERTICES",
        variant: "GeometryError::Vertices",
        meaning: "A geometry primitive would have more than `geometry::MAX_VERTICES` vertices (refused before anything is allocated), or a geometry given to `Gpu::mesh` has more vertices than a `u32` index addresses.",
        fix: "Use fewer segments; split a very large geometry into several meshes.",
    },
    CodeInfo {
        code: "VGPU-MESH-ATTRIBUTE-LENGTH",
        variant: "GeometryError::AttributeLength",
        meaning: "A geometry given to `Gpu::mesh` has attributes of different lengths: each needs one value per vertex.",
        fix: "Give every attribute as many values as the first (`position`) has.",
    },
    CodeInfo {
        code: "VGPU-MESH-INDEX-RANGE",
        variant: "GeometryError::IndexRange",
        meaning: "A geometry given to `Gpu::mesh` has an index at or past its vertex count.",
        fix: "Keep every index below the number of vertices.",
    },
    CodeInfo {
        code: "VGPU-MESH-EMPTY",
        variant: "GeometryError::Empty",
        meaning: "A geometry given to `Gpu::mesh` has no attribute, no vertex, or an empty index list (GPU buffers cannot be empty).",
        fix: "Give at least one vertex (and one index, or no index list at all).",
    },
    CodeInfo {
        code: "VGPU-MESH-ATTRIBUTE-MISSING",
        variant: "GeometryError::AttributeMissing",
        meaning: "A draw from a mesh has a vertex input whose name is not an attribute of the mesh (inputs take the attribute of their own name), and no buffer of `DrawDesc::vertex_buffers` feeds its location. The message names the input and lists the mesh's attributes.",
        fix: "Name the input as the attribute (`position`, `normal`, `uv`, `tangent`, or a name given to `Geometry::with_attribute`), add the attribute to the geometry, or feed the location from `DrawDesc::vertex_buffers`.",
    },
    CodeInfo {
        code: "VGPU-MESH-ATTRIBUTE-TYPE",
        variant: "GeometryError::AttributeType",
        meaning: "A draw from a mesh has a vertex input whose WGSL type does not read the mesh attribute of its name: another scalar kind (float, signed, unsigned) or another component count (vgpu refuses a `vec3f` input over a 4-component attribute, which WebGPU would allow by dropping `w`).",
        fix: "Declare the input with the attribute's type (`vec4f` for a `Float32x4` attribute, then use `.xyz`), or give the geometry the attribute in the input's format.",
    },
    CodeInfo {
        code: "VGPU-MESH-INDEX-BUFFER",
        variant: "GeometryError::IndexBuffer",
        meaning: "A draw was given both a mesh and `DrawDesc::index_buffer`; a mesh brings its own indices.",
        fix: "Leave `index_buffer` at `None`, or build the geometry with the indices you want (`Geometry::with_indices`).",
    },
    CodeInfo {
        code: "VGPU-MESH-VERTEX-BUFFERS",
        variant: "GeometryError::VertexBuffers",
        meaning: "A draw from a mesh needs more vertex buffers than the device's `max_vertex_buffers` (8 on most devices): one per mesh attribute its vertex entry point reads, plus those of `DrawDesc::vertex_buffers`.",
        fix: "Read fewer attributes, or interleave yours into one `VertexBuffer`.",
    },
];
