//! vgpu-uniforms
