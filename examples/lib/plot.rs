//! A line chart of per-frame times written as a PNG, with no dependency beyond `png`: an RGBA
//! canvas, Bresenham lines 2 px wide, axes, grid lines, round ticks and text in an embedded 5×7
//! bitmap font drawn at 2× (uppercase letters, digits and a little punctuation; lowercase is
//! drawn as uppercase). Used by `scene --plot frames.png`.
//!
//! The x axis is the frame number: `values[i]` of a [`Series`] is frame `i + 1`. A NaN value is a
//! frame without a figure (the line breaks there).

use std::path::Path;

/// One line of the chart.
#[derive(Clone, Copy, Debug)]
pub struct Series<'a> {
    /// Its name in the legend.
    pub name: &'a str,
    /// Its colour (RGB); the line's pixels have exactly this colour (no anti-aliasing).
    pub color: [u8; 3],
    /// One value per frame (`values[i]` is frame `i + 1`); NaN where the frame has none.
    pub values: &'a [f64],
}

/// The background colour.
pub const BACKGROUND: [u8; 4] = [255, 255, 255, 255];
/// The colour of text, axes and tick marks.
pub const INK: [u8; 4] = [32, 32, 32, 255];
/// The colour of grid lines.
pub const GRID: [u8; 4] = [224, 224, 224, 255];

/// Space left of the plot area (y tick labels and the y-axis label), in pixels.
pub const MARGIN_LEFT: u32 = 80;
/// Space right of the plot area.
pub const MARGIN_RIGHT: u32 = 24;
/// Space above the plot area (the title, then the legend row).
pub const MARGIN_TOP: u32 = 64;
/// Space below the plot area (x tick labels and the x-axis label).
pub const MARGIN_BOTTOM: u32 = 56;
/// Text scale: a glyph is 10×14 pixels, 12 pixels apart.
pub const TEXT_SCALE: u32 = 2;

const GLYPH_W: u32 = 5;
const GLYPH_H: u32 = 7;
const TITLE_Y: u32 = 10;
const LEGEND_Y: u32 = 36;

/// Where [`render_plot`] puts things: the plot area and the axis ranges it chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The plot area's left edge (the y axis), in pixels from the left.
    pub left: u32,
    /// The plot area's top edge.
    pub top: u32,
    /// The plot area's right edge.
    pub right: u32,
    /// The plot area's bottom edge (the x axis).
    pub bottom: u32,
    /// The x axis runs from frame 0 to `x_max` (a multiple of `x_step`, at least the frames).
    pub x_max: f64,
    /// Frames between x ticks (1, 2, 5, 10, 20, 50, …).
    pub x_step: f64,
    /// The y axis runs from 0 to `y_max` (a multiple of `y_step`, at least the largest value).
    pub y_max: f64,
    /// Milliseconds between y ticks (…, 0.1, 0.2, 0.5, 1, 2, 5, …).
    pub y_step: f64,
    /// The legend row: `(x, y, width, height)` of the area it may draw in.
    pub legend: (u32, u32, u32, u32),
}

impl Layout {
    /// The pixel where frame `frame` at value `value` lies (rounded to the nearest pixel):
    /// `x = left + frame / x_max × (right − left)`, `y = bottom − value / y_max × (bottom − top)`.
    pub fn to_pixel(&self, frame: f64, value: f64) -> (i32, i32) {
        let x = self.left as f64 + frame / self.x_max * (self.right - self.left) as f64;
        let y = self.bottom as f64 - value / self.y_max * (self.bottom - self.top) as f64;
        (x.round() as i32, y.round() as i32)
    }
}

/// The smallest "nice" step (1, 2 or 5 times a power of ten) with at most `max_ticks` steps
/// from 0 to `max`.
fn nice_step(max: f64, max_ticks: f64) -> f64 {
    let mut power = 10f64.powf((max / max_ticks).log10().floor());
    loop {
        for m in [1.0, 2.0, 5.0] {
            if max / (m * power) <= max_ticks {
                return m * power;
            }
        }
        power *= 10.0;
    }
}

