//! vgpu-bind
