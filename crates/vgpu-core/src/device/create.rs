//! Counted, validated creation of every wgpu object vgpu makes, and the queue's uploads and
//! submits: each bumps its [`Stats`](crate::Stats) counter.

use super::GpuContext;
use crate::error::DeviceError;

impl GpuContext {
    /// Creates a buffer (counted, validated).
    pub fn create_buffer(
        &self,
        desc: &wgpu::BufferDescriptor<'_>,
    ) -> Result<wgpu::Buffer, DeviceError> {
        let buffer = self.scoped("create_buffer", desc.label, |d| d.create_buffer(desc))?;
        self.stats.buffers_created.bump();
        self.stats.buffer_bytes_created.add(desc.size);
        Ok(buffer)
    }

    /// Creates a buffer holding `contents` (counted as one buffer; the initial contents are
    /// written through mapping, not `write_buffer`, and counted in `bytes_uploaded`).
    pub fn create_buffer_init(
        &self,
        label: Option<&str>,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, DeviceError> {
        use wgpu::util::DeviceExt as _;
        let buffer = self.scoped("create_buffer", label, |d| {
            d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label,
                contents,
                usage,
            })
        })?;
        self.stats.buffers_created.bump();
        self.stats.buffer_bytes_created.add(buffer.size());
        self.stats.bytes_uploaded.add(contents.len() as u64);
        Ok(buffer)
    }

    /// Creates a texture (counted, validated).
    pub fn create_texture(
        &self,
        desc: &wgpu::TextureDescriptor<'_>,
    ) -> Result<wgpu::Texture, DeviceError> {
        let t = self.scoped("create_texture", desc.label, |d| d.create_texture(desc))?;
        self.stats.textures_created.bump();
        Ok(t)
    }

    /// Creates a sampler (counted, validated).
    pub fn create_sampler(
        &self,
        desc: &wgpu::SamplerDescriptor<'_>,
    ) -> Result<wgpu::Sampler, DeviceError> {
        let s = self.scoped("create_sampler", desc.label, |d| d.create_sampler(desc))?;
        self.stats.samplers_created.bump();
        Ok(s)
    }

    /// Creates a bind group (counted, validated).
    pub fn create_bind_group(
        &self,
        desc: &wgpu::BindGroupDescriptor<'_>,
    ) -> Result<wgpu::BindGroup, DeviceError> {
        let g = self.scoped("create_bind_group", desc.label, |d| {
            d.create_bind_group(desc)
        })?;
        self.stats.bind_groups_created.bump();
        Ok(g)
    }

    /// Creates a bind group layout (counted, validated).
    pub fn create_bind_group_layout(
        &self,
        desc: &wgpu::BindGroupLayoutDescriptor<'_>,
    ) -> Result<wgpu::BindGroupLayout, DeviceError> {
        let l = self.scoped("create_bind_group_layout", desc.label, |d| {
            d.create_bind_group_layout(desc)
        })?;
        self.stats.bind_group_layouts_created.bump();
        Ok(l)
    }

    /// Creates a pipeline layout (validated).
    pub fn create_pipeline_layout(
        &self,
        desc: &wgpu::PipelineLayoutDescriptor<'_>,
    ) -> Result<wgpu::PipelineLayout, DeviceError> {
        self.scoped("create_pipeline_layout", desc.label, |d| {
            d.create_pipeline_layout(desc)
        })
    }

    /// Creates a shader module from already-validated naga IR or WGSL (counted, validated).
    pub fn create_shader_module(
        &self,
        desc: wgpu::ShaderModuleDescriptor<'_>,
    ) -> Result<wgpu::ShaderModule, DeviceError> {
        let label = desc.label.map(str::to_owned);
        let m = self.scoped("create_shader_module", label.as_deref(), |d| {
            d.create_shader_module(desc)
        })?;
        self.stats.shader_modules_created.bump();
        Ok(m)
    }

    /// Creates a render pipeline (counted, validated).
    pub fn create_render_pipeline(
        &self,
        desc: &wgpu::RenderPipelineDescriptor<'_>,
    ) -> Result<wgpu::RenderPipeline, DeviceError> {
        let p = self.scoped("create_render_pipeline", desc.label, |d| {
            d.create_render_pipeline(desc)
        })?;
        self.stats.pipelines_created.bump();
        Ok(p)
    }

    /// Creates a compute pipeline (counted, validated).
    pub fn create_compute_pipeline(
        &self,
        desc: &wgpu::ComputePipelineDescriptor<'_>,
    ) -> Result<wgpu::ComputePipeline, DeviceError> {
        let p = self.scoped("create_compute_pipeline", desc.label, |d| {
            d.create_compute_pipeline(desc)
        })?;
        self.stats.pipelines_created.bump();
        Ok(p)
    }

    /// `Queue::write_buffer`, counted (one call, `data.len()` bytes). Not error-scoped: this is a
    /// hot path; callers validate ranges beforehand, and anything wgpu still rejects is routed to
    /// the uncaptured-error log.
    #[inline]
    pub fn write_buffer(&self, buffer: &wgpu::Buffer, offset: wgpu::BufferAddress, data: &[u8]) {
        self.stats.write_calls.bump();
        self.stats.bytes_uploaded.add(data.len() as u64);
        self.queue.write_buffer(buffer, offset, data);
    }

    /// `Queue::write_buffer_with` (counted as [`write_buffer`](Self::write_buffer) counts
    /// `size` bytes): `fill` writes the bytes into the staging view, and the upload lands before
    /// the next submit. Bytes `fill` leaves unwritten reach the buffer unspecified. An empty
    /// `size` or a write wgpu refuses (reported to the device's error handler, as
    /// `write_buffer`'s) uploads nothing.
    pub fn write_buffer_with(
        &self,
        buffer: &wgpu::Buffer,
        offset: wgpu::BufferAddress,
        size: usize,
        fill: impl FnOnce(&mut wgpu::QueueWriteBufferView),
    ) {
        let Some(size_nz) = wgpu::BufferSize::new(size as u64) else {
            return;
        };
        self.stats.write_calls.bump();
        self.stats.bytes_uploaded.add(size as u64);
        if let Some(mut view) = self.queue.write_buffer_with(buffer, offset, size_nz) {
            fill(&mut view);
        }
    }

    /// `Queue::write_texture` (counted in `write_calls` and `bytes_uploaded` with
    /// `write_buffer`: both are uploads through the queue), validated: a write wgpu refuses (a
    /// format that cannot be a copy destination, such as `Depth32Float`; a layout that does not
    /// fit the texture) is an `Err` carrying wgpu's description, never an uncaptured error.
    pub fn write_texture(
        &self,
        label: Option<&str>,
        texture: wgpu::TexelCopyTextureInfo<'_>,
        data: &[u8],
        layout: wgpu::TexelCopyBufferLayout,
        size: wgpu::Extent3d,
    ) -> Result<(), DeviceError> {
        self.scoped("Queue::write_texture", label, |_| {
            self.queue.write_texture(texture, data, layout, size)
        })?;
        self.stats.write_calls.bump();
        self.stats.bytes_uploaded.add(data.len() as u64);
        Ok(())
    }

    /// Submits command buffers (counted).
    pub fn submit(
        &self,
        buffers: impl IntoIterator<Item = wgpu::CommandBuffer>,
    ) -> wgpu::SubmissionIndex {
        self.stats.submissions.bump();
        self.queue.submit(buffers)
    }
}
