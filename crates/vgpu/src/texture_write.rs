//! Writing parts of a [`Texture`]: one mip level, one layer, a region; all layers (and mips) at
//! creation ([`Gpu::texture_with_data`]). Rows come tightly packed; the copy layout is vgpu's
//! business. Also the checks a write and a read share ([`CopyPlan`]).

use crate::error::Result;
use crate::gpu::Gpu;
use crate::texture::{Texture, TextureDesc};
use crate::texture_data::TextureRegion;
use crate::texture_error::TextureError;

/// Which way a copy goes (the formats and aspects allowed differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Write,
    Read,
}

impl Direction {
    fn usage(self) -> &'static str {
        match self {
            Direction::Write => "written",
            Direction::Read => "read back",
        }
    }
}

/// A checked copy of one region of a texture: where, how big, and how its bytes are laid out
/// when tightly packed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CopyPlan {
    pub(crate) mip: u32,
    pub(crate) origin: wgpu::Origin3d,
    /// Texels (a whole number of blocks) per axis, and layers.
    pub(crate) extent: wgpu::Extent3d,
    pub(crate) aspect: wgpu::TextureAspect,
    /// Bytes of one tightly packed row of blocks.
    pub(crate) row_bytes: u32,
    /// Rows of blocks per layer.
    pub(crate) rows: u32,
}

impl CopyPlan {
    /// Bytes of the whole region, tightly packed.
    pub(crate) fn total_bytes(&self) -> u64 {
        u64::from(self.row_bytes)
            * u64::from(self.rows)
            * u64::from(self.extent.depth_or_array_layers)
    }
}

impl Texture {
    /// `VGPU-FOREIGN-GPU` unless `gpu` created the texture; a lost device's error.
    pub(crate) fn check_copy_owner(&self, gpu: &Gpu, operation: &'static str) -> Result<()> {
        gpu.ctx.check_lost(operation)?;
        if self.inner.gpu != gpu.id() {
            return Err(crate::error::foreign_gpu(
                "texture",
                &self.inner.label,
                operation,
            ));
        }
        Ok(())
    }

    /// The size of mip level `mip` (unchecked: `mip` below the mip level count), rounded up to
    /// whole blocks.
    fn mip_extent(&self, mip: u32) -> wgpu::Extent3d {
        let t = &self.inner.texture;
        t.size()
            .mip_level_size(mip, t.dimension())
            .physical_size(t.format())
    }

    /// The aspect a copy of this texture takes (`DepthOnly` for depth formats, `StencilOnly`
    /// when `stencil`), or `VGPU-TEXTURE-FORMAT` when the format, aspect or sample count has
    /// no copy in `dir`.
    fn copy_aspect(
        &self,
        gpu: &Gpu,
        dir: Direction,
        stencil: bool,
    ) -> Result<(wgpu::TextureAspect, u32)> {
        let t = &self.inner.texture;
        let format = t.format();
        let refuse = |hint: &str| -> crate::error::Error {
            TextureError::Format {
                label: self.inner.label.clone(),
                format,
                usage: if stencil {
                    "copied as stencil"
                } else {
                    dir.usage()
                },
                hint: hint.to_owned(),
            }
            .into()
        };
        if t.sample_count() > 1 {
            return Err(refuse(
                "a multisampled texture has no copy: resolve it into a single-sample texture (a Target with msaa resolves) and copy that",
            ));
        }
        let aspect = if stencil {
            if !format.has_stencil_aspect() {
                return Err(refuse("it has no stencil aspect"));
            }
            wgpu::TextureAspect::StencilOnly
        } else if format.has_depth_aspect() {
            wgpu::TextureAspect::DepthOnly
        } else {
            wgpu::TextureAspect::All
        };
        let depth = aspect == wgpu::TextureAspect::DepthOnly;
        if depth && dir == Direction::Write && format != wgpu::TextureFormat::Depth16Unorm {
            return Err(refuse(
                "only Depth16Unorm depth can be a copy destination: render the depth, or use Depth16Unorm",
            ));
        }
        let block = match format.block_copy_size(Some(aspect)) {
            Some(block) => block,
            None if depth => {
                return Err(refuse(
                    "its depth has no defined bytes to copy: use Depth32Float to read depth back (Depth16Unorm to write it too)",
                ));
            }
            None => return Err(refuse("wgpu has no copy layout for this format")),
        };
        let flags = gpu.ctx.adapter().get_downlevel_capabilities().flags;
        if format.is_depth_stencil_format()
            && !flags.contains(wgpu::DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES)
        {
            return Err(refuse(
                "this adapter cannot copy depth or stencil to or from buffers (no DownlevelFlags::DEPTH_TEXTURE_AND_BUFFER_COPIES, e.g. GL): render the values into a color target (R32Float) and read that",
            ));
        }
        Ok((aspect, block))
    }

