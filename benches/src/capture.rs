//! The `uniform-capture` benchmark harness: command line, scenarios, measurement loop and the
//! JSON report whose keys are a contract (`benches/README.md`).
//!
//! Every mode renders `draws` draws in `passes` passes per frame into an 8x8 `Rgba8Unorm` target,
//! each draw binding a shared `Frame { view_projection }` at group 0 and its own
//! `Object { world }` at group 1 ([`SHADER_WGSL`]), and waits for each frame to complete.

use std::error::Error;
use std::fmt::{self, Write as _};
use std::ops::Range;
use std::time::Duration;

use vgpu_core::{BackendChoice, StatsSnapshot, UncapturedError};

/// Error type of the benchmark runs (device creation, validation, ...): a message to print.
pub type BenchError = Box<dyn Error + Send + Sync>;

/// The upstream report's shader (vercel-labs/vgpu#483): one shared camera at group 0, one object
/// at group 1.
pub const SHADER_WGSL: &str = "struct Frame { view_projection: mat4x4f }
struct Object { world: mat4x4f }
@group(0) @binding(0) var<uniform> frame: Frame;
@group(1) @binding(0) var<uniform> object: Object;
@vertex fn vs_main() -> @builtin(position) vec4f { return frame.view_projection * object.world * vec4f(0, 0, 0, 1); }
@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1); }
";

/// Width and height of the render target.
pub const TARGET_SIZE: u32 = 8;

/// Usage text printed by `--help` and after a command-line error.
pub const USAGE: &str = "\
usage: uniform-capture [--mode struct|typed|buffer|raw|raw-bundle]
                       [--scenario static|per-pass-camera|one-changes|all-change|reset-all
                                   |reshuffle]
                       [--draws N] [--passes P] [--frames F] [--warmup W]
                       [--backend auto|vulkan|gl|metal|dx12|webgpu|noop] [--json]

  --mode      struct: vgpu shared uniforms + per-draw struct values (value!) (default)
              typed:  as struct, the values derived Rust structs (#[derive(vgpu::Uniform)])
              buffer: user-owned vgpu buffers bound by identity (the seed's workaround)
              raw:    hand-written wgpu, dynamic offsets into one 256-aligned page
              raw-bundle: raw with one render bundle per pass, recorded at setup and
                      replayed each frame (reshuffle: recorded per draw, as raw)
  --scenario  static (default) | per-pass-camera | one-changes | all-change
              | reset-all (every object re-set each frame to the value it holds)
              | reshuffle (each pass rotates the draw order and culls a tenth: no two
                consecutive passes record the same draws; values do not change)
  --draws     draws per pass, >= 1 (default 1000)
  --passes    render passes per frame, >= 1 (default 2)
  --frames    measured frames, >= 1 (default 20)
  --warmup    frames run before measuring (default 3)
  --backend   auto (default) | vulkan | gl | noop
  --json      print one JSON object on the last line of stdout

On glibc the process fixes malloc's mmap threshold at 32 MiB and its trim threshold at 64 MiB
before it starts, so that every mode runs in the same allocator regime; UNIFORM_CAPTURE_DEFAULT_MALLOC=1 keeps glibc's default
(as does a run under valgrind).
";

/// Which implementation renders the frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Idiomatic vgpu: one `SharedUniforms` camera, a struct value set per draw by name.
    Struct,
    /// As [`Mode::Struct`], the camera and object values derived Rust structs
    /// (`#[derive(vgpu::Uniform)]`, the typed path) instead of `value!`s.
    Typed,
    /// The seed's workaround: user-owned vgpu buffers bound by identity.
    Buffer,
    /// Hand-written wgpu: the expert command stream, the per-draw reference.
    Raw,
    /// [`Mode::Raw`] with one `wgpu::RenderBundle` per pass recorded at setup and replayed each
    /// frame (values live at fixed slots, so the bundles stay valid); in
    /// [`Scenario::Reshuffle`] it records per draw as `raw` does.
    RawBundle,
}

impl Mode {
    /// The accepted names, as on the command line.
    pub const NAMES: [&'static str; 5] = ["struct", "typed", "buffer", "raw", "raw-bundle"];

    /// Parses a command-line name (exact, lowercase).
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "struct" => Some(Mode::Struct),
            "typed" => Some(Mode::Typed),
            "buffer" => Some(Mode::Buffer),
            "raw" => Some(Mode::Raw),
            "raw-bundle" => Some(Mode::RawBundle),
            _ => None,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Struct => "struct",
            Mode::Typed => "typed",
            Mode::Buffer => "buffer",
            Mode::Raw => "raw",
            Mode::RawBundle => "raw-bundle",
        }
    }
}

