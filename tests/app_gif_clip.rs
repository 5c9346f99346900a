//! A clip as an animated GIF: N PNG frames make a GIF of N frames, in order, at the clip's
//! rate, looping; a clip that cannot be written leaves nothing.

mod common;
use common::listing;

use std::path::{Path, PathBuf};

use gyrolab::gif_clip;

/// A PNG of `w`×`h` pixels, all of one colour, RGB or RGBA.
fn png(path: &Path, (w, h): (u32, u32), rgb: [u8; 3], alpha: bool) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut encoder = png::Encoder::new(file, w, h);
    encoder.set_color(if alpha {
        png::ColorType::Rgba
    } else {
        png::ColorType::Rgb
    });
    encoder.set_depth(png::BitDepth::Eight);
    let pixel: Vec<u8> = if alpha {
        [&rgb[..], &[255]].concat()
    } else {
        rgb.to_vec()
    };
    let data: Vec<u8> = pixel
        .iter()
        .copied()
        .cycle()
        .take(pixel.len() * (w * h) as usize)
        .collect();
    encoder
        .write_header()
        .unwrap()
        .write_image_data(&data)
        .unwrap();
}

/// Each frame's size, delay and the colour of its first pixel, as a GIF decoder reads them.
fn frames_of(path: &Path) -> Vec<((u16, u16), u16, [u8; 3])> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options
        .read_info(std::fs::File::open(path).unwrap())
        .unwrap();
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        let p = &frame.buffer[..3];
        out.push(((frame.width, frame.height), frame.delay, [p[0], p[1], p[2]]));
    }
    out
}

#[test]
fn n_frames_make_a_gif_of_n_frames_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let colours = [
        [250, 10, 10],
        [10, 250, 10],
        [10, 10, 250],
        [240, 240, 240],
        [5, 5, 5],
    ];
    let paths: Vec<PathBuf> = (0..colours.len())
        .map(|k| dir.path().join(format!("frame-{:04}.png", k + 1)))
        .collect();
    for (k, (path, rgb)) in paths.iter().zip(colours).enumerate() {
        png(path, (40, 30), rgb, k % 2 == 0);
    }
    let out = dir.path().join("clip.gif");
    let mut done = Vec::new();
    gif_clip::write(&paths, 20.0, &out, |k| done.push(k)).unwrap();
    assert_eq!(done, [1, 2, 3, 4, 5]);
    let frames = frames_of(&out);
    assert_eq!(frames.len(), colours.len());
    for (frame, rgb) in frames.iter().zip(colours) {
        assert_eq!(frame.0, (40, 30));
        // 20 frames a second: 5 hundredths each.
        assert_eq!(frame.1, 5);
        // One colour per frame survives the palette to within a few levels.
        let close = frame.2.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) <= 8);
        assert!(close, "{:?} for {rgb:?}", frame.2);
    }
}

#[test]
fn a_clip_that_cannot_be_written_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("frame-0001.png");
    png(&good, (8, 8), [1, 2, 3], false);
    let listing = || listing::listing(dir.path());
    // A frame that is not a PNG, one of another size, none at all, and a folder that is
    // not there: each refused, naming what failed, and no GIF left behind.
    let broken = dir.path().join("frame-0002.png");
    std::fs::write(&broken, b"not a png").unwrap();
    let small = dir.path().join("frame-0003.png");
    png(&small, (4, 8), [1, 2, 3], false);
    let out = dir.path().join("clip.gif");
    let cases = [
        (
            vec![good.clone(), broken.clone()],
            out.clone(),
            "frame-0002.png",
        ),
        (
            vec![good.clone(), small.clone()],
            out.clone(),
            "first frame's size",
        ),
        (vec![], out.clone(), "no frames"),
        (
            vec![good.clone()],
            dir.path().join("missing/clip.gif"),
            "missing",
        ),
    ];
    for (frames, out, needle) in cases {
        let err = gif_clip::write(&frames, 10.0, &out, |_| {}).unwrap_err();
        assert!(err.contains(needle), "'{needle}' not in {err}");
        assert_eq!(
            listing(),
            ["frame-0001.png", "frame-0002.png", "frame-0003.png"]
        );
    }
}
