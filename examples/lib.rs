//! Helpers shared by the vgpu examples.
