//! [`Input`]: the mouse and keyboard as one frame sees them.

use glam::Vec2;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{KeyCode, PhysicalKey};

/// Pixels of a touchpad's scroll (`MouseScrollDelta::PixelDelta`) counted as one wheel line.
pub const PIXELS_PER_LINE: f32 = 20.0;

/// The mouse and keyboard for one frame: what is held down, what went down (pressed) or up
/// (released) since the last frame, where the cursor is and how far it moved, how far the wheel
/// turned. The runner feeds it the window's events between frames and clears the per-frame
/// parts after each frame ([`end_frame`](Self::end_frame)); a key or button pressed and released
/// between two frames is both pressed and released in the next one (not down).
///
/// Keys are physical keys (`KeyCode::KeyW` is the key where W is on a US keyboard, whatever
/// the layout). Positions are physical pixels from the window's top-left corner, y down.
///
/// The feeding methods ([`move_cursor`](Self::move_cursor), [`press_key`](Self::press_key), …)
/// are public so that code driven by input can be tested without a window.
#[derive(Clone, Debug, Default)]
pub struct Input {
    cursor: Option<Vec2>,
    cursor_delta: Vec2,
    buttons_down: Vec<MouseButton>,
    buttons_pressed: Vec<MouseButton>,
    buttons_released: Vec<MouseButton>,
    keys_down: Vec<KeyCode>,
    keys_pressed: Vec<KeyCode>,
    keys_released: Vec<KeyCode>,
    wheel: Vec2,
}

impl Input {
    /// Where the cursor is (physical pixels from the top-left corner), `None` while it is
    /// outside the window (or before it first moved in).
    pub fn cursor(&self) -> Option<Vec2> {
        self.cursor
    }

    /// How far the cursor moved inside the window since the last frame (pixels, x right, y
    /// down).
    pub fn cursor_delta(&self) -> Vec2 {
        self.cursor_delta
    }

    /// Whether `button` is held down.
    pub fn button_down(&self, button: MouseButton) -> bool {
        self.buttons_down.contains(&button)
    }

    /// Whether `button` went down since the last frame.
    pub fn button_pressed(&self, button: MouseButton) -> bool {
        self.buttons_pressed.contains(&button)
    }

    /// Whether `button` went up since the last frame.
    pub fn button_released(&self, button: MouseButton) -> bool {
        self.buttons_released.contains(&button)
    }

    /// Whether `key` is held down.
    pub fn key_down(&self, key: KeyCode) -> bool {
        self.keys_down.contains(&key)
    }

    /// Whether `key` went down since the last frame (key repeat does not count).
    pub fn key_pressed(&self, key: KeyCode) -> bool {
        self.keys_pressed.contains(&key)
    }

    /// Whether `key` went up since the last frame.
    pub fn key_released(&self, key: KeyCode) -> bool {
        self.keys_released.contains(&key)
    }

    /// The keys held down, in the order they went down.
    pub fn keys_down(&self) -> &[KeyCode] {
        &self.keys_down
    }

    /// How far the wheel turned since the last frame, in lines (a notch of a mouse wheel is
    /// usually 1; a touchpad's pixels count [`PIXELS_PER_LINE`] a line). `y > 0`: turned away
    /// from the user (scrolling up; [`OrbitControls`](crate::camera::OrbitControls) zooms in).
    pub fn wheel(&self) -> Vec2 {
        self.wheel
    }

    /// The cursor moved to `position` (inside the window): the motion from the last position
    /// adds to [`cursor_delta`](Self::cursor_delta) (none when it was outside).
    pub fn move_cursor(&mut self, position: Vec2) {
        if let Some(last) = self.cursor {
            self.cursor_delta += position - last;
        }
        self.cursor = Some(position);
    }

    /// The cursor left the window.
    pub fn leave_cursor(&mut self) {
        self.cursor = None;
    }

    /// `button` went down.
    pub fn press_button(&mut self, button: MouseButton) {
        if !self.buttons_down.contains(&button) {
            self.buttons_down.push(button);
            self.buttons_pressed.push(button);
        }
    }

    /// `button` went up.
    pub fn release_button(&mut self, button: MouseButton) {
        if let Some(i) = self.buttons_down.iter().position(|b| *b == button) {
            self.buttons_down.remove(i);
            self.buttons_released.push(button);
        }
    }

    /// `key` went down (again while down: a repeat, not counted as pressed).
    pub fn press_key(&mut self, key: KeyCode) {
        if !self.keys_down.contains(&key) {
            self.keys_down.push(key);
            self.keys_pressed.push(key);
        }
    }

    /// `key` went up.
    pub fn release_key(&mut self, key: KeyCode) {
        if let Some(i) = self.keys_down.iter().position(|k| *k == key) {
            self.keys_down.remove(i);
            self.keys_released.push(key);
        }
    }

