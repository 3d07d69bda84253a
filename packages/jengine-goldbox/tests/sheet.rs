//! The shipped sheet is what its painter makes: `examples/sheet.rs` painted again gives the
//! committed `assets/textures/goldbox/sheet.png` pixel for pixel.

#[path = "../examples/sheet.rs"]
#[allow(dead_code)]
mod sheet;

#[test]
fn the_committed_sheet_is_what_the_painter_makes() {
    let (w, h, painted) = sheet::paint();
    let file = std::fs::File::open(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/textures/goldbox/sheet.png"
    ))
    .unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((info.width as usize, info.height as usize), (w, h));
    assert!(
        pixels[..info.buffer_size()] == painted[..],
        "the sheet differs from its painter: cargo run -p jengine-goldbox --example sheet"
    );
}
