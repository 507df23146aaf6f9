//! Geometry on the CPU: vertex attributes by name ([`Geometry`]) and the usual primitives, ready
//! for [`Gpu::mesh`](crate::Gpu::mesh) and for draws whose vertex inputs take a mesh's attributes
//! by name ([`DrawDesc::mesh`](crate::DrawDesc::mesh)).
//!
//! Every primitive is centred on the origin with Y up, and its triangles are counter-clockwise
//! seen from outside (wgpu's default `FrontFace::Ccw`, so `cull_mode: Some(Face::Back)` culls
//! the inside). Each has these attributes, named as a vertex shader names its inputs:
//!
//! | name | format | what |
//! |---|---|---|
//! | `position` ([`POSITION`]) | `Float32x3` | the vertex |
//! | `normal` ([`NORMAL`]) | `Float32x3` | unit length, outward (the plane's: +Y) |
//! | `uv` ([`UV`]) | `Float32x2` | in `[0, 1]`; `v` = 0 at the top of the image, as wgpu samples |
//! | `tangent` ([`TANGENT`]) | `Float32x4` | unit `xyz` along increasing `u`, orthogonal to the normal; `w` = 1, the handedness: `cross(normal, tangent.xyz) * w` points toward decreasing `v` (up in the image), as glTF has it |
//!
//! and `u32` indices of a triangle list, with no degenerate triangle (the poles of the spheres
//! and the apex of the cone have one vertex per triangle). Seen from outside, `u` grows to the
//! right and `v` downward; around the Y axis `u` = 0.5 faces +Z and the seam (`u` = 0 and 1,
//! its vertices doubled) faces −Z.
//!
//! Limits, checked before anything is allocated: every segment count lies in the primitive's
//! range (at least 3 around, at least 1 along, at most [`MAX_SEGMENTS`]), a primitive has at
//! most [`MAX_VERTICES`] vertices, and every size is finite, positive and at most [`MAX_SIZE`].
//! Outside them the constructor returns `VGPU-GEOMETRY-SEGMENTS`, `VGPU-GEOMETRY-VERTICES` or
//! `VGPU-GEOMETRY-SIZE` ([`GeometryError`]).
//!
//! ```
//! let gpu = vgpu::Gpu::noop();
//! let sphere = vgpu::geometry::sphere(1.0, 32, 16)?;
//! assert_eq!(sphere.vertex_count(), 33 * 15 + 2 * 32);
//! assert_eq!(sphere.indices().map(<[u32]>::len), Some(6 * 32 * 15));
//! let mesh = gpu.mesh(&sphere)?;
//! // Inputs take the mesh's attributes by name, at whatever location the shader gives them.
//! let shader = gpu.shader("normals", "
//!     struct Out { @builtin(position) clip: vec4f, @location(0) normal: vec3f }
//!     @vertex fn vs_main(@location(0) normal: vec3f, @location(1) position: vec3f) -> Out {
//!         return Out(vec4f(position * 0.5, 1.0), normal);
//!     }
//!     @fragment fn fs_main(in: Out) -> @location(0) vec4f {
//!         return vec4f(in.normal * 0.5 + 0.5, 1.0);
//!     }
//! ")?;
//! let draw = gpu.draw(&shader, vgpu::DrawDesc { mesh: Some(mesh), ..Default::default() })?;
//! let target = gpu.target(8, 8)?;
//! gpu.frame(|f| f.pass(&target, |p| p.draw(&draw)))?;
//! # Ok::<(), vgpu::Error>(())
//! ```

mod builder;
mod capsule;
mod cuboid;
mod cylinder;
mod icosphere;
mod plane;
mod sphere;
mod torus;

pub use capsule::capsule;
pub use cuboid::cuboid;
pub use cylinder::{cone, cylinder};
pub use icosphere::icosphere;
pub use plane::plane;
pub use sphere::sphere;
pub use torus::torus;

use crate::error::Result;
use crate::geometry_error::GeometryError;

/// The name of the positions (`@location(n) position: vec3f`).
pub const POSITION: &str = "position";
/// The name of the normals (`@location(n) normal: vec3f`).
pub const NORMAL: &str = "normal";
/// The name of the texture coordinates (`@location(n) uv: vec2f`).
pub const UV: &str = "uv";
/// The name of the tangents (`@location(n) tangent: vec4f`; `w` is the handedness).
pub const TANGENT: &str = "tangent";