    /// The wheel turned by `lines` (see [`wheel`](Self::wheel)).
    pub fn scroll(&mut self, lines: Vec2) {
        self.wheel += lines;
    }

    /// Every key and button held goes up (the window lost the keyboard focus: their releases
    /// go to another window).
    pub fn release_all(&mut self) {
        for key in std::mem::take(&mut self.keys_down) {
            self.keys_released.push(key);
        }
        for button in std::mem::take(&mut self.buttons_down) {
            self.buttons_released.push(button);
        }
    }

    /// Ends a frame: clears what is per frame (pressed, released, cursor delta, wheel), keeps
    /// what is held and where the cursor is. The runner calls it after each frame.
    pub fn end_frame(&mut self) {
        self.buttons_pressed.clear();
        self.buttons_released.clear();
        self.keys_pressed.clear();
        self.keys_released.clear();
        self.cursor_delta = Vec2::ZERO;
        self.wheel = Vec2::ZERO;
    }

    /// Takes a window event in; `true` for the events it uses.
    pub(crate) fn window_event(&mut self, event: &WindowEvent) -> bool {
        match event {
            WindowEvent::CursorMoved { position, .. } => {
                self.move_cursor(Vec2::new(position.x as f32, position.y as f32));
            }
            WindowEvent::CursorLeft { .. } => self.leave_cursor(),
            WindowEvent::MouseInput { state, button, .. } => match state {
                ElementState::Pressed => self.press_button(*button),
                ElementState::Released => self.release_button(*button),
            },
            WindowEvent::KeyboardInput { event, .. } => {
                let PhysicalKey::Code(code) = event.physical_key else {
                    return false;
                };
                match event.state {
                    ElementState::Pressed => self.press_key(code),
                    ElementState::Released => self.release_key(code),
                }
            }
            WindowEvent::MouseWheel { delta, .. } => self.scroll(match delta {
                MouseScrollDelta::LineDelta(x, y) => Vec2::new(*x, *y),
                MouseScrollDelta::PixelDelta(p) => {
                    Vec2::new(p.x as f32, p.y as f32) / PIXELS_PER_LINE
                }
            }),
            WindowEvent::Focused(false) => self.release_all(),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pressed_and_released_last_one_frame_down_lasts_until_released() {
        let mut input = Input::default();
        input.press_key(KeyCode::KeyW);
        input.press_key(KeyCode::KeyW); // a repeat
        assert!(input.key_pressed(KeyCode::KeyW) && input.key_down(KeyCode::KeyW));
        assert_eq!(input.keys_down(), [KeyCode::KeyW]);
        input.end_frame();
        assert!(!input.key_pressed(KeyCode::KeyW) && input.key_down(KeyCode::KeyW));
        input.release_key(KeyCode::KeyW);
        assert!(input.key_released(KeyCode::KeyW) && !input.key_down(KeyCode::KeyW));
        input.end_frame();
        assert!(!input.key_released(KeyCode::KeyW));
        // A click between two frames: pressed and released in the next, not down.
        input.press_button(MouseButton::Left);
        input.release_button(MouseButton::Left);
        assert!(input.button_pressed(MouseButton::Left));
        assert!(input.button_released(MouseButton::Left));
        assert!(!input.button_down(MouseButton::Left));
    }

    #[test]
    fn the_cursor_delta_sums_the_motion_inside_the_window() {
        let mut input = Input::default();
        input.move_cursor(Vec2::new(10.0, 10.0));
        assert_eq!(input.cursor_delta(), Vec2::ZERO, "entering is no motion");
        input.move_cursor(Vec2::new(15.0, 8.0));
        input.move_cursor(Vec2::new(20.0, 12.0));
        assert_eq!(input.cursor_delta(), Vec2::new(10.0, 2.0));
        assert_eq!(input.cursor(), Some(Vec2::new(20.0, 12.0)));
        input.end_frame();
        assert_eq!(input.cursor_delta(), Vec2::ZERO);
        input.leave_cursor();
        input.move_cursor(Vec2::new(100.0, 100.0));
        assert_eq!(input.cursor_delta(), Vec2::ZERO);
        input.scroll(Vec2::new(0.0, 1.0));
        input.scroll(Vec2::new(0.0, 2.0));
        assert_eq!(input.wheel(), Vec2::new(0.0, 3.0));
        input.press_button(MouseButton::Right);
        input.press_key(KeyCode::Space);
        input.end_frame();
        input.release_all();
        assert!(input.button_released(MouseButton::Right) && input.key_released(KeyCode::Space));
        assert!(input.keys_down().is_empty() && !input.button_down(MouseButton::Right));
    }
}
