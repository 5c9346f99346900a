//! `gyrolab web`: a lesson or a scene as one self-contained web page ([`crate::web`]),
//! with a progress bar while its runs are recorded, or the whole lab live
//! ([`crate::web::live`]). The file appears only once the page is whole: a refused page
//! leaves none.

use std::io::Write;
use std::path::Path;

use super::output::Output;
use super::{CliError, Verdict, emit};
use crate::progress::Progress;
use crate::web::{self, PageSource, live};

/// Progress bar units: per mille of the runs recorded.
const UNITS: u64 = 1000;

pub fn run(name: &str, out: &Path, scene: bool, seconds: Option<f64>) -> Result<Verdict, CliError> {
    // The temporary file first: an unwritable place is refused before any run.
    let mut file = Output::open(Some(out))?;
    let source = PageSource::named(name, scene, seconds).map_err(CliError)?;
    let mut bar = Progress::new(UNITS, "recording");
    let made = web::page(source, &mut |done| {
        bar.set((done.clamp(0.0, 1.0) * UNITS as f64) as u64)
    })
    .map_err(CliError)?;
    drop(bar);
    if let Err(e) = file.write_all(made.html.as_bytes()) {
        return file.failed(e).map(|()| Verdict::Done);
    }
    file.commit()?;
    emit(&format!(
        "{}: {:.2} MB; open it in any browser\n",
        out.display(),
        made.html.len() as f64 / 1e6
    ))?;
    // As `gyrolab lesson` says it: the page shows these readouts disagreeing.
    for line in &made.disagree {
        eprintln!("{line}");
    }
    Ok(match made.disagree.is_empty() {
        true => Verdict::Done,
        false => Verdict::Disagrees,
    })
}

/// The live page, opening at the first of `names` (scenes where `scene`), the files
/// among them in its menus, with the lab's module from `wasm` (or where
/// [`live::module_path`] finds it).
pub fn live(
    names: &[String],
    scene: bool,
    out: &Path,
    wasm: Option<&Path>,
) -> Result<(), CliError> {
    let first = live::opening(names, scene).map_err(CliError)?;
    let module = live::module_path(wasm).map_err(CliError)?;
    let bytes = std::fs::read(&module)
        .map_err(|e| CliError(format!("{}: cannot read: {e}", module.display())))?;
    let html = live::html(&bytes, &first);
    let mut file = Output::open(Some(out))?;
    if let Err(e) = file.write_all(html.as_bytes()) {
        return file.failed(e);
    }
    file.commit()?;
    emit(&format!(
        "{}: the live lab, {:.2} MB; open it in any browser\n",
        out.display(),
        html.len() as f64 / 1e6
    ))
}
