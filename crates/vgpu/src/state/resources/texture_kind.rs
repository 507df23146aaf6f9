//! What a texture is (its default view, its view formats, what GL binds it as) and the shape
//! of a view of it: what texture bindings are checked against.

/// What a texture's default view is, and which formats its views may take (kept by the record).
#[derive(Clone, Debug)]
pub(crate) struct TextureKind {
    /// The default view's dimension (`Cube` for a cube map, `D2Array` for an array, …).
    pub(crate) view_dimension: wgpu::TextureViewDimension,
    /// The formats views may take besides the texture's own.
    pub(crate) view_formats: Vec<wgpu::TextureFormat>,
    /// Whether the adapter binds cube arrays (`DownlevelFlags::CUBE_ARRAY_TEXTURES`).
    pub(crate) cube_arrays: bool,
    /// On GL (no texture views): the one dimension the texture binds as, fixed at creation
    /// (a 6·n-layer square 2D texture is a cube there); views of another dimension or of part
    /// of its layers cannot be bound. `None` elsewhere.
    pub(crate) gl_binds_as: Option<wgpu::TextureViewDimension>,
}

impl TextureKind {
    /// What GL binds a texture of `desc` as (its texture target), as wgpu's GL backend picks it.
    pub(crate) fn gl_target(desc: &wgpu::TextureDescriptor<'_>) -> wgpu::TextureViewDimension {
        use wgpu::TextureViewDimension as V;
        let layers = desc.size.depth_or_array_layers;
        match desc.dimension {
            wgpu::TextureDimension::D1 => V::D1,
            wgpu::TextureDimension::D3 => V::D3,
            wgpu::TextureDimension::D2 => {
                let cube = layers.is_multiple_of(6)
                    && desc.sample_count == 1
                    && desc.size.width == desc.size.height;
                match (cube, layers) {
                    (false, 1) => V::D2,
                    (false, _) => V::D2Array,
                    (true, 6) => V::Cube,
                    (true, _) => V::CubeArray,
                }
            }
        }
    }
}

/// The resolved shape of a view: what a binding is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ViewShape {
    pub(crate) dimension: wgpu::TextureViewDimension,
    pub(crate) base_mip: u32,
    pub(crate) mip_count: u32,
    pub(crate) base_layer: u32,
    pub(crate) layer_count: u32,
}
