//! `soak`: a million frames on the noop device with random mixes of changing and static values,
//! draws created and removed, cameras set per pass, and bundles recorded and replayed; prints
//! resident memory, live heap bytes, uniform pages, slots, cached bind groups and the auto-bundles
//! recorded and draws replayed from them (on by default) every `--every`
//! frames, and whether they stayed flat after warm-up.
//!
//! ```sh
//! cargo run --release -p vgpu-benches --bin soak -- --frames 1000000
//! ```
//!
//! Options: `--frames N` (default 1 000 000), `--every N` (default 100 000), `--max-draws N`
//! (default 48), `--seed N`. Exits 1 if an error occurred or a gauge grew after warm-up (the
//! first report): the pages, retained slots and cached bind groups may not exceed their warm-up
//! high-water mark by more than the churn of one report's draws allows, and resident memory
//! and the live heap may not grow by more than 10 % each.

use std::process::ExitCode;
use std::time::Instant;

use vgpu::{Bundle, Draw, DrawDesc, Gpu, SharedUniforms, Target, Uniform, value};

const SHADER: &str = "
struct Camera { view_projection: mat4x4f, tint: vec4f }
struct Object { world: mat4x4f, color: vec4f }
@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let p = vec4f(f32(i & 1u), f32(i >> 1u), 0.0, 1.0);
    return camera.view_projection * object.world * p;
}
@fragment fn fs_main() -> @location(0) vec4f { return object.color * camera.tint; }
";

/// The `object` binding as a typed value (half of the draws use it, half use `value!`).
#[derive(Clone, Copy, Uniform)]
struct Object {
    world: [[f32; 4]; 4],
    color: [f32; 4],
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn float(&mut self) -> f32 {
        (self.below(1 << 20) as f32) / (1 << 20) as f32
    }
}

struct Options {
    frames: u64,
    every: u64,
    max_draws: usize,
    seed: u64,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        frames: 1_000_000,
        every: 100_000,
        max_draws: 48,
        seed: 0x5eed,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            println!(
                "usage: soak [--frames N] [--every N] [--max-draws N] [--seed N]\n\
                 Runs N frames on the noop device with random value changes, draws created and \
                 removed, per-pass cameras and bundles; prints gauges every --every frames."
            );
            std::process::exit(0);
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number: u64 = value
            .parse()
            .map_err(|_| format!("{flag}: expected a number, got {value:?}"))?;
        match flag.as_str() {
            "--frames" => options.frames = number,
            "--every" => options.every = number.max(1),
            "--max-draws" => options.max_draws = number.max(1) as usize,
            "--seed" => options.seed = number.max(1),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(options)
}

/// Resident set size in KiB (`VmRSS` of /proc/self/status; 0 where there is none).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn matrix(rng: &mut Rng) -> [[f32; 4]; 4] {
    let s = 0.5 + rng.float();
    [
        [s, 0.0, 0.0, 0.0],
        [0.0, s, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [rng.float(), rng.float(), 0.0, 1.0],
    ]
}

struct Soak {
    gpu: Gpu,
    shader: vgpu::Shader,
    camera: SharedUniforms,
    targets: [Target; 2],
    draws: Vec<(Draw, bool)>,
    bundle: Option<Bundle>,
    created: u64,
    removed: u64,
    bundles_recorded: u64,
}

impl Soak {
    fn new() -> vgpu::Result<Soak> {
        let gpu = Gpu::noop();
        let shader = gpu.shader("soak.wgsl", SHADER)?;
        let camera = gpu.uniforms(value! {
            view_projection: glam_free_identity(),
            tint: [1.0, 1.0, 1.0, 1.0],
        })?;
        let targets = [gpu.target(16, 16)?, gpu.target(16, 16)?];
        Ok(Soak {
            gpu,
            shader,
            camera,
            targets,
            draws: Vec::new(),
            bundle: None,
            created: 0,
            removed: 0,
            bundles_recorded: 0,
        })
    }

