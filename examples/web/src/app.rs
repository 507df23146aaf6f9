//! `app.html`: vgpu's app runner in a browser (`vgpu::app::run` on wasm32, driven by
//! `requestAnimationFrame`). A red square, drawn with an aspect-correct orthographic projection,
//! in the page's `<canvas id="canvas">`, whose size is the canvas's CSS size × `devicePixelRatio`
//! (the browser test changes the CSS size). Every frame writes `FRAME {json}` into
//! `document.title`: the frame's index, the surface's size, the canvas's CSS size, the device
//! pixel ratio, the resizes the runner reported (`FrameContext::resized`) and the backend; a
//! failure writes `ERROR {json}` (and the runner logs it to the console).

use std::fmt::Write as _;

use vgpu::app::{AppSettings, FrameContext, run};
use vgpu::camera::OrthographicCamera;
use vgpu::{BackendChoice, Draw, DrawDesc, Gpu, GpuOptions, value};

/// A square of side 1 (world units) in the middle; the camera shows 2 units from the bottom of
/// the canvas to the top, so the square is half the canvas's height, square in pixels.
const SQUARE: &str = "
struct Square { view_projection: mat4x4f }
@group(0) @binding(0) var<uniform> square: Square;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    var corners = array<vec2f, 6>(
        vec2f(-0.5, -0.5), vec2f(0.5, -0.5), vec2f(0.5, 0.5),
        vec2f(-0.5, -0.5), vec2f(0.5, 0.5), vec2f(-0.5, 0.5),
    );
    return square.view_projection * vec4f(corners[i], 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4f {
    return vec4f(1.0, 0.0, 0.0, 1.0);
}
";

/// The page's state.
struct Square {
    draw: Draw,
    camera: OrthographicCamera,
    backend: String,
    resizes: u32,
}

impl Square {
    fn new(gpu: &Gpu) -> vgpu::Result<Square> {
        let shader = gpu.shader("square", SQUARE)?;
        let draw = gpu.draw(
            &shader,
            DrawDesc {
                label: "square".into(),
                vertex_count: Some(6),
                ..Default::default()
            },
        )?;
        Ok(Square {
            draw,
            camera: OrthographicCamera::default(),
            backend: format!("{:?}", gpu.adapter_info().backend),
            resizes: 0,
        })
    }

    fn frame(&mut self, ctx: &mut FrameContext<'_>) -> vgpu::Result<()> {
        if ctx.resized() {
            self.resizes += 1;
        }
        let view_projection = self.camera.view_projection(ctx.aspect());
        self.draw
            .set("square", value! { view_projection: view_projection })?;
        ctx.gpu.frame(|f| {
            f.pass(ctx.pass().clear([0.0, 0.0, 0.0, 1.0]), |p| {
                p.draw(&self.draw)
            })
        })?;
        let (width, height) = ctx.size();
        let (css, dpr) = canvas_css();
        set_title(&format!(
            "FRAME {{\"frame\":{},\"surface\":[{width},{height}],\"css\":[{},{}],\"dpr\":{dpr},\
             \"resizes\":{},\"skipped\":{},\"backend\":{}}}",
            ctx.clock.frame(),
            css.0,
            css.1,
            self.resizes,
            ctx.skipped_frames(),
            quote(&self.backend),
        ));
        Ok(())
    }
}

/// The canvas's CSS size (its bounding box) and the page's `devicePixelRatio`.
fn canvas_css() -> ((f64, f64), f64) {
    let Some(window) = web_sys::window() else {
        return ((0.0, 0.0), 1.0);
    };
    let rect = window
        .document()
        .and_then(|d| d.get_element_by_id("canvas"))
        .map(|c| c.get_bounding_client_rect());
    let css = rect.map_or((0.0, 0.0), |r| (r.width(), r.height()));
    (css, window.device_pixel_ratio())
}

fn set_title(title: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(title);
    }
}

/// `ERROR {json}` in the title, then the error on.
fn report<T>(result: vgpu::Result<T>) -> vgpu::Result<T> {
    if let Err(e) = &result {
        set_title(&format!(
            "ERROR {{\"code\":{},\"message\":{}}}",
            quote(e.code()),
            quote(&e.to_string())
        ));
    }
    result
}

/// Starts the runner on `<canvas id="canvas">`, on the backend `?backend=` names.
pub(crate) fn start() {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let requested = web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .and_then(|p| p.get("backend"))
        .unwrap_or_else(|| "auto".to_owned());
    let backend = match BackendChoice::parse(&requested, "?backend=") {
        Ok(backend) => backend,
        Err(e) => {
            let _ = report::<()>(Err(e.into()));
            return;
        }
    };
    let settings = AppSettings {
        canvas_id: Some("canvas".to_owned()),
        gpu: Some(GpuOptions {
            backend,
            ..Default::default()
        }),
        depth: None,
        exit_on_escape: false,
        ..AppSettings::new("vgpu app")
    };
    let _ = report(run(
        settings,
        |ctx| report(Square::new(ctx.gpu)),
        |square, ctx| report(square.frame(ctx)),
    ));
}

/// A JSON string literal.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
