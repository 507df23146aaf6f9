//! [`OrbitControls`]: a camera orbiting a target (yaw, pitch, distance), turned by drags, zoomed
//! by the wheel, panned by right drags.

use glam::Vec3;

use super::Camera;

/// A camera position around `target`: `yaw` radians about +Y, `pitch` radians above the
/// horizontal plane, `distance` away. Yaw 0 and pitch 0 put the eye on +Z of the target:
/// `eye = target + distance · (cos pitch · sin yaw, sin pitch, cos pitch · cos yaw)`.
///
/// Driven by pixels and wheel lines ([`rotate`](Self::rotate), [`zoom`](Self::zoom),
/// [`pan`](Self::pan)) or, with the `app` feature, by the runner's input
/// ([`update`](Self::update)): a left drag rotates, the wheel zooms, a right or middle drag pans.
/// A drag of `dx` pixels to the right changes `yaw` by `−dx · rotate_speed` (the scene turns
/// with the cursor, as in three.js's `OrbitControls`), `dy` pixels down changes `pitch` by
/// `+dy · rotate_speed` (the eye rises); pitch stays within `min_pitch..=max_pitch` and distance
/// within `min_distance..=max_distance`.
///
/// ```
/// use glam::Vec3;
/// use vgpu::camera::{OrbitControls, PerspectiveCamera};
///
/// let mut orbit = OrbitControls::new(Vec3::ZERO, 5.0);
/// let mut camera = PerspectiveCamera::default();
/// orbit.rotate(100.0, 0.0); // 100 pixels to the right
/// assert!((orbit.yaw + 100.0 * orbit.rotate_speed).abs() < 1e-6);
/// orbit.zoom(1.0); // one wheel line towards the target
/// assert!((orbit.distance - 5.0 / orbit.zoom_factor).abs() < 1e-5);
/// orbit.apply(&mut camera);
/// assert!((camera.eye.length() - orbit.distance).abs() < 1e-5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitControls {
    /// The point orbited (and looked at).
    pub target: Vec3,
    /// Distance from the eye to the target.
    pub distance: f32,
    /// Radians about +Y; 0 puts the eye on +Z of the target.
    pub yaw: f32,
    /// Radians above the horizontal plane through the target.
    pub pitch: f32,
    /// Least distance (zooming in stops there). Default 0.05.
    pub min_distance: f32,
    /// Greatest distance. Default 10 000.
    pub max_distance: f32,
    /// Least pitch. Default −89.4° (just short of straight down, where the view's up flips).
    pub min_pitch: f32,
    /// Greatest pitch. Default +89.4°.
    pub max_pitch: f32,
    /// Radians of yaw or pitch per pixel of drag. Default 0.005 (a 628-pixel drag turns half a
    /// circle).
    pub rotate_speed: f32,
    /// Distance divided by this per wheel line towards the target (multiplied per line away).
    /// Default 1.1.
    pub zoom_factor: f32,
    /// World units the target moves per pixel of a pan, per unit of distance. Default 0.002.
    pub pan_speed: f32,
    /// Whether right and middle drags pan ([`update`](Self::update)). Default `true`.
    pub pan_enabled: bool,
}

impl OrbitControls {
    /// Orbits `target` at `distance`, yaw 0 and pitch 0 (the eye on +Z of the target), with the
    /// default limits and speeds.
    pub fn new(target: Vec3, distance: f32) -> Self {
        let limit = 89.4f32.to_radians();
        OrbitControls {
            target,
            distance,
            yaw: 0.0,
            pitch: 0.0,
            min_distance: 0.05,
            max_distance: 10_000.0,
            min_pitch: -limit,
            max_pitch: limit,
            rotate_speed: 0.005,
            zoom_factor: 1.1,
            pan_speed: 0.002,
            pan_enabled: true,
        }
        .clamped()
    }

    /// The orbit that puts the eye at `eye` looking at `target` (yaw, pitch and distance taken
    /// from them, then clamped).
    pub fn looking_from(eye: Vec3, target: Vec3) -> Self {
        let offset = eye - target;
        let distance = offset.length();
        let mut orbit = OrbitControls::new(target, distance);
        if distance > 0.0 {
            orbit.pitch = (offset.y / distance).clamp(-1.0, 1.0).asin();
            orbit.yaw = offset.x.atan2(offset.z);
        }
        orbit.clamped()
    }

    /// Where the eye is.
    pub fn eye(&self) -> Vec3 {
        let (sin_yaw, cos_yaw) = self.yaw.sin_cos();
        let (sin_pitch, cos_pitch) = self.pitch.sin_cos();
        self.target + self.distance * Vec3::new(cos_pitch * sin_yaw, sin_pitch, cos_pitch * cos_yaw)
    }