    fn create_draw(&mut self, rng: &mut Rng) -> vgpu::Result<()> {
        let typed = rng.chance(50);
        let draw = self.gpu.draw(
            &self.shader,
            DrawDesc {
                label: format!("soak draw {}", self.created),
                ..Default::default()
            },
        )?;
        draw.set("camera", &self.camera)?;
        self.set_object(&draw, typed, rng)?;
        self.created += 1;
        self.draws.push((draw, typed));
        self.bundle = None;
        Ok(())
    }

    fn set_object(&self, draw: &Draw, typed: bool, rng: &mut Rng) -> vgpu::Result<()> {
        let world = matrix(rng);
        let color = [rng.float(), rng.float(), rng.float(), 1.0];
        if typed {
            draw.set("object", &Object { world, color })
        } else {
            draw.set("object", value! { world: world, color: color })
        }
    }

    fn frame(&mut self, rng: &mut Rng, max_draws: usize) -> vgpu::Result<()> {
        // Churn: create or remove a draw now and then.
        if self.draws.len() < max_draws / 2 || (self.draws.len() < max_draws && rng.chance(2)) {
            self.create_draw(rng)?;
        } else if !self.draws.is_empty() && rng.chance(2) {
            let i = rng.below(self.draws.len() as u64) as usize;
            self.draws.swap_remove(i);
            self.removed += 1;
            self.bundle = None;
        }
        // Values: a static frame, a few changes, or every value changes.
        match rng.below(10) {
            0..=4 => {}
            5..=7 => {
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(self.draws.len() as u64) as usize;
                    let (draw, typed) = &self.draws[i];
                    self.set_object(draw, *typed, rng)?;
                }
            }
            _ => {
                for (draw, typed) in &self.draws {
                    self.set_object(draw, *typed, rng)?;
                }
            }
        }
        // Bundles: sometimes the frame replays a bundle of all draws (recorded again once a
        // draw was created or removed, or a draw's bindings changed).
        let use_bundle = rng.chance(30);
        if use_bundle && self.bundle.is_none() {
            let draws = &self.draws;
            self.bundle = Some(self.gpu.bundle(
                "soak bundle",
                self.targets[0].signature(),
                |b| {
                    for (draw, _) in draws {
                        b.draw(draw)?;
                    }
                    Ok(())
                },
            )?);
            self.bundles_recorded += 1;
        }
        let per_pass_camera = rng.chance(50);
        let camera = &self.camera;
        let draws = &self.draws;
        let targets = &self.targets;
        let bundle = if use_bundle {
            self.bundle.as_ref()
        } else {
            None
        };
        let tint_a = [1.0, rng.float(), 1.0, 1.0];
        self.gpu.frame(|f| {
            for (pass, target) in targets.iter().enumerate() {
                if per_pass_camera {
                    camera.set(value! {
                        view_projection: glam_free_identity(),
                        tint: if pass == 0 { tint_a } else { [0.5, 0.5, 0.5, 1.0] },
                    })?;
                }
                f.pass(target, |p| match bundle {
                    Some(b) if pass == 0 => p.execute(b),
                    _ => {
                        for (draw, _) in draws {
                            p.draw(draw)?;
                        }
                        Ok(())
                    }
                })?;
            }
            Ok(())
        })?;
        Ok(())
    }
}

