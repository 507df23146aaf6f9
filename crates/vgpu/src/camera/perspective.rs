//! [`PerspectiveCamera`].

use glam::{Mat4, Vec3};

use super::Camera;

/// A perspective camera: `fov_y` radians of vertical field of view, from `eye` towards
/// `target`, `up` giving the roll. `Default`: 45°, near 0.1, far 100, eye (0, 0, 5), looking
/// at the origin, Y up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerspectiveCamera {
    /// Vertical field of view, in radians (0 < fov_y < π).
    pub fov_y: f32,
    /// Distance to the near plane (> 0): depth 0.
    pub near: f32,
    /// Distance to the far plane (> near): depth 1.
    pub far: f32,
    /// Where the camera is.
    pub eye: Vec3,
    /// The point it looks at (the middle of the screen).
    pub target: Vec3,
    /// Which way is up (not parallel to `target - eye`).
    pub up: Vec3,
}

impl Default for PerspectiveCamera {
    fn default() -> Self {
        PerspectiveCamera {
            fov_y: std::f32::consts::FRAC_PI_4,
            near: 0.1,
            far: 100.0,
            eye: Vec3::new(0.0, 0.0, 5.0),
            target: Vec3::ZERO,
            up: Vec3::Y,
        }
    }
}

impl PerspectiveCamera {
    /// The view matrix ([`Camera::view`]).
    pub fn view(&self) -> Mat4 {
        Mat4::look_at_rh(self.eye, self.target, self.up)
    }
    /// The projection for `aspect` = width / height ([`Camera::projection`]): a point at
    /// distance `d` in front of the camera and `d · tan(fov_y / 2)` above its axis lands on the
    /// top edge of the screen.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        Mat4::perspective_rh(self.fov_y, aspect, self.near, self.far)
    }
    /// `projection(aspect) * view()`.
    pub fn view_projection(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }
}

impl Camera for PerspectiveCamera {
    fn view(&self) -> Mat4 {
        PerspectiveCamera::view(self)
    }
    fn projection(&self, aspect: f32) -> Mat4 {
        PerspectiveCamera::projection(self, aspect)
    }
    fn look_at(&mut self, eye: Vec3, target: Vec3) {
        self.eye = eye;
        self.target = target;
    }
}