    /// A drag of `dx` pixels to the right and `dy` down: `yaw −= dx · rotate_speed`,
    /// `pitch += dy · rotate_speed`, pitch clamped.
    pub fn rotate(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * self.rotate_speed;
        // Kept within one turn, so that long sessions do not lose precision.
        self.yaw = self.yaw.rem_euclid(std::f32::consts::TAU);
        if self.yaw > std::f32::consts::PI {
            self.yaw -= std::f32::consts::TAU;
        }
        self.pitch += dy * self.rotate_speed;
        *self = self.clamped();
    }

    /// `lines` wheel lines towards the target (negative: away): the distance divided by
    /// `zoom_factor` per line, clamped.
    pub fn zoom(&mut self, lines: f32) {
        self.distance /= self.zoom_factor.powf(lines);
        *self = self.clamped();
    }

    /// A pan of `dx` pixels to the right and `dy` down: the target (and the eye with it) moves
    /// left and up in the view's plane by `pan_speed · distance` world units per pixel, so the
    /// scene follows the cursor.
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let forward = (self.target - self.eye()).normalize_or_zero();
        let right = forward.cross(Vec3::Y).normalize_or_zero();
        let up = right.cross(forward);
        let scale = self.pan_speed * self.distance;
        self.target += (-dx * right + dy * up) * scale;
    }

    /// Puts `camera` at [`eye`](Self::eye), looking at `target`.
    pub fn apply(&self, camera: &mut impl Camera) {
        camera.look_at(self.eye(), self.target);
    }

    /// These controls with pitch and distance within their limits (a NaN distance becomes the
    /// least).
    fn clamped(mut self) -> Self {
        self.pitch = self.pitch.clamp(self.min_pitch, self.max_pitch);
        self.distance = if self.distance.is_nan() {
            self.min_distance
        } else {
            self.distance.clamp(self.min_distance, self.max_distance)
        };
        self
    }
}