    /// Checks `region` against the texture for a copy in `dir` (format, mip, extent, block
    /// boundaries) and lays it out.
    pub(crate) fn copy_plan(
        &self,
        gpu: &Gpu,
        region: &TextureRegion,
        dir: Direction,
        stencil: bool,
    ) -> Result<CopyPlan> {
        let (aspect, block) = self.copy_aspect(gpu, dir, stencil)?;
        let t = &self.inner.texture;
        let mips = t.mip_level_count();
        let refuse = |problem: String, available: String| -> crate::error::Error {
            TextureError::Region {
                label: self.inner.label.clone(),
                problem,
                available,
            }
            .into()
        };
        if region.mip >= mips {
            return Err(refuse(
                format!("mip level {} is past the last", region.mip),
                format!("{mips} mip level(s), 0..={}", mips - 1),
            ));
        }
        let full = self.mip_extent(region.mip);
        let o = region.origin;
        let have = || {
            format!(
                "{mips} mip level(s); mip {} is {}x{} texels, {} layer(s) or slice(s)",
                region.mip, full.width, full.height, full.depth_or_array_layers
            )
        };
        let size = region.size.unwrap_or(wgpu::Extent3d {
            width: full.width.saturating_sub(o.x),
            height: full.height.saturating_sub(o.y),
            depth_or_array_layers: full.depth_or_array_layers.saturating_sub(o.z),
        });
        let past =
            |start: u32, len: u32, end: u32| u64::from(start) + u64::from(len) > u64::from(end);
        if past(o.x, size.width, full.width)
            || past(o.y, size.height, full.height)
            || past(o.z, size.depth_or_array_layers, full.depth_or_array_layers)
            || o.x >= full.width
            || o.y >= full.height
            || o.z >= full.depth_or_array_layers
        {
            return Err(refuse(
                format!(
                    "the region at {o:?} of {size:?} does not fit mip {}",
                    region.mip
                ),
                have(),
            ));
        }
        if size.width == 0 || size.height == 0 || size.depth_or_array_layers == 0 {
            return Err(refuse(format!("the region {size:?} is empty"), have()));
        }
        let (bw, bh) = t.format().block_dimensions();
        let on_blocks = [o.x, size.width].iter().all(|v| v.is_multiple_of(bw))
            && [o.y, size.height].iter().all(|v| v.is_multiple_of(bh));
        if !on_blocks {
            return Err(refuse(
                format!("the region at {o:?} of {size:?} is not on {bw}x{bh} block boundaries"),
                have(),
            ));
        }
        Ok(CopyPlan {
            mip: region.mip,
            origin: o,
            extent: size,
            aspect,
            row_bytes: size.width / bw * block,
            rows: size.height / bh,
        })
    }

    /// The region of one whole layer (or 3D slice) of mip `mip` (past the mips: a region the
    /// plan refuses).
    pub(crate) fn layer_region(&self, layer: u32, mip: u32) -> TextureRegion {
        let full = if mip < self.inner.texture.mip_level_count() {
            self.mip_extent(mip)
        } else {
            wgpu::Extent3d::default()
        };
        TextureRegion {
            mip,
            origin: wgpu::Origin3d {
                x: 0,
                y: 0,
                z: layer,
            },
            size: Some(wgpu::Extent3d {
                depth_or_array_layers: 1,
                ..full
            }),
        }
    }

