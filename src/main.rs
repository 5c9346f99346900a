use std::io::Write;

use clap::Parser;

use gyrolab::cli::{Cli, Verdict, emit, run};

/// The one error line, then exit code 2. A failed write to stderr (`2>/dev/full`) has
/// nowhere left to be told, so it is ignored rather than panicking.
fn fail(line: &str) -> ! {
    let _ = writeln!(std::io::stderr(), "{line}");
    std::process::exit(2);
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // One line, the one that names the problem; clap's usage hint follows it.
            let rendered = e.to_string();
            let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("error: invalid arguments");
            // "the following required arguments were not provided:" names them below.
            match lines.next() {
                Some(next) if first.ends_with(':') => fail(&format!("{first} {next}")),
                _ => fail(first),
            }
        }
        // --help and --version: written like any other output, so a failed write is an
        // error too.
        Err(e) => match emit(&e.render().to_string()) {
            Ok(()) => std::process::exit(0),
            Err(e) => fail(&format!("error: {e}")),
        },
    };
    let result = match cli.command {
        Some(command) => run(command),
        None => open_app(&cli).map(|()| Verdict::Done),
    };
    match result {
        Ok(Verdict::Done) => {}
        // A lesson whose readouts disagree with it: the report is written, exit 1.
        Ok(Verdict::Disagrees) => std::process::exit(1),
        Err(e) => fail(&format!("error: {e}")),
    }
}

#[cfg(feature = "app")]
fn open_app(cli: &Cli) -> Result<(), gyrolab::cli::CliError> {
    use gyrolab::cli::CliError;
    use gyrolab::lesson::setup::Setup;
    let scene = gyrolab::scene::Scene::load(&cli.scene)?;
    if let Some(lesson) = &cli.lesson {
        gyrolab::lesson::load(lesson)?;
    }
    // A code that does not open is refused here, before a window is made.
    let setup = match &cli.setup {
        Some(code) => {
            let setup = Setup::from_code(code).map_err(CliError)?;
            setup
                .open(&mut gyrolab::lab::Lab::new(scene.clone()))
                .map_err(CliError)?;
            Some(setup)
        }
        None => None,
    };
    if let Some(path) = &cli.screenshot
        && path.extension().and_then(|e| e.to_str()) != Some("png")
    {
        return Err(gyrolab::cli::CliError(format!(
            "--screenshot: '{}' must end in .png",
            path.display()
        )));
    }
    let clip = match (&cli.clip, cli.to) {
        (Some(dir), Some(to)) => {
            let request = gyrolab::app::ClipRequest {
                dir: dir.clone(),
                from: cli.from,
                to,
                fps: cli.fps,
                exit: true,
            };
            request.check().map_err(CliError)?;
            Some(request)
        }
        _ => None,
    };
    gyrolab::app::environment::check().map_err(gyrolab::cli::CliError)?;
    let options = gyrolab::app::AppOptions {
        screenshot: cli.screenshot.clone(),
        frames: cli.frames,
        seek_back: cli.seek_back,
        lesson: cli.lesson.clone(),
        setup,
        clip,
    };
    gyrolab::app::run(scene, options);
    Ok(())
}

#[cfg(not(feature = "app"))]
fn open_app(_cli: &Cli) -> Result<(), gyrolab::cli::CliError> {
    Err(gyrolab::cli::CliError(
        "this gyrolab was built without the 'app' feature; use a subcommand (gyrolab --help)"
            .into(),
    ))
}