fn glam_free_identity() -> [[f32; 4]; 4] {
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// One report line's gauges.
#[derive(Clone, Copy)]
struct Gauges {
    rss_kib: u64,
    heap_kib: u64,
    pages: usize,
    live_slots: usize,
    retained_slots: usize,
    bind_groups: usize,
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("soak: {e} (see --help)");
            return ExitCode::from(2);
        }
    };
    let mut soak = match Soak::new() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("soak: setup failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut rng = Rng(options.seed);
    println!(
        "{:>9} {:>10} {:>10} {:>6} {:>6} {:>11} {:>9} {:>12} {:>6} {:>8} {:>8} {:>8} {:>9} {:>10} {:>8}",
        "frames",
        "rss_kib",
        "heap_kib",
        "pages",
        "empty",
        "live_slots",
        "retained",
        "bind_groups",
        "draws",
        "created",
        "removed",
        "bundles",
        "auto_rec",
        "auto_draws",
        "secs"
    );
    let start = Instant::now();
    let mut warm: Option<Gauges> = None;
    let mut peak_after_warm: Option<Gauges> = None;
    for frame in 1..=options.frames {
        if let Err(e) = soak.frame(&mut rng, options.max_draws) {
            eprintln!("soak: frame {frame}: {e}");
            return ExitCode::FAILURE;
        }
        if frame % options.every == 0 || frame == options.frames {
            let engine = soak.gpu.uniform_gauges();
            // Auto-bundles (on by default): recorded, and draws replayed from them, so far.
            let stats = soak.gpu.stats();
            let g = Gauges {
                rss_kib: rss_kib(),
                heap_kib: vgpu_benches::live_heap_bytes() / 1024,
                pages: engine.pages,
                live_slots: engine.live_slots,
                retained_slots: engine.retained_slots,
                bind_groups: soak.gpu.cached_bind_groups(),
            };
            println!(
                "{:>9} {:>10} {:>10} {:>6} {:>6} {:>11} {:>9} {:>12} {:>6} {:>8} {:>8} {:>8} {:>9} {:>10} {:>8.1}",
                frame,
                g.rss_kib,
                g.heap_kib,
                g.pages,
                engine.empty_pages,
                g.live_slots,
                g.retained_slots,
                g.bind_groups,
                soak.draws.len(),
                soak.created,
                soak.removed,
                soak.bundles_recorded,
                stats.auto_bundles_recorded,
                stats.auto_bundle_draws,
                start.elapsed().as_secs_f64()
            );
            match (&warm, &mut peak_after_warm) {
                (None, _) => warm = Some(g),
                (Some(_), None) => peak_after_warm = Some(g),
                (Some(_), Some(p)) => {
                    p.rss_kib = p.rss_kib.max(g.rss_kib);
                    p.heap_kib = p.heap_kib.max(g.heap_kib);
                    p.pages = p.pages.max(g.pages);
                    p.live_slots = p.live_slots.max(g.live_slots);
                    p.retained_slots = p.retained_slots.max(g.retained_slots);
                    p.bind_groups = p.bind_groups.max(g.bind_groups);
                }
            }
        }
    }
    let errors = soak.gpu.take_uncaptured_errors();
    if !errors.is_empty() {
        eprintln!("soak: uncaptured wgpu errors: {errors:?}");
        return ExitCode::FAILURE;
    }
    let (Some(w), Some(p)) = (warm, peak_after_warm) else {
        println!("flat: not judged (fewer than two reports)");
        return ExitCode::SUCCESS;
    };
    // Draw churn moves the slot and group counts by at most the draw pool's size (each draw
    // holds one home slot and one group per page it was bound on).
    let churn = options.max_draws * 2;
    let grew = [
        ("rss_kib", p.rss_kib > w.rss_kib + w.rss_kib / 10),
        ("heap_kib", p.heap_kib > w.heap_kib + w.heap_kib / 10),
        ("pages", p.pages > w.pages + 2),
        ("live_slots", p.live_slots > w.live_slots + churn),
        (
            "retained_slots",
            p.retained_slots > w.retained_slots + churn,
        ),
        ("bind_groups", p.bind_groups > w.bind_groups + churn),
    ];
    let grown: Vec<&str> = grew.iter().filter(|(_, g)| *g).map(|(n, _)| *n).collect();
    println!(
        "after warm-up (frame {}): rss {} -> max {} KiB, heap {} -> max {} KiB, pages {} -> max {}, live slots {} -> max {}, \
         retained {} -> max {}, bind groups {} -> max {}",
        options.every,
        w.rss_kib,
        p.rss_kib,
        w.heap_kib,
        p.heap_kib,
        w.pages,
        p.pages,
        w.live_slots,
        p.live_slots,
        w.retained_slots,
        p.retained_slots,
        w.bind_groups,
        p.bind_groups
    );
    if grown.is_empty() {
        println!("flat: yes");
        ExitCode::SUCCESS
    } else {
        println!("flat: no ({} grew)", grown.join(", "));
        ExitCode::FAILURE
    }
}