/// The most segments a primitive takes per parameter (and the most subdivisions of an
/// icosphere).
pub const MAX_SEGMENTS: u32 = 4096;
/// The most vertices a primitive may have (4 Mi: 192 MiB of positions, normals, UVs and
/// tangents).
pub const MAX_VERTICES: u32 = 1 << 22;
/// The largest size (radius, length, width, …) a primitive takes: sums and products of two sizes
/// stay finite in `f32`.
pub const MAX_SIZE: f32 = 1.0e18;

/// The values of one vertex attribute, one per vertex, in a vertex format.
///
/// `From` turns a `Vec` of the element type into its variant:
/// `Geometry::new(positions).with_attribute("color", vec![[1.0_f32, 0.0, 0.0, 1.0]; n])`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AttributeData {
    /// `f32` (`Float32`).
    Float32(Vec<f32>),
    /// `vec2f` (`Float32x2`).
    Float32x2(Vec<[f32; 2]>),
    /// `vec3f` (`Float32x3`).
    Float32x3(Vec<[f32; 3]>),
    /// `vec4f` (`Float32x4`).
    Float32x4(Vec<[f32; 4]>),
    /// `u32` (`Uint32`).
    Uint32(Vec<u32>),
    /// `vec2u` (`Uint32x2`).
    Uint32x2(Vec<[u32; 2]>),
    /// `vec3u` (`Uint32x3`).
    Uint32x3(Vec<[u32; 3]>),
    /// `vec4u` (`Uint32x4`).
    Uint32x4(Vec<[u32; 4]>),
    /// `i32` (`Sint32`).
    Sint32(Vec<i32>),
    /// `vec2i` (`Sint32x2`).
    Sint32x2(Vec<[i32; 2]>),
    /// `vec3i` (`Sint32x3`).
    Sint32x3(Vec<[i32; 3]>),
    /// `vec4i` (`Sint32x4`).
    Sint32x4(Vec<[i32; 4]>),
    /// Four bytes read as a `vec4f` in `[0, 1]` (`Unorm8x4`): compact colors.
    Unorm8x4(Vec<[u8; 4]>),
}

impl AttributeData {
    /// The vertex format the values are uploaded in.
    pub fn format(&self) -> wgpu::VertexFormat {
        use wgpu::VertexFormat as F;
        match self {
            AttributeData::Float32(_) => F::Float32,
            AttributeData::Float32x2(_) => F::Float32x2,
            AttributeData::Float32x3(_) => F::Float32x3,
            AttributeData::Float32x4(_) => F::Float32x4,
            AttributeData::Uint32(_) => F::Uint32,
            AttributeData::Uint32x2(_) => F::Uint32x2,
            AttributeData::Uint32x3(_) => F::Uint32x3,
            AttributeData::Uint32x4(_) => F::Uint32x4,
            AttributeData::Sint32(_) => F::Sint32,
            AttributeData::Sint32x2(_) => F::Sint32x2,
            AttributeData::Sint32x3(_) => F::Sint32x3,
            AttributeData::Sint32x4(_) => F::Sint32x4,
            AttributeData::Unorm8x4(_) => F::Unorm8x4,
        }
    }

    /// The number of values (vertices).
    pub fn len(&self) -> usize {
        match self {
            AttributeData::Float32(v) => v.len(),
            AttributeData::Float32x2(v) => v.len(),
            AttributeData::Float32x3(v) => v.len(),
            AttributeData::Float32x4(v) => v.len(),
            AttributeData::Uint32(v) => v.len(),
            AttributeData::Uint32x2(v) => v.len(),
            AttributeData::Uint32x3(v) => v.len(),
            AttributeData::Uint32x4(v) => v.len(),
            AttributeData::Sint32(v) => v.len(),
            AttributeData::Sint32x2(v) => v.len(),
            AttributeData::Sint32x3(v) => v.len(),
            AttributeData::Sint32x4(v) => v.len(),
            AttributeData::Unorm8x4(v) => v.len(),
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values as the bytes uploaded: tightly packed, `format().size()` bytes per vertex.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            AttributeData::Float32(v) => bytemuck::cast_slice(v),
            AttributeData::Float32x2(v) => bytemuck::cast_slice(v),
            AttributeData::Float32x3(v) => bytemuck::cast_slice(v),
            AttributeData::Float32x4(v) => bytemuck::cast_slice(v),
            AttributeData::Uint32(v) => bytemuck::cast_slice(v),
            AttributeData::Uint32x2(v) => bytemuck::cast_slice(v),
            AttributeData::Uint32x3(v) => bytemuck::cast_slice(v),
            AttributeData::Uint32x4(v) => bytemuck::cast_slice(v),
            AttributeData::Sint32(v) => bytemuck::cast_slice(v),
            AttributeData::Sint32x2(v) => bytemuck::cast_slice(v),
            AttributeData::Sint32x3(v) => bytemuck::cast_slice(v),
            AttributeData::Sint32x4(v) => bytemuck::cast_slice(v),
            AttributeData::Unorm8x4(v) => bytemuck::cast_slice(v),
        }
    }
}

