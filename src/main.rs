//! The `mdbook-evidence` binary: parses arguments and dispatches.
//!
//! Without a subcommand it is an mdBook preprocessor reading `[context, book]`
//! as JSON on stdin; every subcommand lives in its own file under `cmd/`.
//! A failed check exits 1, any other error 2 (see `cmd::status_of`).

use clap::Parser;
use mdbook_evidence::{Cli, execute, init_logging, paint_error, status_of};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    match execute(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {}", paint_error(&error));
            status_of(&error).into()
        }
    }
}
