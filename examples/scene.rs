//! The upstream report's scene
//! ([vercel-labs/vgpu#483](https://github.com/vercel-labs/vgpu/issues/483)): ~1 500 objects, two
//! shadow maps and a lit main pass, one shared camera block re-set before each pass, a
//! per-object struct on every draw. Renders `--frames N` frames (default 120) headless, waiting
//! for each, writes `scene.png`, prints per-frame figures with p50/p95 and says whether the frame
//! is CPU- or GPU-bound (the CPU recording time against the GPU pass time). Shows progress while
//! it renders (`frame 30/120, 2.1 s, ETA 6.3 s`, once a second after the first second; in place
//! on a terminal). On the noop device (`VGPU_BACKEND=noop`) nothing is rendered: it prints the
//! counters and writes no PNG. `--plot frames.png` also draws the per-frame encode, submit and GPU
//! times as a chart.
//!
//! ```text
//! cargo run --release --example scene -- [--frames N] [--out scene.png] [--small] [--plot frames.png]
//! VGPU_BACKEND=gl cargo run --release --example scene
//! ```

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use vgpu_examples::quantile;
use vgpu_examples::scene::{Scene, SceneConfig};

/// Frame time step of the animation (seconds).
const STEP: f32 = 1.0 / 60.0;

/// One row of the table.
struct Row {
    frame: u64,
    draws: u64,
    bind_groups: u64,
    kib_uploaded: f64,
    encode: Duration,
    submit: Duration,
    wait: Duration,
    gpu: Option<Duration>,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn print_row(name: &str, cells: [String; 7]) {
    println!(
        "{name:>6} {:>6} {:>11} {:>9} {:>10} {:>10} {:>9} {:>8}",
        cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]
    );
}

const USAGE: &str = "usage: scene [--frames N] [--out scene.png] [--small] [--plot frames.png]
  --frames N   frames to render (default 120)
  --out PATH   where to write the last frame (default scene.png; not written on the noop device)
  --small      a smaller scene
  --plot PATH  also write a chart of encode, submit and GPU ms per frame
  VGPU_BACKEND=auto|vulkan|gl|noop chooses the device";

/// The command line: frames, PNG path, small scene, plot path.
type Args = (u64, String, bool, Option<String>);

/// `None`: `--help` was asked for.
fn args() -> Result<Option<Args>, String> {
    let (mut frames, mut out, mut small, mut plot) = (120, "scene.png".to_owned(), false, None);
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--frames" => {
                frames = value()?.parse().map_err(|e| format!("--frames: {e}"))?;
                if frames == 0 {
                    return Err("--frames must be at least 1".into());
                }
            }
            "--out" => out = value()?,
            "--small" => small = true,
            "--plot" => plot = Some(value()?),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(Some((frames, out, small, plot)))
}

/// Progress while frames render: nothing during the first second, then at most one update a
/// second: a line (`frame 30/120, 2.1 s, ETA 6.3 s`) when stdout is not a terminal, the same
/// text rewritten in place (`\r`) when it is.
struct Progress {
    start: Instant,
    last: Option<Instant>,
    terminal: bool,
    shown: bool,
}

impl Progress {
    fn new() -> Self {
        Progress {
            start: Instant::now(),
            last: None,
            terminal: std::io::stdout().is_terminal(),
            shown: false,
        }
    }

    /// `done` of `total` frames are rendered.
    fn update(&mut self, done: u64, total: u64) {
        let now = Instant::now();
        let since = now.duration_since(self.last.unwrap_or(self.start));
        if since < Duration::from_secs(1) || done == 0 {
            return;
        }
        self.last = Some(now);
        let elapsed = now.duration_since(self.start).as_secs_f64();
        let eta = elapsed / done as f64 * total.saturating_sub(done) as f64;
        let text = format!("frame {done}/{total}, {elapsed:.1} s, ETA {eta:.1} s");
        let mut out = std::io::stdout().lock();
        // Progress is a courtesy: a closed stdout does not stop the rendering.
        let _ = if self.terminal {
            write!(out, "\r{text:<48}").and_then(|()| out.flush())
        } else {
            writeln!(out, "{text}")
        };
        self.shown = true;
    }

