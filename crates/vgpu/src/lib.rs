//! vgpu
