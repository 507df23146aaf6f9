//! [`RgbaImage`]: RGBA8 pixels read back from a target or a window, and their PNG output.

use crate::error::{Result, TargetError};

/// Tightly packed RGBA8 pixels read back from a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, row-major, top row first.
    pub data: Vec<u8>,
}

impl RgbaImage {
    /// The pixel at (`x`, `y`), or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        self.data.get(i..i + 4).and_then(|p| p.try_into().ok())
    }

    /// Writes the image as an 8-bit RGBA PNG.
    pub fn save_png(&self, path: impl AsRef<std::path::Path>) -> Result<()> {
        let path = path.as_ref();
        let err = |e: &dyn std::fmt::Display| TargetError::Png {
            path: path.display().to_string(),
            description: e.to_string(),
        };
        let file = std::fs::File::create(path).map_err(|e| err(&e))?;
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().map_err(|e| err(&e))?;
        w.write_image_data(&self.data).map_err(|e| err(&e))?;
        w.finish().map_err(|e| err(&e))?;
        Ok(())
    }
}
