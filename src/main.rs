//! The `mdbook-evidence` binary: parses arguments and dispatches.
//!
//! Without a subcommand it is an mdBook preprocessor reading `[context, book]`
//! as JSON on stdin; every subcommand lives in its own file under `cmd/`.
//! A failed check exits 1, any other error 2 (see `cmd::status_of`).

use clap::Parser;
use mdbook_evidence::cmd::{self, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    cmd::init_logging(cli.verbose);
    match cmd::execute(cli) {
        Ok(code) => code,
        Err(error) => {
            let color = mdbook_evidence::report::style::stderr_color();
            let text = mdbook_evidence::report::style::paint_diff(&format!("{error:#}"), color);
            eprintln!("error: {text}");
            cmd::status_of(&error).into()
        }
    }
}