/// What changes from frame to frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// Nothing changes after setup.
    Static,
    /// The camera is set to value `k` before pass `k`, the same values every frame.
    PerPassCamera,
    /// Object `frame % draws` gets a new translation each frame.
    OneChanges,
    /// Every object gets a new matrix every frame.
    AllChange,
    /// Every object is set again every frame to the value it already holds (unchanged bytes).
    ResetAll,
    /// Nothing changes, but every pass records a different draw sequence: the order rotates and
    /// a contiguous tenth of the draws is culled ([`Scenario::draw_order`]), so no pass records
    /// what the one before it recorded and no bundle can be replayed.
    Reshuffle,
}

impl Scenario {
    /// The accepted names, as on the command line.
    pub const NAMES: [&'static str; 6] = [
        "static",
        "per-pass-camera",
        "one-changes",
        "all-change",
        "reset-all",
        "reshuffle",
    ];

    /// Parses a command-line name (exact, lowercase).
    pub fn parse(s: &str) -> Option<Scenario> {
        match s {
            "static" => Some(Scenario::Static),
            "per-pass-camera" => Some(Scenario::PerPassCamera),
            "one-changes" => Some(Scenario::OneChanges),
            "all-change" => Some(Scenario::AllChange),
            "reset-all" => Some(Scenario::ResetAll),
            "reshuffle" => Some(Scenario::Reshuffle),
            _ => None,
        }
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::Static => "static",
            Scenario::PerPassCamera => "per-pass-camera",
            Scenario::OneChanges => "one-changes",
            Scenario::AllChange => "all-change",
            Scenario::ResetAll => "reset-all",
            Scenario::Reshuffle => "reshuffle",
        }
    }

    /// True when the camera is set before every pass (to [`camera_matrix`]`(k)` for pass `k`);
    /// otherwise it is set once at setup to `camera_matrix(0)`.
    pub fn camera_per_pass(self) -> bool {
        self == Scenario::PerPassCamera
    }

    /// The objects whose matrix is set at frame `frame` (frames count from 0, warm-up
    /// included), each to [`changed_world`]`(i, frame)`. Always a (possibly empty) range.
    pub fn changed_objects(self, frame: u64, draws: usize) -> Range<usize> {
        match self {
            Scenario::Static
            | Scenario::PerPassCamera
            | Scenario::ResetAll
            | Scenario::Reshuffle => 0..0,
            Scenario::OneChanges => {
                let i = (frame % draws.max(1) as u64) as usize;
                i..i + 1
            }
            Scenario::AllChange => 0..draws,
        }
    }

    /// The objects set again every frame to the value they already hold (same bytes: a
    /// renderer that re-sets everything each frame). Always a (possibly empty) range.
    pub fn reset_objects(self, draws: usize) -> Range<usize> {
        match self {
            Scenario::ResetAll => 0..draws,
            _ => 0..0,
        }
    }

    /// The objects pass `pass` of frame `frame` draws, in order, when that is not every object
    /// in index order: `Some` in [`Scenario::Reshuffle`] only, `None` (draw `0..draws`) in
    /// every other scenario. Every mode draws exactly these objects in this order.
    ///
    /// The pass's sequence starts at object `(frame + pass * (draws / passes)) % draws` (the
    /// frame index modulo `draws`, the passes of a frame spread evenly around the objects), runs
    /// on in index order (wrapping at `draws`) and stops before the last `draws / 10` objects of
    /// the rotation: the culled tenth is the contiguous run just before the start, and it moves
    /// with the start. So with 2 or more draws each pass records a different sequence in every
    /// two consecutive frames, and with `draws >= 2 * passes` the passes of a frame differ from
    /// each other too. An iterator over indices: nothing allocated.
    pub fn draw_order(
        self,
        frame: u64,
        pass: usize,
        passes: usize,
        draws: usize,
    ) -> Option<DrawOrder> {
        if self != Scenario::Reshuffle || draws == 0 {
            return None;
        }
        let spread = pass.wrapping_mul(draws / passes.max(1)) % draws;
        let rotation = (frame % draws as u64) as usize;
        Some(DrawOrder {
            next: (rotation + spread) % draws,
            remaining: draws - draws / 10,
            draws,
        })
    }
}