    /// Writes `data` (tightly packed rows of the region's width; layer after layer; for
    /// block-compressed formats, rows of blocks) into `region` of the texture. vgpu lays the
    /// rows out for the copy.
    ///
    /// Refusals change nothing: `VGPU-TEXTURE-WRITE-SIZE` (`data` is not exactly the region),
    /// `VGPU-TEXTURE-REGION` (a mip, layer or box past the texture, empty, or off block
    /// boundaries), `VGPU-TEXTURE-FORMAT` (depth other than `Depth16Unorm`, multisampled),
    /// `VGPU-FOREIGN-GPU`.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let texture = gpu.texture(&vgpu::TextureDesc { width: 4, height: 4, ..Default::default() })?;
    /// let region = vgpu::TextureRegion {
    ///     mip: 0,
    ///     origin: wgpu::Origin3d { x: 1, y: 2, z: 0 },
    ///     size: Some(wgpu::Extent3d { width: 3, height: 1, depth_or_array_layers: 1 }),
    /// };
    /// texture.write_region(&gpu, &region, &[255; 3 * 4])?;
    /// let e = texture.write_region(&gpu, &region, &[255; 4]).unwrap_err();
    /// assert_eq!(e.code(), "VGPU-TEXTURE-WRITE-SIZE");
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn write_region(&self, gpu: &Gpu, region: &TextureRegion, data: &[u8]) -> Result<()> {
        self.check_copy_owner(gpu, "Texture::write_region")?;
        let plan = self.copy_plan(gpu, region, Direction::Write, false)?;
        if data.len() as u64 != plan.total_bytes() {
            let (bw, bh) = self.format().block_dimensions();
            let unit = if (bw, bh) == (1, 1) {
                "texels".to_owned()
            } else {
                format!("texels in {bw}x{bh} blocks")
            };
            let e = plan.extent;
            return Err(TextureError::WriteSize {
                label: self.inner.label.clone(),
                what: format!(
                    "mip {} at {:?}: {}x{} {unit} x {} layer(s) of {:?}",
                    plan.mip,
                    plan.origin,
                    e.width,
                    e.height,
                    e.depth_or_array_layers,
                    self.format()
                ),
                expected: plan.total_bytes(),
                actual: data.len() as u64,
            }
            .into());
        }
        gpu.ctx.write_texture(
            Some(&self.inner.label),
            wgpu::TexelCopyTextureInfo {
                texture: &self.inner.texture,
                mip_level: plan.mip,
                origin: plan.origin,
                aspect: plan.aspect,
            },
            data,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(plan.row_bytes),
                rows_per_image: Some(plan.rows),
            },
            plan.extent,
        )?;
        Ok(())
    }

    /// Writes all of mip level `mip`: every layer (or 3D slice), layer after layer, each in
    /// tightly packed rows of the mip's width (`max(1, width >> mip)`). Refusals as
    /// [`write_region`](Self::write_region).
    pub fn write_mip(&self, gpu: &Gpu, mip: u32, data: &[u8]) -> Result<()> {
        self.write_region(gpu, &TextureRegion::mip(mip), data)
    }

    /// Writes all of one layer (or 3D slice) `layer` of mip level `mip` (a cube's faces are
    /// layers 0..6: +X, −X, +Y, −Y, +Z, −Z). Refusals as [`write_region`](Self::write_region).
    pub fn write_layer(&self, gpu: &Gpu, layer: u32, mip: u32, data: &[u8]) -> Result<()> {
        self.write_region(gpu, &self.layer_region(layer, mip), data)
    }

    /// Replaces the whole texture's contents from one buffer of tightly packed rows (rows of
    /// blocks for block-compressed formats): either all layers of mip 0 (layer after layer; a
    /// cube's faces +X, −X, +Y, −Y, +Z, −Z), or every mip level of every layer, **mip after mip**
    /// (mip 0's layers, then mip 1's, …; so mip 0 alone is a prefix of the full chain). Which is
    /// meant is told by the length. `VGPU-TEXTURE-WRITE-SIZE` (naming both lengths) for any
    /// other length, `VGPU-TEXTURE-FORMAT` for a format that cannot be written (depth but
    /// `Depth16Unorm`, multisampled), `VGPU-FOREIGN-GPU` for a texture of another `Gpu`: nothing
    /// written.
    pub fn write(&self, gpu: &Gpu, data: &[u8]) -> Result<()> {
        self.check_copy_owner(gpu, "Texture::write")?;
        let mut plans = Vec::new();
        for mip in 0..self.inner.texture.mip_level_count() {
            plans.push(self.copy_plan(gpu, &TextureRegion::mip(mip), Direction::Write, false)?);
        }
        let first = plans.first().map_or(0, CopyPlan::total_bytes);
        let all: u64 = plans.iter().map(CopyPlan::total_bytes).sum();
        let len = data.len() as u64;
        let count = if len == first {
            1
        } else if len == all {
            plans.len()
        } else {
            return Err(TextureError::WriteSize {
                label: self.inner.label.clone(),
                what: format!(
                    "mip 0 of every layer of {:?} (or {all} bytes for all {} mips, mip after mip)",
                    self.format(),
                    plans.len()
                ),
                expected: first,
                actual: len,
            }
            .into());
        };
        let mut offset = 0usize;
        for (mip, plan) in (0u32..).zip(&plans).take(count) {
            let end = offset + plan.total_bytes() as usize;
            self.write_region(gpu, &TextureRegion::mip(mip), &data[offset..end])?;
            offset = end;
        }
        Ok(())
    }
}

impl Gpu {
    /// A texture of any kind (arrays, cubes, 3D, mip chains) holding `data`: all layers of mip 0
    /// layer after layer (a cube: +X, −X, +Y, −Y, +Z, −Z), or every mip of every layer, mip after
    /// mip (see [`Texture::write`]). Rows tightly packed.
    ///
    /// ```
    /// let gpu = vgpu::Gpu::noop();
    /// let desc = vgpu::TextureDesc {
    ///     width: 2,
    ///     height: 2,
    ///     depth_or_array_layers: 6,
    ///     view_dimension: Some(wgpu::TextureViewDimension::Cube),
    ///     ..Default::default()
    /// };
    /// let cube = gpu.texture_with_data(&desc, &[128; 2 * 2 * 4 * 6])?;
    /// # let _ = cube;
    /// # Ok::<(), vgpu::Error>(())
    /// ```
    pub fn texture_with_data(&self, desc: &TextureDesc, data: &[u8]) -> Result<Texture> {
        let texture = self.texture(desc)?;
        texture.write(self, data)?;
        Ok(texture)
    }
}
