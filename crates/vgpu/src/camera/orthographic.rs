//! [`OrthographicCamera`].

use glam::{Mat4, Vec3};

use super::Camera;

/// An orthographic camera: parallel projection of a box `height` world units tall (and
/// `height · aspect` wide) around the line from `eye` towards `target`. `Default`: height 2,
/// near 0.1, far 100, eye (0, 0, 5), looking at the origin, Y up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrthographicCamera {
    /// World units from the bottom to the top of the screen.
    pub height: f32,
    /// Distance to the near plane (may be negative: behind the eye): depth 0.
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

impl Default for OrthographicCamera {
    fn default() -> Self {
        OrthographicCamera {
            height: 2.0,
            near: 0.1,
            far: 100.0,
            eye: Vec3::new(0.0, 0.0, 5.0),
            target: Vec3::ZERO,
            up: Vec3::Y,
        }
    }
}

impl OrthographicCamera {
    /// The view matrix ([`Camera::view`]).
    pub fn view(&self) -> Mat4 {
        Mat4::look_at_rh(self.eye, self.target, self.up)
    }
    /// The projection for `aspect` = width / height ([`Camera::projection`]): x from
    /// `−height · aspect / 2` to `+height · aspect / 2`, y from `−height / 2` to `+height / 2`.
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let (half_h, half_w) = (self.height / 2.0, self.height * aspect / 2.0);
        Mat4::orthographic_rh(-half_w, half_w, -half_h, half_h, self.near, self.far)
    }
    /// `projection(aspect) * view()`.
    pub fn view_projection(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }
}

impl Camera for OrthographicCamera {
    fn view(&self) -> Mat4 {
        OrthographicCamera::view(self)
    }
    fn projection(&self, aspect: f32) -> Mat4 {
        OrthographicCamera::projection(self, aspect)
    }
    fn look_at(&mut self, eye: Vec3, target: Vec3) {
        self.eye = eye;
        self.target = target;
    }
}