/// The objects one pass draws in [`Scenario::Reshuffle`], in order ([`Scenario::draw_order`]):
/// consecutive indices from a start, wrapping at the object count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOrder {
    next: usize,
    remaining: usize,
    draws: usize,
}

impl Iterator for DrawOrder {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let i = self.next;
        self.next += 1;
        if self.next == self.draws {
            self.next = 0;
        }
        Some(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for DrawOrder {}

/// A column-major 4x4 matrix, as WGSL's `mat4x4f` lays it out (64 bytes, no padding).
pub type Mat4 = [f32; 16];

/// `m` as four columns (`[[f32; 4]; 4]`, a typed value's `mat4x4f`); the same bytes.
#[inline]
pub fn columns(m: &Mat4) -> [[f32; 4]; 4] {
    bytemuck::cast(*m)
}

/// The identity matrix.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, //
    0.0, 1.0, 0.0, 0.0, //
    0.0, 0.0, 1.0, 0.0, //
    0.0, 0.0, 0.0, 1.0,
];

/// A translation matrix (column-major: the translation is in elements 12..15).
pub fn translation(x: f32, y: f32, z: f32) -> Mat4 {
    let mut m = IDENTITY;
    m[12] = x;
    m[13] = y;
    m[14] = z;
    m
}

/// The camera value of pass `pass`: distinct for every pass, identity for pass 0.
pub fn camera_matrix(pass: usize) -> Mat4 {
    translation(0.0, 0.01 * pass as f32, 0.0)
}

/// Object `i`'s matrix at setup: a distinct translation inside clip space.
pub fn initial_world(i: usize) -> Mat4 {
    let x = (i % 64) as f32 / 32.0 - 1.0;
    let y = ((i / 64) % 64) as f32 / 32.0 - 1.0;
    translation(x, y, 0.5)
}

/// Object `i`'s matrix when it changes at frame `frame`: differs from [`initial_world`] and
/// from every earlier frame's value (for any realistic frame count).
pub fn changed_world(i: usize, frame: u64) -> Mat4 {
    let mut m = initial_world(i);
    m[14] = 0.25 + (frame + 1) as f32 * 1e-4;
    m
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Which implementation renders.
    pub mode: Mode,
    /// What changes per frame.
    pub scenario: Scenario,
    /// Draws per pass (>= 1).
    pub draws: usize,
    /// Passes per frame (>= 1).
    pub passes: usize,
    /// Measured frames (>= 1).
    pub frames: usize,
    /// Frames run before measuring.
    pub warmup: usize,
    /// Requested backend.
    pub backend: BackendChoice,
    /// Print the JSON line.
    pub json: bool,
}

impl Default for Config {
    /// The documented defaults: struct, static, 1000 draws, 2 passes, 20 frames, 3 warm-up,
    /// auto backend, no JSON.
    fn default() -> Self {
        Config {
            mode: Mode::Struct,
            scenario: Scenario::Static,
            draws: 1000,
            passes: 2,
            frames: 20,
            warmup: 3,
            backend: BackendChoice::Auto,
            json: false,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run the benchmark.
    Run(Config),
    /// Print [`USAGE`] and exit successfully.
    Help,
}

/// A command-line error; its message names the flag and the bad value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Error for ArgError {}

fn count(flag: &str, value: &str, min: usize) -> Result<usize, ArgError> {
    match value.parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(ArgError(format!(
            "{flag} expects an integer >= {min}, got '{value}'"
        ))),
    }
}

/// Parses the arguments after the program name. Accepts `--flag value` and `--flag=value`.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, ArgError> {
    let mut config = Config::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--json" => {
                if let Some(v) = inline {
                    return Err(ArgError(format!("--json takes no value, got '{v}'")));
                }
                config.json = true;
                continue;
            }
            "--mode" | "--scenario" | "--draws" | "--passes" | "--frames" | "--warmup"
            | "--backend" => {}
            _ => return Err(ArgError(format!("unknown argument '{arg}'"))),
        }
        let value = match inline.or_else(|| args.next()) {
            Some(v) => v,
            None => return Err(ArgError(format!("{flag} expects a value"))),
        };
        match flag.as_str() {
            "--mode" => {
                config.mode = Mode::parse(&value).ok_or_else(|| {
                    ArgError(format!(
                        "--mode expects one of {}, got '{value}'",
                        Mode::NAMES.join("|")
                    ))
                })?;
            }
            "--scenario" => {
                config.scenario = Scenario::parse(&value).ok_or_else(|| {
                    ArgError(format!(
                        "--scenario expects one of {}, got '{value}'",
                        Scenario::NAMES.join("|")
                    ))
                })?;
            }
            "--draws" => config.draws = count("--draws", &value, 1)?,
            "--passes" => config.passes = count("--passes", &value, 1)?,
            "--frames" => config.frames = count("--frames", &value, 1)?,
            "--warmup" => config.warmup = count("--warmup", &value, 0)?,
            "--backend" => {
                // The canonical names only (parse also takes aliases and any case).
                config.backend = Some(&value)
                    .filter(|v| BackendChoice::NAMES.contains(&v.as_str()))
                    .and_then(|v| BackendChoice::parse(v, "--backend").ok())
                    .ok_or_else(|| {
                        ArgError(format!(
                            "--backend expects one of {}, got '{value}'",
                            BackendChoice::NAMES.join("|")
                        ))
                    })?;
            }
            _ => unreachable!("flag list checked above"),
        }
    }
    Ok(Command::Run(config))
}