macro_rules! attribute_from {
    ($($variant:ident($ty:ty)),* $(,)?) => {
        $(impl From<Vec<$ty>> for AttributeData {
            fn from(values: Vec<$ty>) -> Self {
                AttributeData::$variant(values)
            }
        })*
    };
}

attribute_from! {
    Float32(f32),
    Float32x2([f32; 2]),
    Float32x3([f32; 3]),
    Float32x4([f32; 4]),
    Uint32(u32),
    Uint32x2([u32; 2]),
    Uint32x3([u32; 3]),
    Uint32x4([u32; 4]),
    Sint32(i32),
    Sint32x2([i32; 2]),
    Sint32x3([i32; 3]),
    Sint32x4([i32; 4]),
    Unorm8x4([u8; 4]),
}

/// Vertex attributes by name, one value per vertex each, and optional `u32` indices: a shape on
/// the CPU, made by a constructor of this module or by hand, uploaded by
/// [`Gpu::mesh`](crate::Gpu::mesh).
///
/// Attributes keep the order they were added in (`position` first for [`Geometry::new`]);
/// adding one under a name already present replaces it, in its place. Lengths and indices are
/// checked by [`Gpu::mesh`](crate::Gpu::mesh) (`VGPU-MESH-ATTRIBUTE-LENGTH`,
/// `VGPU-MESH-INDEX-RANGE`), not here.
///
/// ```
/// use vgpu::geometry::Geometry;
/// // One triangle with a color per vertex, counter-clockwise seen from +Z.
/// let triangle = Geometry::new(vec![[-0.5, -0.5, 0.0], [0.5, -0.5, 0.0], [0.0, 0.5, 0.0]])
///     .with_attribute("color", vec![[1.0_f32, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]])
///     .with_label("triangle");
/// assert_eq!(triangle.vertex_count(), 3);
/// assert_eq!(triangle.attribute("color").map(|a| a.format()), Some(wgpu::VertexFormat::Float32x4));
/// assert!(triangle.indices().is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    label: String,
    attributes: Vec<(String, AttributeData)>,
    indices: Option<Vec<u32>>,
}

impl Geometry {
    /// A geometry of these positions (attribute [`POSITION`]), labelled `"geometry"`, without
    /// indices (a non-indexed triangle list: three positions per triangle).
    pub fn new(positions: Vec<[f32; 3]>) -> Geometry {
        Geometry {
            label: "geometry".to_owned(),
            attributes: vec![(POSITION.to_owned(), AttributeData::Float32x3(positions))],
            indices: None,
        }
    }

    /// The same with attribute `name` set to `values` (replacing one of that name, in its place;
    /// `"position"` may be replaced too, e.g. by 2D positions for a 2D shader).
    #[must_use]
    pub fn with_attribute(
        mut self,
        name: impl Into<String>,
        values: impl Into<AttributeData>,
    ) -> Self {
        let name = name.into();
        let values = values.into();
        match self.attributes.iter_mut().find(|(n, _)| *n == name) {
            Some((_, slot)) => *slot = values,
            None => self.attributes.push((name, values)),
        }
        self
    }

    /// The same with normals (attribute [`NORMAL`]).
    #[must_use]
    pub fn with_normals(self, normals: Vec<[f32; 3]>) -> Self {
        self.with_attribute(NORMAL, normals)
    }

