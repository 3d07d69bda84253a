//! A finished frame: straight RGBA8 pixels, top row first.
//!
//! The renderer draws premultiplied (that is what blending wants) and converts once at the end,
//! so everything outside the renderer sees ordinary PNG-style colour.

use std::io::{self, BufWriter};
use std::path::Path;

/// A rendered image: straight (non-premultiplied) RGBA8, row-major, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

impl Frame {
    /// The colour at pixel (x, y), or `None` outside the frame.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = ((y * self.width + x) * 4) as usize;
        self.rgba.get(i..i + 4).map(|p| [p[0], p[1], p[2], p[3]])
    }

    /// Writes the frame as an RGBA PNG.
    pub fn save_png(&self, path: &Path) -> io::Result<()> {
        let file = std::fs::File::create(path)?;
        self.write_png(BufWriter::new(file))
    }

    /// Encodes the frame as an RGBA PNG into `out`.
    pub fn write_png(&self, out: impl io::Write) -> io::Result<()> {
        if self.width == 0 || self.height == 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot write a {}x{} frame as PNG", self.width, self.height),
            ));
        }
        let mut encoder = png::Encoder::new(out, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(io::Error::other)?;
        writer
            .write_image_data(&self.rgba)
            .map_err(io::Error::other)?;
        writer.finish().map_err(io::Error::other)
    }

    /// The frame as an RGBA PNG in memory, compressed as lightly as PNG allows: for sending
    /// every frame (the editor's live view), not for keeping.
    pub fn png_fast(&self) -> io::Result<Vec<u8>> {
        let mut png = Vec::with_capacity(self.rgba.len() / 4);
        {
            let mut encoder = png::Encoder::new(&mut png, self.width, self.height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_compression(png::Compression::Fastest);
            let mut writer = encoder.write_header().map_err(io::Error::other)?;
            writer
                .write_image_data(&self.rgba)
                .map_err(io::Error::other)?;
            writer.finish().map_err(io::Error::other)?;
        }
        Ok(png)
    }

    /// One `0x00RRGGBB` word per pixel (for softbuffer), composited over black.
    pub fn to_0rgb(&self) -> Vec<u32> {
        self.rgba
            .chunks_exact(4)
            .map(|p| {
                let a = p[3] as u32;
                let over_black = |c: u8| (c as u32 * a + 127) / 255;
                (over_black(p[0]) << 16) | (over_black(p[1]) << 8) | over_black(p[2])
            })
            .collect()
    }

    /// Turns a premultiplied canvas into straight colour.
    pub(crate) fn from_premultiplied(width: u32, height: u32, mut rgba: Vec<u8>) -> Frame {
        for p in rgba.chunks_exact_mut(4) {
            let a = p[3] as u32;
            if a != 255 && a != 0 {
                for c in &mut p[..3] {
                    *c = ((*c as u32 * 255 + a / 2) / a).min(255) as u8;
                }
            }
        }
        Frame {
            width,
            height,
            rgba,
        }
    }

    /// A frame with no pixels (returned when the asked size cannot be drawn).
    pub(crate) fn empty() -> Frame {
        Frame {
            width: 0,
            height: 0,
            rgba: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premultiplied_pixels_become_straight() {
        let frame = Frame::from_premultiplied(2, 1, vec![64, 32, 0, 128, 10, 20, 30, 255]);
        assert_eq!(frame.pixel(0, 0), Some([128, 64, 0, 128]));
        assert_eq!(frame.pixel(1, 0), Some([10, 20, 30, 255]));
        assert_eq!(frame.pixel(2, 0), None);
    }

    #[test]
    fn zero_rgb_words_are_composited_over_black() {
        let frame = Frame {
            width: 2,
            height: 1,
            rgba: vec![255, 128, 0, 255, 255, 255, 255, 0],
        };
        assert_eq!(frame.to_0rgb(), vec![0x00ff8000, 0]);
    }

    #[test]
    fn png_round_trips_and_empty_frames_refuse() {
        let frame = Frame {
            width: 1,
            height: 2,
            rgba: vec![1, 2, 3, 255, 4, 5, 6, 7],
        };
        let mut bytes = Vec::new();
        frame.write_png(&mut bytes).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(buf, frame.rgba);
        assert!(Frame::empty().write_png(Vec::new()).is_err());
    }
}
