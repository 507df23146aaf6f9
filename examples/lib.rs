//! Helpers shared by the vgpu examples, so each example's rendering is also callable from tests.

#[path = "lib/triangle.rs"]
pub mod triangle;