    /// Ends an in-place progress line.
    fn finish(&self) {
        if self.terminal && self.shown {
            println!();
        }
    }
}

fn main() -> std::process::ExitCode {
    vgpu_examples::report(run())
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let Some((frames, out, small, plot)) = args()? else {
        println!("{USAGE}");
        return Ok(());
    };
    let started = Instant::now();
    let gpu = vgpu::Gpu::from_env()?;
    let info = gpu.adapter_info();
    println!("adapter: {} ({:?})", info.name, info.backend);
    let config = if small {
        SceneConfig::small()
    } else {
        SceneConfig::default()
    };
    let scene = Scene::new(&gpu, config)?;
    println!(
        "scene: {} objects, {} draws per frame (2 shadow maps {s}x{s}, main {}x{}), {frames} frames",
        scene.objects(),
        scene.draws_per_frame(),
        config.width,
        config.height,
        s = config.shadow_size,
    );
    let setup = started.elapsed();

    let mut rows = Vec::with_capacity(frames as usize);
    let mut progress = Progress::new();
    for i in 0..frames {
        progress.update(i, frames);
        let report = scene.render(i as f32 * STEP)?;
        let t = Instant::now();
        gpu.wait_idle()?;
        rows.push(Row {
            frame: report.index,
            draws: report.stats.operations_recorded,
            bind_groups: report.stats.bind_groups_created,
            kib_uploaded: report.stats.bytes_uploaded as f64 / 1024.0,
            encode: report.encode,
            submit: report.submit,
            wait: t.elapsed(),
            gpu: report.gpu_total(),
        });
    }
    progress.finish();
    let errors = gpu.take_uncaptured_errors();
    if !errors.is_empty() {
        return Err(format!("wgpu reported {} errors: {:?}", errors.len(), errors[0]).into());
    }
    // The noop device executes nothing: its target holds no image, only the counters are real.
    let noop = gpu.is_noop();
    if !noop {
        scene.target().save_png(&out)?;
    }

    println!();
    print_row(
        "frame",
        [
            "draws",
            "bind groups",
            "KB up",
            "encode ms",
            "submit ms",
            "wait ms",
            "GPU ms",
        ]
        .map(str::to_owned),
    );
    let shown = |r: &Row| r.frame <= 3 || r.frame.is_multiple_of(20) || r.frame == frames;
    for r in rows.iter().filter(|r| shown(r)) {
        print_row(
            &r.frame.to_string(),
            [
                r.draws.to_string(),
                r.bind_groups.to_string(),
                format!("{:.2}", r.kib_uploaded),
                format!("{:.2}", ms(r.encode)),
                format!("{:.2}", ms(r.submit)),
                format!("{:.2}", ms(r.wait)),
                r.gpu.map_or("n/a".to_owned(), |g| format!("{:.2}", ms(g))),
            ],
        );
    }
    // Percentiles over steady frames (the first frame creates pipelines, pages, bind groups).
    let steady = if rows.len() > 1 {
        &rows[1..]
    } else {
        &rows[..]
    };
    let column = |f: &dyn Fn(&Row) -> f64| steady.iter().map(f).collect::<Vec<f64>>();
    let gpu_times: Vec<f64> = steady.iter().filter_map(|r| r.gpu.map(ms)).collect();
    let mut summary = Vec::new();
    for (name, q) in [("p50", 0.5), ("p95", 0.95)] {
        let cell = |f: &dyn Fn(&Row) -> f64, digits: usize| {
            format!("{:.*}", digits, quantile(&column(f), q))
        };
        let gpu_cell = if gpu_times.is_empty() {
            "n/a".to_owned()
        } else {
            format!("{:.2}", quantile(&gpu_times, q))
        };
        print_row(
            name,
            [
                cell(&|r| r.draws as f64, 0),
                cell(&|r| r.bind_groups as f64, 0),
                cell(&|r| r.kib_uploaded, 2),
                cell(&|r| ms(r.encode), 2),
                cell(&|r| ms(r.submit), 2),
                cell(&|r| ms(r.wait), 2),
                gpu_cell,
            ],
        );
        summary.push((
            quantile(&column(&|r| ms(r.encode)), q),
            quantile(&column(&|r| ms(r.encode + r.submit)), q),
        ));
    }
    println!(
        "(frames 1-3, every 20th and the last shown; p50/p95 over frames 2..={}; encode = record \
         + CommandEncoder::finish, submit = uploads + Queue::submit, wait = wait_idle after submit; \
         GPU = timestamp queries, reported a frame or two late)",
        rows.len().max(2)
    );

    // Seed 000: compare the CPU recording time with the GPU pass time.
    let (encode_p50, cpu_p50) = summary[0];
    match (!gpu_times.is_empty()).then(|| quantile(&gpu_times, 0.5)) {
        Some(gpu_p50) => {
            let vgpu_examples::Verdict {
                bound,
                ratio,
                advice,
            } = vgpu_examples::verdict(encode_p50, gpu_p50);
            println!(
                "verdict: {bound}: CPU recording {encode_p50:.2} ms per frame (encode, p50) vs GPU \
                 {gpu_p50:.2} ms (sum of passes, p50), {ratio:.1}x; {advice}"
            );
        }
        None => println!(
            "verdict: GPU time not measurable on this adapter (no timestamp queries); CPU \
             recording {encode_p50:.2} ms per frame (encode, p50), waiting for the GPU {:.2} ms \
             (p50)",
            quantile(&column(&|r| ms(r.wait)), 0.5)
        ),
    }
    let on_gl = info.backend == wgpu::Backend::Gl;
    println!(
        "CPU frame time {cpu_p50:.2} ms (encode + submit, p50){}",
        if on_gl {
            "; on GL wgpu replays the commands to the driver inside submit, so submit also holds \
             driver (on llvmpipe: rasterizer) work"
        } else {
            ""
        }
    );
    let timing = format!(
        "{} frames in {:.1} s, setup {:.1} s",
        rows.len(),
        started.elapsed().as_secs_f64(),
        setup.as_secs_f64()
    );
    if noop {
        println!(
            "nothing was rendered: the noop device executes no GPU work (the counters above are \
             exact, the times are not a GPU's), so {out} was not written; choose a device with \
             VGPU_BACKEND=vulkan or gl ({timing})"
        );
    } else {
        println!("wrote {out} ({timing})");
    }
    if let Some(path) = plot {
        write_plot(&rows, &path, &scene)?;
    }
    Ok(())
}

