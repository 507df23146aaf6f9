//! The page: creates a `Gpu` for the `<canvas id="canvas">` (`?backend=webgl|webgpu|auto`),
//! renders [`FRAMES`] frames by `requestAnimationFrame`, then [`TIMED`] steady frames with
//! auto-bundles on and [`TIMED`] with them off (their draws replayed and median encode times),
//! [`REWARM`] with them on again, renders the frame into an offscreen target (replayed from its
//! auto-bundles by the last of [`REWARM`] renders), reads it back asynchronously and writes the
//! result into `document.title`: `DONE {json}`, or `ERROR {json}` when something failed (`code`
//! is vgpu's error code).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::rc::Rc;
use std::time::Duration;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};

use crate::scene::{
    ANIMATED, CHECKED, DRAWS_PER_FRAME, FRAMES, HEIGHT, PROBES, REWARM, Scene, TIMED, WIDTH,
};
use vgpu::{BackendChoice, FrameReport, Gpu, GpuOptions, Surface, SurfaceDesc};

/// Frames to wait for the read-back before giving up (about 10 s at 60 Hz).
const READ_BACK_FRAMES: u32 = 600;

/// Runs when the module is instantiated: `app.html` is the app runner's page
/// ([`crate::app`]), any other page this one.
#[wasm_bindgen(start)]
pub(crate) fn start() {
    let path = web_sys::window().and_then(|w| w.location().pathname().ok());
    if path.is_some_and(|p| p.ends_with("/app.html")) {
        crate::app::start();
        return;
    }
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
    let sum = |f: fn(&FrameReport) -> u64| checked.iter().map(f).sum::<u64>();
    let bind_groups_created = sum(|r| r.stats.bind_groups_created);
    let bytes_uploaded = sum(|r| r.stats.bytes_uploaded);
    let checked_auto_bundle_draws = sum(|r| r.stats.auto_bundle_draws);
    let first = &reports[0].stats;

    let mut auto = auto_bundle_phase(&gpu, &surface, &scene).await?;
    let skipped = skipped + auto.skipped;

    // The same frame into an offscreen target, read back without blocking; on WebGL2 the
    // read-back completes at a later poll of the device, so poll once per animation frame.
    // Rendered REWARM times: the frame read back is replayed from its auto-bundles.
    let target = gpu.target(WIDTH, HEIGHT).map_err(vgpu_error)?;
    for _ in 0..REWARM {
        let report = scene.frame(&gpu, &target, FRAMES - 1).map_err(vgpu_error)?;
        auto.read_back_draws = report.stats.auto_bundle_draws;
    }
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
         \"checked\":{{\"bind_groups_created\":{bind_groups_created},\"bytes_uploaded\":{bytes_uploaded},\
         \"auto_bundle_draws\":{checked_auto_bundle_draws}}},\"auto_bundles\":{},\
         \"read_back_polls\":{waited},\"blocking_read\":{},\"pixels\":[{pixels}]}}",
        quote(&requested),
        quote(&format!("{:?}", info.backend)),
        quote(&info.name),
        quote(&format!("{:?}", surface.format())),
        first.bind_groups_created,
        first.bytes_uploaded,
        auto.json(cross_origin_isolated(&window)),
        quote(&blocking_read),
    ))
}

/// What the auto-bundle phase measured: [`TIMED`] steady frames with auto-bundles on, as many
/// off, then [`REWARM`] on again (all into the canvas).
#[derive(Debug, Default)]
struct AutoBundleRun {
    /// Draws replayed from auto-bundles, summed over the frames on.
    draws: u64,
    /// Passes recorded directly in the frames on, and the first of them (`pass: reason`).
    direct_passes: usize,
    first_direct: Option<String>,
    /// Draws replayed in the frames off (0: off means off).
    draws_off: u64,
    /// `FrameReport::encode` of each frame on and off (frames whose surface was skipped left out).
    encode_on: Vec<Duration>,
    encode_off: Vec<Duration>,
    /// Draws replayed in the last frame on again (the canvas's last frame, screenshotted).
    rewarmed_draws: u64,
    /// Draws replayed in the frame read back (set by the caller).
    read_back_draws: u64,
    /// Frames whose surface was skipped.
    skipped: usize,
}

impl AutoBundleRun {
    /// `{"frames":…,"draws":…,…}`, times in µs.
    fn json(&self, isolated: bool) -> String {
        let first_direct = self
            .first_direct
            .as_deref()
            .map_or_else(|| "null".to_owned(), quote);
        format!(
            "{{\"frames\":{TIMED},\"draws\":{},\"draws_per_frame_expected\":{DRAWS_PER_FRAME},\
             \"direct_passes\":{},\"first_direct\":{first_direct},\"draws_off\":{},\
             \"encode_us_on\":{:.1},\"encode_us_off\":{:.1},\"rewarm_frames\":{REWARM},\
             \"rewarmed_draws\":{},\"read_back_draws\":{},\"cross_origin_isolated\":{isolated}}}",
            self.draws,
            self.direct_passes,
            self.draws_off,
            median_us(&mut self.encode_on.clone()),
            median_us(&mut self.encode_off.clone()),
            self.rewarmed_draws,
            self.read_back_draws,
        )
    }
}

/// Renders the steady frame [`TIMED`] times with auto-bundles on, [`TIMED`] times off, then
/// [`REWARM`] times on again, one frame per animation frame.
async fn auto_bundle_phase(
    gpu: &Gpu,
    surface: &Surface,
    scene: &Scene,
) -> Result<AutoBundleRun, Failure> {
    let mut run = AutoBundleRun::default();
    let steady = FRAMES - 1;
    for on in [true, false] {
        gpu.set_auto_bundles(on);
        for _ in 0..TIMED {
            next_frame().await?;
            let report = scene.frame(gpu, surface, steady).map_err(vgpu_error)?;
            if report.skipped.is_some() {
                run.skipped += 1;
                continue;
            }
            if on {
                run.draws += report.stats.auto_bundle_draws;
                run.direct_passes += report.direct_passes.len();
                if run.first_direct.is_none() {
                    run.first_direct = report.direct_passes.first().map(|p| p.to_string());
                }
                run.encode_on.push(report.encode);
            } else {
                run.draws_off += report.stats.auto_bundle_draws;
                run.encode_off.push(report.encode);
            }
        }
    }
    gpu.set_auto_bundles(true);
    for _ in 0..REWARM {
        next_frame().await?;
        let report = scene.frame(gpu, surface, steady).map_err(vgpu_error)?;
        run.skipped += usize::from(report.skipped.is_some());
        run.rewarmed_draws = report.stats.auto_bundle_draws;
    }
    Ok(run)
}

/// The median of `times` in µs (0 when empty).
fn median_us(times: &mut [Duration]) -> f64 {
    times.sort_unstable();
    let n = times.len();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => us(times[n / 2]),
        _ => (us(times[n / 2 - 1]) + us(times[n / 2])) / 2.0,
    }
}

/// `window.crossOriginIsolated`: whether the page's clock is precise (5 µs in Chromium) rather
/// than coarsened to 100 µs (`serve.py` sends the headers that isolate it).
fn cross_origin_isolated(window: &web_sys::Window) -> bool {
    js_sys::Reflect::get(window, &JsValue::from_str("crossOriginIsolated"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
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