    /// The same with texture coordinates (attribute [`UV`]).
    #[must_use]
    pub fn with_uvs(self, uvs: Vec<[f32; 2]>) -> Self {
        self.with_attribute(UV, uvs)
    }

    /// The same with tangents (attribute [`TANGENT`]: `xyz` and the handedness `w`).
    #[must_use]
    pub fn with_tangents(self, tangents: Vec<[f32; 4]>) -> Self {
        self.with_attribute(TANGENT, tangents)
    }

    /// The same with these indices (a triangle list, unless the draw says otherwise).
    #[must_use]
    pub fn with_indices(mut self, indices: Vec<u32>) -> Self {
        self.indices = Some(indices);
        self
    }

    /// The same without the attribute `name` (if it has one).
    #[must_use]
    pub fn without_attribute(mut self, name: &str) -> Self {
        self.attributes.retain(|(n, _)| n != name);
        self
    }

    /// The same with another label (used by the mesh's buffers and its errors).
    #[must_use]
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The label: `"geometry"`, or the primitive's name (`"sphere"`, …), or
    /// [`with_label`](Self::with_label)'s.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The number of vertices: the length of the first attribute (0 without attributes).
    pub fn vertex_count(&self) -> usize {
        self.attributes.first().map_or(0, |(_, a)| a.len())
    }

    /// The attribute named `name`.
    pub fn attribute(&self, name: &str) -> Option<&AttributeData> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| a)
    }

    /// Every attribute, with its name, in order.
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = (&str, &AttributeData)> + '_ {
        self.attributes.iter().map(|(n, a)| (n.as_str(), a))
    }

    /// The positions, if attribute [`POSITION`] is three `f32`s per vertex.
    pub fn positions(&self) -> Option<&[[f32; 3]]> {
        match self.attribute(POSITION) {
            Some(AttributeData::Float32x3(v)) => Some(v),
            _ => None,
        }
    }

    /// The normals, if attribute [`NORMAL`] is three `f32`s per vertex.
    pub fn normals(&self) -> Option<&[[f32; 3]]> {
        match self.attribute(NORMAL) {
            Some(AttributeData::Float32x3(v)) => Some(v),
            _ => None,
        }
    }

    /// The texture coordinates, if attribute [`UV`] is two `f32`s per vertex.
    pub fn uvs(&self) -> Option<&[[f32; 2]]> {
        match self.attribute(UV) {
            Some(AttributeData::Float32x2(v)) => Some(v),
            _ => None,
        }
    }

    /// The tangents, if attribute [`TANGENT`] is four `f32`s per vertex.
    pub fn tangents(&self) -> Option<&[[f32; 4]]> {
        match self.attribute(TANGENT) {
            Some(AttributeData::Float32x4(v)) => Some(v),
            _ => None,
        }
    }

    /// The indices, if any.
    pub fn indices(&self) -> Option<&[u32]> {
        self.indices.as_deref()
    }
}

/// `count` segments of `primitive`'s `parameter`, if within `min..=MAX_SEGMENTS`.
fn segments(primitive: &'static str, parameter: &'static str, count: u32, min: u32) -> Result<u32> {
    if (min..=MAX_SEGMENTS).contains(&count) {
        Ok(count)
    } else {
        Err(GeometryError::Segments {
            primitive,
            parameter,
            value: count,
            min,
            max: MAX_SEGMENTS,
        }
        .into())
    }
}

/// `value` as a size of `primitive`'s `parameter`, if finite, positive and at most [`MAX_SIZE`].
fn size(primitive: &'static str, parameter: &'static str, value: f32) -> Result<f64> {
    if value.is_finite() && value > 0.0 && value <= MAX_SIZE {
        Ok(f64::from(value))
    } else {
        Err(GeometryError::Size {
            primitive,
            parameter,
            value,
            expected: format!("a finite size in (0, {MAX_SIZE:e}]"),
        }
        .into())
    }
}

/// `Ok` if `vertices` (computed from the parameters, before anything is allocated) is at most
/// [`MAX_VERTICES`].
fn vertex_limit(primitive: &'static str, vertices: u64) -> Result<()> {
    if vertices <= u64::from(MAX_VERTICES) {
        Ok(())
    } else {
        Err(GeometryError::Vertices {
            what: primitive.to_owned(),
            vertices,
            max: u64::from(MAX_VERTICES),
        }
        .into())
    }
}