/// The layout of a `width`×`height` chart of `series`.
pub fn layout(width: u32, height: u32, series: &[Series<'_>]) -> Layout {
    let frames = series
        .iter()
        .map(|s| s.values.len())
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let largest = series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    let x_step = nice_step(frames, 10.0).max(1.0);
    let (y_step, y_max) = if largest > 0.0 {
        let step = nice_step(largest, 8.0);
        (step, (largest / step).ceil() * step)
    } else {
        (0.5, 1.0)
    };
    let right = width.saturating_sub(MARGIN_RIGHT).max(MARGIN_LEFT + 1);
    Layout {
        left: MARGIN_LEFT,
        top: MARGIN_TOP,
        right,
        bottom: height.saturating_sub(MARGIN_BOTTOM).max(MARGIN_TOP + 1),
        x_max: (frames / x_step).ceil() * x_step,
        x_step,
        y_max,
        y_step,
        legend: (
            MARGIN_LEFT,
            LEGEND_Y,
            right - MARGIN_LEFT,
            GLYPH_H * TEXT_SCALE,
        ),
    }
}

/// An RGBA image being drawn.
struct Canvas {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Canvas {
    fn put(&mut self, x: i32, y: i32, color: [u8; 4]) {
        if x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height {
            let i = (y as usize * self.width as usize + x as usize) * 4;
            self.pixels[i..i + 4].copy_from_slice(&color);
        }
    }

    fn rect(&mut self, x: i32, y: i32, w: i32, h: i32, color: [u8; 4]) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.put(xx, yy, color);
            }
        }
    }

    /// A Bresenham line from `a` to `b`, `thickness` pixels wide (each point a square brush
    /// whose top-left corner is on the line).
    fn line(&mut self, a: (i32, i32), b: (i32, i32), thickness: i32, color: [u8; 4]) {
        let (mut x, mut y) = a;
        let (dx, dy) = ((b.0 - x).abs(), -(b.1 - y).abs());
        let (sx, sy) = ((b.0 - x).signum(), (b.1 - y).signum());
        let mut err = dx + dy;
        loop {
            self.rect(x, y, thickness, thickness, color);
            if (x, y) == b {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// `text` with its top-left corner at `(x, y)`; rotated a quarter turn counter-clockwise
    /// (reading upwards, `(x, y)` then its bottom-left corner) when `vertical`.
    fn text(&mut self, x: i32, y: i32, text: &str, vertical: bool, color: [u8; 4]) {
        let s = TEXT_SCALE as i32;
        for (n, c) in text.chars().enumerate() {
            let rows = glyph(c);
            for (gy, row) in rows.iter().enumerate() {
                for gx in 0..GLYPH_W as i32 {
                    if row & (1 << (GLYPH_W as i32 - 1 - gx)) == 0 {
                        continue;
                    }
                    let (u, v) = (n as i32 * (GLYPH_W as i32 + 1) + gx, gy as i32);
                    let (px, py) = if vertical {
                        (x + v * s, y - (u + 1) * s)
                    } else {
                        (x + u * s, y + v * s)
                    };
                    self.rect(px, py, s, s, color);
                }
            }
        }
    }
}

/// The width of `text` in pixels at [`TEXT_SCALE`].
pub fn text_width(text: &str) -> u32 {
    let n = text.chars().count() as u32;
    (n * (GLYPH_W + 1)).saturating_sub(1) * TEXT_SCALE
}

/// A tick label: as many decimals as the step needs.
fn tick_label(value: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    format!("{value:.decimals$}")
}

/// Renders a `width`×`height` chart of `series` (RGBA, rows top to bottom): a white background,
/// `title` top left, the legend (a short line of each series' colour, then its name) on the row
/// below, grid lines and tick labels at round values, the axes, the x-axis label `frame`, the
/// y-axis label `y_label` (vertical), and each series as a 2-pixel line of its colour (later
/// series drawn over earlier ones). Positions are those of [`layout`].
pub fn render_plot(
    width: u32,
    height: u32,
    title: &str,
    y_label: &str,
    series: &[Series<'_>],
) -> Vec<u8> {
    let mut c = Canvas {
        width,
        height,
        pixels: BACKGROUND.repeat((width * height) as usize),
    };
    let l = layout(width, height, series);
    let (left, top, right, bottom) = (l.left as i32, l.top as i32, l.right as i32, l.bottom as i32);
    let text_h = (GLYPH_H * TEXT_SCALE) as i32;

    // Grid lines and y tick labels.
    let y_ticks = (l.y_max / l.y_step).round() as i32;
    for i in 0..=y_ticks {
        let v = i as f64 * l.y_step;
        let (_, y) = l.to_pixel(0.0, v);
        c.line((left, y), (right, y), 1, GRID);
        c.line((left - 5, y), (left, y), 1, INK);
        let label = tick_label(v, l.y_step);
        let x = left - 8 - text_width(&label) as i32;
        c.text(x, y - text_h / 2, &label, false, INK);
    }
    let x_ticks = (l.x_max / l.x_step).round() as i32;
    for i in 0..=x_ticks {
        let f = i as f64 * l.x_step;
        let (x, _) = l.to_pixel(f, 0.0);
        c.line((x, top), (x, bottom), 1, GRID);
        c.line((x, bottom), (x, bottom + 5), 1, INK);
        let label = tick_label(f, 1.0);
        c.text(
            x - text_width(&label) as i32 / 2,
            bottom + 8,
            &label,
            false,
            INK,
        );
    }
    // Axes, titles.
    c.line((left, top), (left, bottom), 2, INK);
    c.line((left, bottom), (right, bottom), 2, INK);
    c.text(left, TITLE_Y as i32, title, false, INK);
    let x_label = "frame";
    c.text(
        (left + right) / 2 - text_width(x_label) as i32 / 2,
        bottom + 30,
        x_label,
        false,
        INK,
    );
    c.text(
        10,
        (top + bottom) / 2 + text_width(y_label) as i32 / 2,
        y_label,
        true,
        INK,
    );

    // The series, clipped to the plot area by construction (0 <= value <= y_max).
    for s in series {
        let color = [s.color[0], s.color[1], s.color[2], 255];
        let mut previous: Option<(i32, i32)> = None;
        for (i, &v) in s.values.iter().enumerate() {
            if !v.is_finite() {
                previous = None;
                continue;
            }
            let p = l.to_pixel((i + 1) as f64, v.max(0.0));
            match previous {
                Some(a) => c.line(a, p, 2, color),
                // A point with no neighbour yet (the first, or after a gap): a dot.
                None => c.rect(p.0, p.1, 2, 2, color),
            }
            previous = Some(p);
        }
    }

    // The legend row.
    let (x0, y, _, _) = l.legend;
    let mut x = x0 as i32;
    for s in series {
        let color = [s.color[0], s.color[1], s.color[2], 255];
        let mid = y as i32 + text_h / 2 - 2;
        c.rect(x, mid, 24, 4, color);
        c.text(x + 32, y as i32, s.name, false, INK);
        x += 32 + text_width(s.name) as i32 + 28;
    }
    c.pixels
}

/// Renders a 960×540 chart ([`render_plot`]) and writes it to `path` as an 8-bit RGBA PNG.
pub fn write_plot(
    path: &Path,
    title: &str,
    y_label: &str,
    series: &[Series<'_>],
) -> std::io::Result<()> {
    let (width, height) = (960, 540);
    let pixels = render_plot(width, height, title, y_label, series);
    let file = std::fs::File::create(path)?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(std::io::Error::other)?;
    writer
        .write_image_data(&pixels)
        .map_err(std::io::Error::other)?;
    writer.finish().map_err(std::io::Error::other)
}

/// The 5×7 bitmap of `c` (one byte per row, top first, bit 4 the leftmost column); lowercase
/// letters as uppercase, a character without a glyph as `?`.
fn glyph(c: char) -> [u8; 7] {
    let c = c.to_ascii_uppercase();
    FONT.iter()
        .find(|(g, _)| *g == c)
        .or_else(|| FONT.iter().find(|(g, _)| *g == '?'))
        .map_or([0; 7], |(_, rows)| *rows)
}

/// The embedded font: digits, uppercase letters and the punctuation labels use.
#[rustfmt::skip]
const FONT: [(char, [u8; 7]); 49] = [
    (' ', [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000]),
    ('0', [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110]),
    ('1', [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]),
    ('2', [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111]),
    ('3', [0b11111, 0b00010, 0b00100, 0b00010, 0b00001, 0b10001, 0b01110]),
    ('4', [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010]),
    ('5', [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110]),
    ('6', [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110]),
    ('7', [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000]),
    ('8', [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110]),
    ('9', [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100]),
    ('A', [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001]),
    ('B', [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110]),
    ('C', [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110]),
    ('D', [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100]),
    ('E', [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111]),
    ('F', [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000]),
    ('G', [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111]),
    ('H', [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001]),
    ('I', [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110]),
    ('J', [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100]),
    ('K', [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001]),
    ('L', [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111]),
    ('M', [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001]),
    ('N', [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001]),
    ('O', [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110]),
    ('P', [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000]),
    ('Q', [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101]),
    ('R', [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001]),
    ('S', [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110]),
    ('T', [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100]),
    ('U', [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110]),
    ('V', [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100]),
    ('W', [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010]),
    ('X', [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001]),
    ('Y', [0b10001, 0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100]),
    ('Z', [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111]),
    ('.', [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b01100]),
    (',', [0b00000, 0b00000, 0b00000, 0b00000, 0b01100, 0b00100, 0b01000]),
    (':', [0b00000, 0b01100, 0b01100, 0b00000, 0b01100, 0b01100, 0b00000]),
    ('-', [0b00000, 0b00000, 0b00000, 0b11111, 0b00000, 0b00000, 0b00000]),
    ('+', [0b00000, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0b00000]),
    ('=', [0b00000, 0b00000, 0b11111, 0b00000, 0b11111, 0b00000, 0b00000]),
    ('/', [0b00000, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b00000]),
    ('(', [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010]),
    (')', [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000]),
    ('%', [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011]),
    ('_', [0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b00000, 0b11111]),
    ('?', [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b00000, 0b00100]),
];