/// Times of one frame as the mode measured them.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameTimes {
    /// From the start of the frame (scenario updates, then encoding) through
    /// `CommandEncoder::finish()`.
    pub encode: Duration,
    /// Uploads of the frame's changed values (`Queue::write_buffer`), then `Queue::submit`.
    /// Buffer mode writes at `set` time, inside `encode`: that is its cost.
    pub submit: Duration,
}

/// One renderer under test. `frame` renders frame `index` completely: scenario updates,
/// writes, encoding, submit, and a blocking wait until the GPU finished it.
pub trait FrameLoop {
    /// Renders and settles frame `index` (0-based, warm-up included).
    fn frame(&mut self, index: u64) -> Result<FrameTimes, BenchError>;
    /// The device's counters now.
    fn stats(&self) -> StatsSnapshot;
    /// wgpu errors raised outside any error scope so far (taken, oldest first).
    fn take_uncaptured_errors(&self) -> Vec<UncapturedError>;
    /// The backend actually used, lowercase (`vulkan`, `gl`, `noop`, ...).
    fn backend(&self) -> &'static str;
    /// The adapter's name.
    fn adapter(&self) -> String;
    /// One line describing mode-specific setup (pages, draws created, ...), for the summary.
    fn describe(&self) -> String;
}

/// The measurements of one run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The configuration run.
    pub config: Config,
    /// Backend actually used, lowercase.
    pub backend: &'static str,
    /// Adapter name.
    pub adapter: String,
    /// Mode-specific setup line.
    pub setup: String,
    /// Per measured frame: times, counter delta, allocation calls (whole frame, wait included).
    pub frames: Vec<(FrameTimes, StatsSnapshot, u64)>,
}

