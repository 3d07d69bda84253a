//! PNG output with fixed settings: the smallest colour type that holds the image exactly
//! (grey when every pixel is grey, no alpha when every pixel is opaque), adaptive row
//! filters and zlib level 9. The bytes depend only on the pixels and the locked `png` version.

use crate::paint::Image;

/// The image as PNG bytes.
pub fn encode(image: &Image) -> Result<Vec<u8>, png::EncodingError> {
    let rgba = image.to_rgba8();
    let grey = rgba.chunks_exact(4).all(|p| p[0] == p[1] && p[1] == p[2]);
    let opaque = rgba.chunks_exact(4).all(|p| p[3] == 255);
    let (colour, data): (png::ColorType, Vec<u8>) = match (grey, opaque) {
        (true, true) => (
            png::ColorType::Grayscale,
            rgba.chunks_exact(4).map(|p| p[0]).collect(),
        ),
        (true, false) => (
            png::ColorType::GrayscaleAlpha,
            rgba.chunks_exact(4).flat_map(|p| [p[0], p[3]]).collect(),
        ),
        (false, true) => (
            png::ColorType::Rgb,
            rgba.chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect(),
        ),
        (false, false) => (png::ColorType::Rgba, rgba),
    };
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(colour);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(9));
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&data)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (png::ColorType, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.color_type, buf)
    }

    #[test]
    fn grey_translucent_image_is_written_as_grey_with_alpha_and_reads_back_exactly() {
        let mut img = Image::new(2, 1);
        img.pixels = vec![[1.0, 1.0, 1.0, 0.5], [0.2, 0.2, 0.2, 1.0]];
        let (colour, data) = decode(&encode(&img).unwrap());
        assert_eq!(colour, png::ColorType::GrayscaleAlpha);
        assert_eq!(data, vec![255, 128, 51, 255]);
    }

    #[test]
    fn opaque_colour_image_is_written_as_rgb_and_reads_back_exactly() {
        let mut img = Image::new(1, 2);
        img.pixels = vec![[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]];
        let (colour, data) = decode(&encode(&img).unwrap());
        assert_eq!(colour, png::ColorType::Rgb);
        assert_eq!(data, vec![255, 0, 0, 0, 0, 255]);
    }
}