/// `--plot`: encode, submit and GPU milliseconds per frame as a PNG chart.
fn write_plot(rows: &[Row], path: &str, scene: &Scene) -> std::io::Result<()> {
    use vgpu_examples::plot::{Series, write_plot};
    let column = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).collect::<Vec<f64>>();
    let (encode, submit) = (column(&|r| ms(r.encode)), column(&|r| ms(r.submit)));
    // NaN where a frame has no GPU time (the first frames: read back a frame or two late).
    let gpu = column(&|r| r.gpu.map_or(f64::NAN, ms));
    let measured = gpu.iter().any(|g| g.is_finite());
    let series = [
        ("encode", [31, 119, 180], &encode),
        ("submit", [255, 127, 14], &submit),
        (
            if measured {
                "GPU"
            } else {
                "GPU: n/a (no timestamp queries)"
            },
            [44, 160, 44],
            &gpu,
        ),
    ]
    .map(|(name, color, values)| Series {
        name,
        color,
        values,
    });
    let title = format!(
        "scene: {} draws per frame, ms per frame",
        scene.draws_per_frame()
    );
    write_plot(std::path::Path::new(path), &title, "ms", &series)?;
    println!(
        "wrote {path} (ms per frame: encode, submit{})",
        if measured {
            ", GPU"
        } else {
            "; no GPU line, the adapter has no timestamp queries"
        }
    );
    Ok(())
}