/// Frame records reserved before the first frame whatever `--frames` is: the reservation (over
/// 1 MiB, so glibc maps it outside its heap) leaves the heap the frames run in the same for
/// every frame count. Sized by the frame count, it shifted where wgpu's per-pass vectors land
/// and how often `realloc` must copy them, and instruction counts taken as the difference of two
/// runs of different lengths (`callgrind-ratio`) measured that shift along with the frames.
const RESERVED_FRAME_RECORDS: usize = 4096;

/// Runs `config.warmup` then `config.frames` frames of `looper`, measuring the latter. Fails on
/// a frame error or if wgpu reported any uncaptured error (a benchmark with a validation error
/// measures nothing).
pub fn measure(config: &Config, looper: &mut dyn FrameLoop) -> Result<Report, BenchError> {
    let mut frames = Vec::with_capacity(config.frames.max(RESERVED_FRAME_RECORDS));
    let total = (config.warmup + config.frames) as u64;
    for index in 0..total {
        let stats_before = looper.stats();
        let allocs_before = crate::allocations();
        let times = looper.frame(index)?;
        let allocs = crate::allocations() - allocs_before;
        let delta = looper.stats() - stats_before;
        if index >= config.warmup as u64 {
            frames.push((times, delta, allocs));
        }
    }
    let errors = looper.take_uncaptured_errors();
    if let Some(first) = errors.first() {
        return Err(format!(
            "wgpu reported {} uncaptured error(s) during the run; first ({}): {}",
            errors.len(),
            first.kind,
            first.description
        )
        .into());
    }
    Ok(Report {
        config: config.clone(),
        backend: looper.backend(),
        adapter: looper.adapter(),
        setup: looper.describe(),
        frames,
    })
}

/// Per-frame averages and time statistics of a [`Report`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Bind groups created, average per measured frame.
    pub bind_groups_created_per_frame: f64,
    /// Buffers created, average per measured frame.
    pub buffers_created_per_frame: f64,
    /// `write_buffer` calls, average per measured frame.
    pub write_calls_per_frame: f64,
    /// Bytes passed to `write_buffer`, average per measured frame.
    pub bytes_uploaded_per_frame: f64,
    /// Median encode time, µs.
    pub encode_us_median: f64,
    /// 95th percentile (nearest rank) encode time, µs.
    pub encode_us_p95: f64,
    /// Median submit time, µs.
    pub submit_us_median: f64,
    /// Allocation calls, average per measured frame.
    pub allocations_per_frame: f64,
}

impl Report {
    /// Averages and percentiles over the measured frames.
    pub fn summary(&self) -> Summary {
        let n = self.frames.len().max(1) as f64;
        let avg = |f: &dyn Fn(&StatsSnapshot) -> u64| {
            self.frames.iter().map(|(_, s, _)| f(s)).sum::<u64>() as f64 / n
        };
        let mut encode: Vec<Duration> = self.frames.iter().map(|(t, _, _)| t.encode).collect();
        let mut submit: Vec<Duration> = self.frames.iter().map(|(t, _, _)| t.submit).collect();
        Summary {
            bind_groups_created_per_frame: avg(&|s| s.bind_groups_created),
            buffers_created_per_frame: avg(&|s| s.buffers_created),
            write_calls_per_frame: avg(&|s| s.write_calls),
            bytes_uploaded_per_frame: avg(&|s| s.bytes_uploaded),
            encode_us_median: crate::median_us(&mut encode),
            encode_us_p95: crate::percentile_us(&mut encode, 95.0),
            submit_us_median: crate::median_us(&mut submit),
            allocations_per_frame: self.frames.iter().map(|&(_, _, a)| a).sum::<u64>() as f64 / n,
        }
    }

