//! The page: creates a `Gpu` for the `<canvas id="canvas">` (`?backend=webgl|webgpu|auto`),
//! renders [`FRAMES`] frames by `requestAnimationFrame`, renders one more frame into an
//! offscreen target, reads it back asynchronously and writes the result into `document.title`:
//! `DONE {json}`, or `ERROR {json}` when something failed (`code` is vgpu's error code).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};

use crate::scene::{ANIMATED, CHECKED, FRAMES, HEIGHT, PROBES, Scene, WIDTH};
use vgpu::{BackendChoice, Gpu, GpuOptions, SurfaceDesc};

/// Frames to wait for the read-back before giving up (about 10 s at 60 Hz).
const READ_BACK_FRAMES: u32 = 600;

/// Runs when the module is instantiated.
#[wasm_bindgen(start)]
pub(crate) fn start() {
    spawn_local(async {
        let title = match run().await {
            Ok(json) => format!("DONE {json}"),
            Err((code, message)) => format!(
                "ERROR {{\"code\":{},\"message\":{}}}",
                quote(&code),
                quote(&message)
            ),
        };
        web_sys::console::log_1(&JsValue::from_str(&title));
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            document.set_title(&title);
        }
    });
}

type Failure = (String, String);

fn js_error(what: &str) -> impl Fn(JsValue) -> Failure + '_ {
    move |e| ("JS".to_owned(), format!("{what}: {e:?}"))
}

fn vgpu_error(e: vgpu::Error) -> Failure {
    (e.code().to_owned(), e.to_string())
}

/// Resolves at the next `requestAnimationFrame`.
async fn next_frame() -> Result<(), Failure> {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.request_animation_frame(&resolve);
        }
    });
    JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(js_error("requestAnimationFrame"))
}

async fn run() -> Result<String, Failure> {
    let window = web_sys::window().ok_or_else(|| ("JS".to_owned(), "no window".to_owned()))?;
    let search = window.location().search().map_err(js_error("location"))?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).map_err(js_error("params"))?;
    let requested = params.get("backend").unwrap_or_else(|| "auto".to_owned());
    let backend = BackendChoice::parse(&requested, "?backend=").map_err(|e| {
        (
            "VGPU-UNKNOWN-BACKEND".to_owned(),
            format!("?backend={requested}: {e}"),
        )
    })?;
    let canvas: web_sys::HtmlCanvasElement = window
        .document()
        .and_then(|d| d.get_element_by_id("canvas"))
        .ok_or_else(|| ("JS".to_owned(), "no <canvas id=\"canvas\">".to_owned()))?
        .dyn_into()
        .map_err(|_| ("JS".to_owned(), "#canvas is not a canvas".to_owned()))?;
    canvas.set_width(WIDTH);
    canvas.set_height(HEIGHT);

    // A canvas is a wgpu::SurfaceTarget on wasm32: WebGL2 needs it at adapter creation.
    let options = GpuOptions {
        backend,
        ..Default::default()
    };
    let (gpu, surface) = Gpu::new_for_window_async(
        &options,
        wgpu::SurfaceTarget::Canvas(canvas),
        &SurfaceDesc::new(WIDTH, HEIGHT),
    )
    .await
    .map_err(vgpu_error)?;
    let info = gpu.adapter_info().clone();
    let scene = Scene::new(&gpu).map_err(vgpu_error)?;

    let mut reports = Vec::with_capacity(FRAMES as usize);
    for frame in 0..FRAMES {
        next_frame().await?;
        reports.push(scene.frame(&gpu, &surface, frame).map_err(vgpu_error)?);
    }
    let skipped = reports.iter().filter(|r| r.skipped.is_some()).count();
    let checked = &reports[(FRAMES - CHECKED) as usize..];
    let sum = |f: fn(&vgpu::FrameReport) -> u64| checked.iter().map(f).sum::<u64>();
    let bind_groups_created = sum(|r| r.stats.bind_groups_created);
    let bytes_uploaded = sum(|r| r.stats.bytes_uploaded);
    let first = &reports[0].stats;

    // The same frame into an offscreen target, read back without blocking; on WebGL2 the
    // read-back completes at a later poll of the device, so poll once per animation frame.
    let target = gpu.target(WIDTH, HEIGHT).map_err(vgpu_error)?;
    scene.frame(&gpu, &target, FRAMES - 1).map_err(vgpu_error)?;
    let image = Rc::new(RefCell::new(None));
    {
        let (image, target) = (image.clone(), target.clone());
        spawn_local(async move {
            let result = target.read_rgba8_async().await;
            *image.borrow_mut() = Some(result);
        });
    }
    let mut waited = 0;
    while image.borrow().is_none() {
        if waited == READ_BACK_FRAMES {
            return Err((
                "TIMEOUT".to_owned(),
                format!("read-back not done after {READ_BACK_FRAMES} frames"),
            ));
        }
        next_frame().await?;
        let _ = gpu.device().poll(wgpu::PollType::Poll);
        waited += 1;
    }
    let image = image
        .borrow_mut()
        .take()
        .expect("set above")
        .map_err(vgpu_error)?;
    let errors = gpu.take_uncaptured_errors();
    if let Some(e) = errors.first() {
        return Err((
            "VGPU-UNCAPTURED".to_owned(),
            format!(
                "{} uncaptured wgpu error(s), the first: {e:?}",
                errors.len()
            ),
        ));
    }

    // The blocking read-back cannot wait on the web: it returns VGPU-DEVICE-WOULD-BLOCK instead
    // (unless the GPU work is already done). Last, on a target of its own: its map may still be
    // pending when the page reports.
    let probe = gpu.target(WIDTH, HEIGHT).map_err(vgpu_error)?;
    scene.frame(&gpu, &probe, FRAMES - 1).map_err(vgpu_error)?;
    let blocking_read = match probe.read_rgba8() {
        Ok(_) => "ok".to_owned(),
        Err(e) => e.code().to_owned(),
    };

    let mut pixels = String::new();
    for (i, (x, y, _)) in PROBES.iter().enumerate() {
        let [r, g, b, a] = image.pixel(*x, *y).unwrap_or([0; 4]);
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(
            pixels,
            "{sep}{{\"x\":{x},\"y\":{y},\"rgba\":[{r},{g},{b},{a}]}}"
        );
    }
    Ok(format!(
        "{{\"requested\":{},\"backend\":{},\"adapter\":{},\"surface_format\":{},\
         \"width\":{WIDTH},\"height\":{HEIGHT},\"frames\":{FRAMES},\"animated_frames\":{ANIMATED},\
         \"skipped_frames\":{skipped},\"checked_frames\":{CHECKED},\
         \"first_frame\":{{\"bind_groups_created\":{},\"bytes_uploaded\":{}}},\
         \"checked\":{{\"bind_groups_created\":{bind_groups_created},\"bytes_uploaded\":{bytes_uploaded}}},\
         \"read_back_polls\":{waited},\"blocking_read\":{},\"pixels\":[{pixels}]}}",
        quote(&requested),
        quote(&format!("{:?}", info.backend)),
        quote(&info.name),
        quote(&format!("{:?}", surface.format())),
        first.bind_groups_created,
        first.bytes_uploaded,
        quote(&blocking_read),
    ))
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
