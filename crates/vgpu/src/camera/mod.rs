//! Cameras (feature `glam`): [`PerspectiveCamera`] and [`OrthographicCamera`], each a view
//! ([`look_at_rh`](glam::Mat4::look_at_rh): right-handed, Y up, the camera looking down its −Z)
//! and a projection for wgpu's clip space (depth 0 at `near` to 1 at `far`:
//! [`perspective_rh`](glam::Mat4::perspective_rh), [`orthographic_rh`](glam::Mat4::orthographic_rh)),
//! and [`OrbitControls`], which turn a drag into yaw and pitch around a target, the wheel into
//! distance and a right drag into a pan — driven by the app runner's input state with the `app`
//! feature ([`OrbitControls::update`]), or by plain numbers.
//!
//! The matrices are what a WGSL vertex shader multiplies positions by:
//! `camera.view_projection * vec4f(position, 1.0)`; set them as values
//! (`value! { view_projection: camera.view_projection(aspect) }`, feature `glam`).
//!
//! ```
//! use glam::{Vec3, Vec4};
//! use vgpu::camera::PerspectiveCamera;
//!
//! let camera = PerspectiveCamera {
//!     eye: Vec3::new(0.0, 0.0, 5.0),
//!     target: Vec3::ZERO,
//!     ..Default::default()
//! };
//! // The target lands in the middle of the screen, between near (depth 0) and far (depth 1).
//! let clip = camera.view_projection(16.0 / 9.0) * Vec4::new(0.0, 0.0, 0.0, 1.0);
//! let ndc = clip.truncate() / clip.w;
//! assert!(ndc.x.abs() < 1e-6 && ndc.y.abs() < 1e-6 && ndc.z > 0.0 && ndc.z < 1.0);
//! ```

mod orbit;
mod orthographic;
mod perspective;

use glam::{Mat4, Vec3};

pub use orbit::OrbitControls;
pub use orthographic::OrthographicCamera;
pub use perspective::PerspectiveCamera;

/// What [`OrbitControls`] and generic code need of a camera: its matrices and where it looks
/// from. Implemented by [`PerspectiveCamera`] and [`OrthographicCamera`] (whose inherent
/// methods of the same names do the same: no import needed to call them).
pub trait Camera {
    /// The view matrix: world space to the camera's space (right-handed, the camera looking down
    /// −Z, Y up).
    fn view(&self) -> Mat4;
    /// The projection matrix for a viewport of `aspect` = width / height, into wgpu's clip
    /// space (depth 0..1).
    fn projection(&self, aspect: f32) -> Mat4;
    /// `projection(aspect) * view()`: world space to clip space.
    fn view_projection(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }
    /// Moves the camera to `eye`, looking at `target` (its `up` kept).
    fn look_at(&mut self, eye: Vec3, target: Vec3);
}

/// The aspect ratio (width / height) of a `width`×`height` viewport; 1 while a side is zero (a
/// minimized window), so that a projection stays finite.
pub fn aspect(width: u32, height: u32) -> f32 {
    if width == 0 || height == 0 {
        1.0
    } else {
        width as f32 / height as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    /// `p` (world space) in normalized device coordinates.
    fn ndc(m: Mat4, p: Vec3) -> Vec3 {
        let clip = m * Vec4::new(p.x, p.y, p.z, 1.0);
        clip.truncate() / clip.w
    }

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).abs().max_element() < 1e-5
    }

    #[test]
    fn perspective_projects_known_points() {
        let camera = PerspectiveCamera {
            fov_y: 60f32.to_radians(),
            near: 1.0,
            far: 11.0,
            eye: Vec3::new(0.0, 0.0, 10.0),
            ..Default::default()
        };
        let m = camera.view_projection(2.0);
        // Near and far planes on the axis: depth 0 and 1 (wgpu's clip space).
        assert!(close(ndc(m, Vec3::new(0.0, 0.0, 9.0)), Vec3::ZERO));
        assert!(close(ndc(m, Vec3::new(0.0, 0.0, -1.0)), Vec3::Z));
        // At distance d, tan(30°)·d above the axis is the top edge; twice that aside (aspect 2)
        // the right edge; Y up, +X right.
        let d = 10.0;
        let top = d * 30f32.to_radians().tan();
        let p = ndc(m, Vec3::new(2.0 * top, top, 0.0));
        assert!((p.x - 1.0).abs() < 1e-5 && (p.y - 1.0).abs() < 1e-5, "{p}");
        let p = ndc(m, Vec3::new(-2.0 * top, -top, 0.0));
        assert!((p.x + 1.0).abs() < 1e-5 && (p.y + 1.0).abs() < 1e-5, "{p}");
        // The trait gives the same matrices.
        assert_eq!(Camera::view_projection(&camera, 2.0), m);
    }

    #[test]
    fn orthographic_projects_known_points() {
        let camera = OrthographicCamera {
            height: 4.0,
            near: 0.0,
            far: 10.0,
            eye: Vec3::new(0.0, 0.0, 5.0),
            ..Default::default()
        };
        let m = camera.view_projection(1.5);
        // Corners of the box: x ±3 (height 4 × aspect 1.5 / 2), y ±2, at any depth.
        assert!(close(
            ndc(m, Vec3::new(3.0, 2.0, 5.0)),
            Vec3::new(1.0, 1.0, 0.0)
        ));
        assert!(close(
            ndc(m, Vec3::new(-3.0, -2.0, -5.0)),
            Vec3::new(-1.0, -1.0, 1.0)
        ));
        // Parallel projection: the same point at two depths lands on the same pixel.
        let (a, b) = (
            ndc(m, Vec3::new(1.0, 1.0, 0.0)),
            ndc(m, Vec3::new(1.0, 1.0, -4.0)),
        );
        assert!((a.truncate() - b.truncate()).abs().max_element() < 1e-6);
    }

    #[test]
    fn a_square_stays_square_at_any_aspect() {
        // What the runner's resize test checks in pixels: a unit square projected with the
        // viewport's aspect covers as many pixels across as down.
        for (w, h) in [(200u32, 150u32), (150, 200), (320, 100), (64, 64)] {
            let m = PerspectiveCamera::default().view_projection(aspect(w, h));
            let (a, b) = (
                ndc(m, Vec3::new(-0.5, -0.5, 0.0)),
                ndc(m, Vec3::new(0.5, 0.5, 0.0)),
            );
            let px_w = (b.x - a.x) / 2.0 * w as f32;
            let px_h = (b.y - a.y) / 2.0 * h as f32;
            assert!((px_w - px_h).abs() < 1e-3, "{w}x{h}: {px_w} x {px_h}");
        }
        assert_eq!(aspect(0, 10), 1.0);
    }
}
