//! The `mdbook-evidence` binary: parses arguments and dispatches.
//!
//! Without a subcommand it is an mdBook preprocessor reading `[context, book]`
//! as JSON on stdin; every subcommand lives in its own file under `cmd/`.

use clap::Parser;
use mdbook_evidence::cmd::{self, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    cmd::init_logging(cli.verbose);
    match cmd::execute(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            cmd::Status::ToolError.into()
        }
    }
}