    /// The contract's JSON object, keys in the documented order, on one line.
    pub fn to_json(&self) -> String {
        let s = self.summary();
        let c = &self.config;
        let mut out = String::with_capacity(512);
        out.push('{');
        let _ = write!(
            out,
            "\"mode\":{},\"scenario\":{},\"draws\":{},\"passes\":{},\"frames\":{},\"backend\":{},\"adapter\":{},",
            json_string(c.mode.name()),
            json_string(c.scenario.name()),
            c.draws,
            c.passes,
            c.frames,
            json_string(self.backend),
            json_string(&self.adapter),
        );
        let _ = write!(
            out,
            "\"bind_groups_created_per_frame\":{},\"buffers_created_per_frame\":{},\"write_calls_per_frame\":{},\"bytes_uploaded_per_frame\":{},",
            json_number(s.bind_groups_created_per_frame, 3),
            json_number(s.buffers_created_per_frame, 3),
            json_number(s.write_calls_per_frame, 3),
            json_number(s.bytes_uploaded_per_frame, 3),
        );
        let _ = write!(
            out,
            "\"encode_us_median\":{},\"encode_us_p95\":{},\"submit_us_median\":{},\"allocations_per_frame\":{}",
            json_number(s.encode_us_median, 3),
            json_number(s.encode_us_p95, 3),
            json_number(s.submit_us_median, 3),
            json_number(s.allocations_per_frame, 3),
        );
        out.push('}');
        out
    }

    /// A human-readable multi-line summary.
    pub fn to_text(&self) -> String {
        let s = self.summary();
        let c = &self.config;
        let per_draw = s.encode_us_median / (c.draws * c.passes) as f64;
        format!(
            "uniform-capture: mode {} / scenario {} / {} draws x {} passes, {} frames (+{} warm-up)\n\
             device:  {} ({})\n\
             setup:   {}\n\
             per frame (averages over measured frames):\n\
             \x20 bind groups created  {}\n\
             \x20 buffers created      {}\n\
             \x20 write_buffer calls   {}\n\
             \x20 bytes uploaded       {}\n\
             \x20 allocations          {}\n\
             encode:  median {:.1} us, p95 {:.1} us ({:.3} us per draw)\n\
             submit:  median {:.1} us\n",
            c.mode.name(),
            c.scenario.name(),
            c.draws,
            c.passes,
            c.frames,
            c.warmup,
            self.adapter,
            self.backend,
            self.setup,
            json_number(s.bind_groups_created_per_frame, 3),
            json_number(s.buffers_created_per_frame, 3),
            json_number(s.write_calls_per_frame, 3),
            json_number(s.bytes_uploaded_per_frame, 3),
            json_number(s.allocations_per_frame, 3),
            s.encode_us_median,
            s.encode_us_p95,
            per_draw,
            s.submit_us_median,
        )
    }
}

