//! The `mdbook-evidence` binary: parses arguments and dispatches.
//!
//! Without a subcommand it is an mdBook preprocessor reading `[context, book]`
//! as JSON on stdin; every subcommand lives in its own file under `cmd/`.

use clap::Parser;
use mdbook_evidence::{Cli, Status, execute, init_logging};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    match execute(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            Status::ToolError.into()
        }
    }
}
