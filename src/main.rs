use clap::Parser;

use gyrolab::cli::{Cli, run};

fn main() {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // One line, the one that names the problem; clap's usage hint follows it.
            let rendered = e.to_string();
            eprintln!(
                "{}",
                rendered
                    .lines()
                    .next()
                    .unwrap_or("error: invalid arguments")
            );
            std::process::exit(2);
        }
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Some(command) => run(command),
        None => open_app(&cli.scene),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

#[cfg(feature = "app")]
fn open_app(scene: &str) -> Result<(), gyrolab::cli::CliError> {
    let scene = gyrolab::scene::Scene::load(scene)?;
    gyrolab::app::run(scene);
    Ok(())
}

#[cfg(not(feature = "app"))]
fn open_app(_scene: &str) -> Result<(), gyrolab::cli::CliError> {
    Err(gyrolab::cli::CliError(
        "this gyrolab was built without the 'app' feature; use a subcommand (gyrolab --help)"
            .into(),
    ))
}