/// `s` as a JSON string literal: quotes, backslashes and control characters escaped.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `v` as a JSON number with at most `decimals` decimals and no trailing zeros (`3`, `2.5`);
/// non-finite values (never produced by a valid run) become `0`.
pub fn json_number(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "0".to_owned();
    }
    let mut s = format!("{v:.decimals$}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".to_owned();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn defaults_match_the_contract() {
        let Ok(Command::Run(c)) = parse_args(args("")) else {
            panic!("empty command line must run")
        };
        assert_eq!(c, Config::default());
        assert_eq!(
            (c.mode, c.scenario, c.draws, c.passes, c.frames, c.warmup),
            (Mode::Struct, Scenario::Static, 1000, 2, 20, 3)
        );
        assert_eq!(c.backend, BackendChoice::Auto);
        assert!(!c.json);
    }

    #[test]
    fn every_flag_is_parsed() {
        let cmd = parse_args(args(
            "--mode raw --scenario all-change --draws 7 --passes=3 --frames 5 --warmup 0 --backend noop --json",
        ));
        let expected = Config {
            mode: Mode::Raw,
            scenario: Scenario::AllChange,
            draws: 7,
            passes: 3,
            frames: 5,
            warmup: 0,
            backend: BackendChoice::Noop,
            json: true,
        };
        assert_eq!(cmd, Ok(Command::Run(expected)));
        assert_eq!(parse_args(args("--help")), Ok(Command::Help));
    }

    #[test]
    fn bad_flags_name_the_flag_and_value() {
        for (line, needle) in [
            (
                "--mode fast",
                "--mode expects one of struct|typed|buffer|raw|raw-bundle, got 'fast'",
            ),
            (
                "--scenario x",
                "--scenario expects one of static|per-pass-camera|one-changes|all-change|reset-all|reshuffle, got 'x'",
            ),
            ("--draws 0", "--draws expects an integer >= 1, got '0'"),
            ("--frames -1", "--frames expects"),
            (
                "--backend dx13",
                "--backend expects one of auto|vulkan|gl|metal|dx12|webgpu|noop, got 'dx13'",
            ),
            ("--draws", "--draws expects a value"),
            ("--verbose", "unknown argument '--verbose'"),
            ("--json=1", "--json takes no value"),
        ] {
            let err = parse_args(args(line)).expect_err(line);
            assert!(err.0.contains(needle), "{line}: {}", err.0);
        }
    }

    #[test]
    fn names_round_trip() {
        for name in Mode::NAMES {
            assert_eq!(Mode::parse(name).map(Mode::name), Some(name));
        }
        for name in Scenario::NAMES {
            assert_eq!(Scenario::parse(name).map(Scenario::name), Some(name));
        }
        assert_eq!(Mode::parse("typed"), Some(Mode::Typed));
        assert_eq!(Scenario::parse("reset-all"), Some(Scenario::ResetAll));
        assert_eq!(Mode::parse("raw-bundle"), Some(Mode::RawBundle));
        assert_eq!(Scenario::parse("reshuffle"), Some(Scenario::Reshuffle));
        assert_eq!(
            parse_args(args("--mode raw-bundle --scenario=reshuffle")),
            Ok(Command::Run(Config {
                mode: Mode::RawBundle,
                scenario: Scenario::Reshuffle,
                ..Config::default()
            }))
        );
        assert!(USAGE.contains("raw-bundle") && USAGE.contains("reshuffle"));
    }

    #[test]
    fn reshuffle_rotates_and_culls_a_moving_tenth() {
        let order = |frame, pass| -> Vec<usize> {
            Scenario::Reshuffle
                .draw_order(frame, pass, 2, 20)
                .unwrap()
                .collect()
        };
        // Frame 0, pass 0: objects 0..18 (the tenth culled: 18, 19); pass 1 starts half way.
        assert_eq!(order(0, 0), (0..18).collect::<Vec<_>>());
        assert_eq!(order(0, 1), (10..20).chain(0..8).collect::<Vec<_>>());
        // Frame 3: rotated by 3, wrapping; culled 1 and 2, just before the start.
        assert_eq!(order(3, 0), (3..20).chain(0..1).collect::<Vec<_>>());
        assert_eq!(
            Scenario::Reshuffle.draw_order(3, 0, 2, 20).unwrap().len(),
            18
        );
        for draws in [2, 7, 10, 1000] {
            let kept = draws - draws / 10;
            let mut previous: Vec<Vec<usize>> = Vec::new();
            for frame in 0..25 {
                let passes: Vec<Vec<usize>> = (0..2)
                    .map(|pass| {
                        let o: Vec<usize> = Scenario::Reshuffle
                            .draw_order(frame, pass, 2, draws)
                            .unwrap()
                            .collect();
                        // Distinct objects, a tenth culled.
                        let mut sorted = o.clone();
                        sorted.sort_unstable();
                        sorted.dedup();
                        assert_eq!((o.len(), sorted.len()), (kept, kept), "{draws} {frame}");
                        assert!(o.iter().all(|&i| i < draws));
                        o
                    })
                    .collect();
                if draws >= 4 {
                    assert_ne!(passes[0], passes[1], "{draws} draws, frame {frame}");
                }
                if frame > 0 {
                    for pass in 0..2 {
                        assert_ne!(passes[pass], previous[pass], "{draws} draws, frame {frame}");
                    }
                }
                previous = passes;
            }
        }
        // Every other scenario draws every object in order (None: the modes' plain loop).
        for s in Scenario::NAMES.map(|n| Scenario::parse(n).unwrap()) {
            if s != Scenario::Reshuffle {
                assert_eq!(s.draw_order(5, 1, 2, 20), None, "{s:?}");
            }
        }
    }

    #[test]
    fn columns_keep_the_bytes() {
        let m = changed_world(5, 7);
        assert_eq!(
            bytemuck::bytes_of(&columns(&m)),
            bytemuck::bytes_of(&m),
            "column-major in both"
        );
        assert_eq!(columns(&m)[3][2], m[14]);
    }

    #[test]
    fn scenarios_change_what_they_say() {
        assert_eq!(Scenario::Static.changed_objects(5, 10), 0..0);
        assert_eq!(Scenario::PerPassCamera.changed_objects(5, 10), 0..0);
        assert_eq!(Scenario::OneChanges.changed_objects(13, 10), 3..4);
        assert_eq!(Scenario::AllChange.changed_objects(13, 10), 0..10);
        assert_eq!(Scenario::ResetAll.changed_objects(13, 10), 0..0);
        assert_eq!(Scenario::ResetAll.reset_objects(10), 0..10);
        assert_eq!(Scenario::Reshuffle.changed_objects(13, 10), 0..0);
        assert!(!Scenario::Reshuffle.camera_per_pass());
        for s in [
            Scenario::Static,
            Scenario::PerPassCamera,
            Scenario::OneChanges,
            Scenario::AllChange,
            Scenario::Reshuffle,
        ] {
            assert_eq!(s.reset_objects(10), 0..0, "{s:?}");
        }
        assert!(Scenario::PerPassCamera.camera_per_pass());
        assert_ne!(camera_matrix(0), camera_matrix(1));
        assert_eq!(camera_matrix(0), IDENTITY);
        // A changed value differs from the initial one and from the previous change.
        assert_ne!(changed_world(3, 13), initial_world(3));
        assert_ne!(changed_world(3, 13), changed_world(3, 3));
        assert_ne!(initial_world(1), initial_world(2));
    }

    #[test]
    fn json_escapes_and_numbers() {
        assert_eq!(json_string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
        assert_eq!(json_number(0.0, 3), "0");
        assert_eq!(json_number(2.5, 3), "2.5");
        assert_eq!(json_number(255808.0, 3), "255808");
        assert_eq!(json_number(1.23456, 3), "1.235");
        assert_eq!(json_number(f64::NAN, 3), "0");
    }

    #[test]
    fn json_has_the_contract_keys_in_order() {
        let frame = |us: u64, writes: u64| {
            let stats = StatsSnapshot {
                write_calls: writes,
                bytes_uploaded: writes * 64,
                ..Default::default()
            };
            let times = FrameTimes {
                encode: Duration::from_micros(us),
                submit: Duration::from_micros(1),
            };
            (times, stats, 10)
        };
        let report = Report {
            config: Config::default(),
            backend: "noop",
            adapter: "A \"quoted\" adapter".to_owned(),
            setup: String::new(),
            frames: vec![frame(10, 1), frame(30, 2)],
        };
        let json = report.to_json();
        let keys = [
            "mode",
            "scenario",
            "draws",
            "passes",
            "frames",
            "backend",
            "adapter",
            "bind_groups_created_per_frame",
            "buffers_created_per_frame",
            "write_calls_per_frame",
            "bytes_uploaded_per_frame",
            "encode_us_median",
            "encode_us_p95",
            "submit_us_median",
            "allocations_per_frame",
        ];
        let mut at = 0;
        for k in keys {
            let needle = format!("\"{k}\":");
            let pos = json[at..]
                .find(&needle)
                .unwrap_or_else(|| panic!("key {k} missing or out of order in {json}"));
            at += pos + needle.len();
        }
        assert_eq!(json.matches("\":").count(), keys.len(), "{json}");
        assert!(json.contains("\"adapter\":\"A \\\"quoted\\\" adapter\""));
        assert!(json.contains("\"write_calls_per_frame\":1.5,"));
        assert!(json.contains("\"bytes_uploaded_per_frame\":96,"));
        assert!(json.contains("\"encode_us_median\":20,"));
        assert!(json.contains("\"encode_us_p95\":30,"));
        assert!(json.contains("\"allocations_per_frame\":10}"));
        assert!(json.starts_with("{\"mode\":\"struct\",\"scenario\":\"static\",\"draws\":1000,"));
    }
}