#[cfg(feature = "app")]
impl OrbitControls {
    /// Follows this frame's input and moves `camera`: a drag with the left button held rotates
    /// ([`rotate`](Self::rotate) by the cursor's motion), the wheel zooms
    /// ([`zoom`](Self::zoom) by its lines), a drag with the right or middle button pans
    /// ([`pan`](Self::pan); unless `pan_enabled` is off). Returns whether the orbit changed.
    ///
    /// ```
    /// use glam::{Vec2, Vec3};
    /// use vgpu::app::Input;
    /// use vgpu::app::winit::event::MouseButton;
    /// use vgpu::camera::{OrbitControls, PerspectiveCamera};
    ///
    /// let (mut orbit, mut camera) = (OrbitControls::new(Vec3::ZERO, 5.0), PerspectiveCamera::default());
    /// let mut input = Input::default();
    /// input.move_cursor(Vec2::new(10.0, 10.0));
    /// input.press_button(MouseButton::Left);
    /// input.move_cursor(Vec2::new(50.0, 10.0)); // 40 pixels to the right, button held
    /// assert!(orbit.update(&input, &mut camera));
    /// assert!((orbit.yaw + 40.0 * orbit.rotate_speed).abs() < 1e-6);
    /// assert_eq!(camera.eye, orbit.eye());
    /// ```
    pub fn update(&mut self, input: &crate::app::Input, camera: &mut impl Camera) -> bool {
        use winit::event::MouseButton;
        let before = *self;
        let delta = input.cursor_delta();
        if delta != glam::Vec2::ZERO {
            if input.button_down(MouseButton::Left) {
                self.rotate(delta.x, delta.y);
            } else if self.pan_enabled
                && (input.button_down(MouseButton::Right) || input.button_down(MouseButton::Middle))
            {
                self.pan(delta.x, delta.y);
            }
        }
        let wheel = input.wheel().y;
        if wheel != 0.0 {
            self.zoom(wheel);
        }
        self.apply(camera);
        *self != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaw_and_pitch_place_the_eye() {
        let mut orbit = OrbitControls::new(Vec3::new(1.0, 2.0, 3.0), 4.0);
        assert!((orbit.eye() - Vec3::new(1.0, 2.0, 7.0)).length() < 1e-5);
        orbit.yaw = std::f32::consts::FRAC_PI_2;
        assert!((orbit.eye() - Vec3::new(5.0, 2.0, 3.0)).length() < 1e-5);
        // looking_from inverts eye().
        orbit.pitch = 0.4;
        orbit.yaw = -2.0;
        let back = OrbitControls::looking_from(orbit.eye(), orbit.target);
        assert!((back.yaw - orbit.yaw).abs() < 1e-5, "{back:?}");
        assert!((back.pitch - orbit.pitch).abs() < 1e-5);
        assert!((back.distance - orbit.distance).abs() < 1e-5);
    }

    #[test]
    fn a_drag_of_n_pixels_turns_by_n_times_the_speed() {
        let mut orbit = OrbitControls::new(Vec3::ZERO, 5.0);
        orbit.rotate(100.0, 0.0);
        assert!((orbit.yaw - (-0.5)).abs() < 1e-6, "100 px right: yaw -0.5");
        orbit.rotate(-100.0, 40.0);
        assert!(orbit.yaw.abs() < 1e-6);
        assert!((orbit.pitch - 0.2).abs() < 1e-6, "40 px down: pitch +0.2");
        // Dragging right moves the eye to the left of where it was (towards -X from +Z).
        orbit.pitch = 0.0;
        orbit.rotate(10.0, 0.0);
        assert!(orbit.eye().x < 0.0);
    }

    #[test]
    fn pitch_and_distance_stay_within_their_limits() {
        let mut orbit = OrbitControls::new(Vec3::ZERO, 5.0);
        orbit.rotate(0.0, 1e6);
        assert_eq!(orbit.pitch, orbit.max_pitch);
        orbit.rotate(0.0, -1e6);
        assert_eq!(orbit.pitch, orbit.min_pitch);
        orbit.zoom(1e4);
        assert_eq!(orbit.distance, orbit.min_distance);
        orbit.zoom(-1e4);
        assert_eq!(orbit.distance, orbit.max_distance);
        orbit.max_distance = 8.0;
        orbit.zoom(-1.0);
        assert_eq!(orbit.distance, 8.0);
        // Two lines in: divided by the factor twice.
        orbit.zoom(2.0);
        assert!((orbit.distance - 8.0 / 1.21).abs() < 1e-5);
        // At the pitch limit the view is still defined (no NaN from a vertical view).
        orbit.rotate(0.0, 1e6);
        let mut camera = crate::camera::PerspectiveCamera::default();
        orbit.apply(&mut camera);
        assert!(camera.view().is_finite());
        // Yaw wraps into (-π, π].
        orbit.rotate(1e5, 0.0);
        assert!(orbit.yaw.abs() <= std::f32::consts::PI);
    }

    #[test]
    fn a_pan_moves_the_target_in_the_view_plane() {
        let mut orbit = OrbitControls::new(Vec3::ZERO, 10.0);
        orbit.pan(50.0, 0.0);
        // Looking down -Z from +Z: right is +X; the target moves left by 50 · 0.002 · 10.
        assert!((orbit.target - Vec3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
        orbit.pan(0.0, 50.0);
        assert!((orbit.target - Vec3::new(-1.0, 1.0, 0.0)).length() < 1e-5);
        assert!((orbit.eye() - orbit.target - Vec3::new(0.0, 0.0, 10.0)).length() < 1e-4);
    }

    #[cfg(feature = "app")]
    #[test]
    fn update_follows_the_input() {
        use crate::app::Input;
        use glam::Vec2;
        use winit::event::MouseButton;
        let mut orbit = OrbitControls::new(Vec3::ZERO, 5.0);
        let mut camera = crate::camera::PerspectiveCamera::default();
        let mut input = Input::default();
        // Motion without a button: nothing moves.
        input.move_cursor(Vec2::new(0.0, 0.0));
        input.move_cursor(Vec2::new(30.0, 0.0));
        assert!(!orbit.update(&input, &mut camera));
        input.end_frame();
        // A left drag of 60 px right and 20 px down.
        input.press_button(MouseButton::Left);
        input.move_cursor(Vec2::new(90.0, 20.0));
        assert!(orbit.update(&input, &mut camera));
        assert!((orbit.yaw + 60.0 * 0.005).abs() < 1e-6);
        assert!((orbit.pitch - 20.0 * 0.005).abs() < 1e-6);
        input.end_frame();
        input.release_button(MouseButton::Left);
        // Two wheel lines towards the target.
        input.scroll(Vec2::new(0.0, 2.0));
        assert!(orbit.update(&input, &mut camera));
        assert!((orbit.distance - 5.0 / 1.21).abs() < 1e-5);
        input.end_frame();
        // A right drag pans.
        input.press_button(MouseButton::Right);
        input.move_cursor(Vec2::new(100.0, 20.0));
        let target = orbit.target;
        assert!(orbit.update(&input, &mut camera));
        assert_ne!(orbit.target, target);
        assert_eq!(camera.target, orbit.target);
    }
}
