//! [`Mesh`]: a [`Geometry`]'s attributes and indices on the GPU, one vertex buffer per attribute;
//! and how a draw from a mesh feeds its vertex inputs by name.

use std::sync::Arc;

use crate::buffer::Buffer;
use crate::descriptors::GpuId;
use crate::error::Result;
use crate::geometry::Geometry;
use crate::geometry_error::GeometryError;
use crate::gpu::Gpu;

/// A geometry uploaded: each attribute in its own vertex buffer (tightly packed, `VERTEX`
/// usage), the indices in an index buffer (`Uint16` when every index is below 65535, else
/// `Uint32`; `INDEX` usage). Cheap to clone (an `Arc`); draws made from it keep its buffers
/// alive.
///
/// Give it to [`DrawDesc::mesh`](crate::DrawDesc::mesh): the draw's vertex inputs take its
/// attributes by name.
#[derive(Clone)]
pub struct Mesh {
    pub(crate) inner: Arc<MeshRecord>,
}

/// What a [`Mesh`] holds (read by `Gpu::draw`).
pub(crate) struct MeshRecord {
    pub(crate) gpu: GpuId,
    pub(crate) label: String,
    pub(crate) attributes: Vec<MeshAttribute>,
    pub(crate) index: Option<MeshIndices>,
    pub(crate) vertex_count: u32,
}

/// One attribute of a mesh, in its own vertex buffer.
pub(crate) struct MeshAttribute {
    pub(crate) name: String,
    pub(crate) format: wgpu::VertexFormat,
    pub(crate) buffer: Buffer,
}

/// The index buffer of a mesh.
pub(crate) struct MeshIndices {
    pub(crate) buffer: Buffer,
    pub(crate) format: wgpu::IndexFormat,
    pub(crate) count: u32,
}

impl std::fmt::Debug for Mesh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mesh")
            .field("label", &self.inner.label)
            .field("attributes", &self.attributes().collect::<Vec<_>>())
            .field("vertex_count", &self.inner.vertex_count)
            .field("index_count", &self.index_count())
            .finish_non_exhaustive()
    }
}

impl Mesh {
    /// The label (the geometry's).
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// The attributes, name and vertex format, in the geometry's order.
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = (&str, wgpu::VertexFormat)> + '_ {
        self.inner
            .attributes
            .iter()
            .map(|a| (a.name.as_str(), a.format))
    }

    /// The vertex buffer of attribute `name` (`format().size()` bytes per vertex, from offset 0).
    pub fn attribute_buffer(&self, name: &str) -> Option<&Buffer> {
        self.inner
            .attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| &a.buffer)
    }

    /// The index buffer (from offset 0), if the geometry had indices.
    pub fn index_buffer(&self) -> Option<&Buffer> {
        self.inner.index.as_ref().map(|i| &i.buffer)
    }

    /// The format of the indices (`Uint16` when every index is below 65535), if the geometry
    /// had indices.
    pub fn index_format(&self) -> Option<wgpu::IndexFormat> {
        self.inner.index.as_ref().map(|i| i.format)
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> u32 {
        self.inner.vertex_count
    }

    /// The number of indices, if the geometry had indices.
    pub fn index_count(&self) -> Option<u32> {
        self.inner.index.as_ref().map(|i| i.count)
    }
}

