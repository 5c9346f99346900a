//! A clip's frames as one animated GIF, for slides: each PNG frame quantised to a
//! 256-colour palette of its own by the `gif` crate (NeuQuant: A. Dekker, "Kohonen neural
//! networks for optimal colour quantization"), looping, and written whole or not at all
//! ([`crate::atomic_file`]).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::atomic_file::AtomicFile;

/// NeuQuant's sampling factor: 1 looks at every pixel, 30 at one in thirty; 10 is the
/// `gif` crate's suggestion, a few hundred milliseconds for a window-sized frame.
const SPEED: i32 = 10;

/// Whether `path` names a GIF file (`.gif`, any case), not a directory of frames.
pub fn is_gif(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gif"))
}

/// Writes `frames` (PNG files of one size, in order) as a looping GIF at `fps` frames a
/// second to `out`, calling `done(k)` after the k-th frame; on any failure `out` is left
/// as it was and the error names the frame or the file.
pub fn write(
    frames: &[PathBuf],
    fps: f64,
    out: &Path,
    mut done: impl FnMut(usize),
) -> Result<(), String> {
    let file = AtomicFile::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut encoder = None;
    // GIF delays are in hundredths of a second; browsers play faster ones at 10 fps.
    let delay = (100.0 / fps).round().clamp(2.0, u16::MAX as f64) as u16;
    let mut file = Some(file);
    for (k, path) in frames.iter().enumerate() {
        let (width, height, mut rgba) = read_rgba(path)?;
        let size = |n: usize| {
            u16::try_from(n).map_err(|_| format!("{}: wider than a GIF", path.display()))
        };
        let (w, h) = (size(width)?, size(height)?);
        if encoder.is_none() {
            let mut e = gif::Encoder::new(file.take().expect("one file"), w, h, &[])
                .map_err(|e| format!("{}: {e}", out.display()))?;
            e.set_repeat(gif::Repeat::Infinite)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            encoder = Some((e, (w, h)));
        }
        let (e, first) = encoder.as_mut().expect("made above");
        if *first != (w, h) {
            return Err(format!("{}: not the first frame's size", path.display()));
        }
        let mut frame = gif::Frame::from_rgba_speed(w, h, &mut rgba, SPEED);
        frame.delay = delay;
        e.write_frame(&frame)
            .map_err(|e| format!("{}: {e}", out.display()))?;
        done(k + 1);
    }
    let (e, _) = encoder.ok_or_else(|| format!("{}: no frames to write", out.display()))?;
    let file = e
        .into_inner()
        .map_err(|e| format!("{}: {e}", out.display()))?;
    file.commit().map_err(|e| format!("{}: {e}", out.display()))
}

/// A PNG's width, height and pixels as 8-bit RGBA.
fn read_rgba(path: &Path) -> Result<(usize, usize, Vec<u8>), String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = File::open(path).map_err(|e| fail(&e))?;
    let mut decoder = png::Decoder::new(BufReader::new(file));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| fail(&e))?;
    let mut buf = vec![
        0;
        reader
            .output_buffer_size()
            .ok_or_else(|| fail(&"too large"))?
    ];
    let info = reader.next_frame(&mut buf).map_err(|e| fail(&e))?;
    let pixels = &buf[..info.buffer_size()];
    let rgba = match info.color_type {
        png::ColorType::Rgba => pixels.to_vec(),
        png::ColorType::Rgb => pixels
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => pixels
            .chunks(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => pixels.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => return Err(fail(&"an indexed PNG left unexpanded")),
    };
    Ok((info.width as usize, info.height as usize, rgba))
}
