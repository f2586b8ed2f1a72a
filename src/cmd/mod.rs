//! The command line: one file per subcommand, each with an `Args` struct and
//! an `execute` function, in the manner of mdBook's `src/cmd/`.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) mod build;
pub(crate) mod cache;
pub(crate) mod check;
pub(crate) mod drift;
pub(crate) mod install;
pub(crate) mod mutants;
pub(crate) mod new;
pub(crate) mod preprocess;
pub(crate) mod record;
pub(crate) mod run;
pub(crate) mod supports;
pub(crate) mod verify;

const AFTER_HELP: &str = "\
Without a subcommand, mdbook-evidence is an mdBook preprocessor: it reads
[context, book] as JSON on stdin and writes the book as JSON on stdout.
Add it to book.toml:

    [preprocessor.evidence]
    before = [\"links\"]

Exit codes:
    0  everything held
    1  verification failed (evidence mismatch, stale evidence, drift, a gate)
    2  usage or tool error (bad input, missing tool, no GPU where one is needed)";

/// Keeps a GPU course's book, code and recorded evidence honest.
#[derive(Debug, Parser)]
#[command(name = "mdbook-evidence", version, after_help = AFTER_HELP)]
pub struct Cli {
    /// The book's root: the folder that holds book.toml.
    #[arg(long, global = true, default_value = ".", value_name = "DIR")]
    pub root: PathBuf,

    /// Say more on stderr (-v: progress, -vv: debug).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// The subcommand; none means mdBook preprocessor mode.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Build(build::Args),
    Check(check::Args),
    Record(record::Args),
    Verify(verify::Args),
    Drift(drift::Args),
    Install(install::Args),
    Mutants(mutants::Args),
    New(new::Args),
    Run(run::Args),
    Supports(supports::Args),
    /// Show (--stats) or empty (--clean) the CPU emulator's build cache
    Cache(cache::Args),
}

/// How a command ended, as the process exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// 0: everything held.
    Success,
    /// 1: a verification failed.
    VerificationFailed,
    /// 2: usage or tool error.
    ToolError,
}

impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            Status::Success => ExitCode::SUCCESS,
            Status::VerificationFailed => ExitCode::from(1),
            Status::ToolError => ExitCode::from(2),
        }
    }
}

/// The status for a command that ended in `error`: a failed check (1) or a
/// usage or tool error (2).
/// The error's whole chain as the binary prints it: coloured where stderr is
/// a terminal (and `NO_COLOR` is not set), plain otherwise.
pub fn paint_error(error: &anyhow::Error) -> String {
    let color = crate::report::style::stderr_color();
    crate::report::style::paint_diff(&format!("{error:#}"), color)
}

/// The exit status for an error: 1 when it is a failed check (a mismatch,
/// drift), 2 for any other (usage, tool, bad input).
pub fn status_of(error: &anyhow::Error) -> Status {
    if crate::workflow::is_check_failure(error) {
        Status::VerificationFailed
    } else {
        Status::ToolError
    }
}

/// Runs the command the user asked for.
pub fn execute(cli: Cli) -> anyhow::Result<ExitCode> {
    let status = match cli.command {
        Some(Command::Run(args)) => return run::execute(&cli.root, args).map(ExitCode::from),
        None => preprocess::execute(),
        Some(Command::Build(args)) => build::execute(&cli.root, args),
        Some(Command::Check(args)) => check::execute(&cli.root, args),
        Some(Command::Record(args)) => record::execute(&cli.root, args),
        Some(Command::Verify(args)) => verify::execute(&cli.root, args),
        Some(Command::Drift(args)) => drift::execute(&cli.root, args),
        Some(Command::Install(args)) => install::execute(&cli.root, args),
        Some(Command::Mutants(args)) => mutants::execute(&cli.root, args),
        Some(Command::New(args)) => new::execute(&cli.root, args),
        Some(Command::Supports(args)) => supports::execute(args),
        Some(Command::Cache(args)) => cache::execute(args),
    }?;
    Ok(status.into())
}

/// Logs go to stderr (coloured only on a terminal, and never with
/// `NO_COLOR`), quiet by default (warnings and errors only): in
/// preprocessor mode stdout carries nothing but JSON. `MDBOOK_EVIDENCE_LOG`
/// takes a tracing filter (`debug`, `mdbook_evidence=trace`...).
pub fn init_logging(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let default = match verbose {
        0 => "warn",
        1 => "warn,mdbook_evidence=info",
        _ => "info,mdbook_evidence=debug",
    };
    let filter =
        EnvFilter::try_from_env("MDBOOK_EVIDENCE_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(crate::report::style::stderr_color())
        .without_time()
        .try_init();
}