impl Gpu {
    /// Uploads `geometry`: one vertex buffer per attribute (labelled `"<label> <name>"`), and its
    /// indices if it has any. `VGPU-MESH-EMPTY` for a geometry without attributes, vertices, or
    /// with an empty index list; `VGPU-MESH-ATTRIBUTE-LENGTH` when its attributes differ in
    /// length; `VGPU-MESH-INDEX-RANGE` for an index at or past the vertex count; nothing is
    /// uploaded then.
    ///
    /// ```
    /// use vgpu::geometry::Geometry;
    /// let gpu = vgpu::Gpu::noop();
    /// // Your own arrays: a quad of two triangles with a color per vertex.
    /// let quad = Geometry::new(vec![[-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [1.0, 1.0, 0.0], [-1.0, 1.0, 0.0]])
    ///     .with_attribute("color", vec![[255_u8, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255; 4]])
    ///     .with_indices(vec![0, 1, 2, 0, 2, 3])
    ///     .with_label("quad");
    /// let mesh = gpu.mesh(&quad)?;
    /// assert_eq!(
    ///     mesh.attributes().collect::<Vec<_>>(),
    ///     [("position", wgpu::VertexFormat::Float32x3), ("color", wgpu::VertexFormat::Unorm8x4)]
    /// );
    /// assert_eq!((mesh.vertex_count(), mesh.index_count()), (4, Some(6)));
    /// assert_eq!(mesh.index_format(), Some(wgpu::IndexFormat::Uint16));
    /// let shader = gpu.shader("quad", "
    ///     struct Out { @builtin(position) clip: vec4f, @location(0) color: vec4f }
    ///     @vertex fn vs_main(@location(0) color: vec4f, @location(1) position: vec3f) -> Out {
    ///         return Out(vec4f(position, 1.0), color);
    ///     }
    ///     @fragment fn fs_main(in: Out) -> @location(0) vec4f { return in.color; }
    /// ")?;
    /// let draw = gpu.draw(&shader, vgpu::DrawDesc { mesh: Some(mesh), ..Default::default() })?;
    /// assert_eq!(draw.counts(), (6, 1));
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn mesh(&self, geometry: &Geometry) -> Result<Mesh> {
        self.ctx.check_device("Gpu::mesh")?;
        let label = geometry.label();
        let empty = |what| GeometryError::Empty {
            geometry: label.to_owned(),
            what,
        };
        let Some((first, _)) = geometry.attributes().next() else {
            return Err(empty("no attribute").into());
        };
        let count = geometry.vertex_count();
        if count == 0 {
            return Err(empty("0 vertices").into());
        }
        if let Some((name, values)) = geometry.attributes().find(|(_, a)| a.len() != count) {
            return Err(GeometryError::AttributeLength {
                geometry: label.to_owned(),
                attribute: name.to_owned(),
                first: first.to_owned(),
                expected: count,
                actual: values.len(),
            }
            .into());
        }
        let too_many = |what: String, n: usize| GeometryError::Vertices {
            what,
            vertices: u64::try_from(n).unwrap_or(u64::MAX),
            max: u64::from(u32::MAX),
        };
        let vertex_count = u32::try_from(count).map_err(|_| too_many(label.to_owned(), count))?;
        let indices = match geometry.indices() {
            None => None,
            Some([]) => return Err(empty("an empty index list").into()),
            Some(indices) => {
                if let Some((position, &index)) = indices
                    .iter()
                    .enumerate()
                    .find(|&(_, &i)| i >= vertex_count)
                {
                    return Err(GeometryError::IndexRange {
                        geometry: label.to_owned(),
                        position,
                        index,
                        vertex_count: count,
                    }
                    .into());
                }
                let n = u32::try_from(indices.len())
                    .map_err(|_| too_many(format!("{label} (indices)"), indices.len()))?;
                Some((indices, n))
            }
        };
        let mut attributes = Vec::with_capacity(geometry.attributes().len());
        for (name, values) in geometry.attributes() {
            let buffer = self.buffer_init(
                &format!("{label} {name}"),
                values.as_bytes(),
                wgpu::BufferUsages::VERTEX,
            )?;
            attributes.push(MeshAttribute {
                name: name.to_owned(),
                format: values.format(),
                buffer,
            });
        }
        let index = match indices {
            None => None,
            Some((indices, n)) => {
                // 0xFFFF is the strip-restart value of Uint16: only indices below it are packed.
                let narrow: Option<Vec<u16>> = indices
                    .iter()
                    .map(|&i| u16::try_from(i).ok().filter(|&i| i != u16::MAX))
                    .collect();
                let (bytes, format) = match &narrow {
                    Some(narrow) => (bytemuck::cast_slice(narrow), wgpu::IndexFormat::Uint16),
                    None => (bytemuck::cast_slice(indices), wgpu::IndexFormat::Uint32),
                };
                let buffer = self.buffer_init(
                    &format!("{label} indices"),
                    bytes,
                    wgpu::BufferUsages::INDEX,
                )?;
                Some(MeshIndices {
                    buffer,
                    format,
                    count: n,
                })
            }
        };
        Ok(Mesh {
            inner: Arc::new(MeshRecord {
                gpu: self.id(),
                label: label.to_owned(),
                attributes,
                index,
                vertex_count,
            }),
        })
    }
}
