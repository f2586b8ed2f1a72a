//! `mdbook-evidence run PROGRAM.cu [MORE SOURCES] [NVCC FLAGS] [-- ARGS]`:
//! compile and run any CUDA program, on the GPU or by CPU emulation, with
//! its stdout, stderr and exit status passed through: the one command a
//! student needs for the exercise. The words before `--` are read as nvcc
//! reads them (see [`crate::sources::build_line`]), so
//! `run a.cu b.cpp -I ../Common -- 4` builds like
//! `nvcc a.cu b.cpp -I ../Common && ./a.out 4`.

use crate::backend::{self, BackendChoice, Options, exec};
use crate::cmd::Status;
use crate::course::Course;
use crate::emulate::Sanitize;
use crate::evidence::Termination;
use crate::sources::build_line::NvccCommand;
use crate::sources::lesson::Program;
use anyhow::Context;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// Compile and run a CUDA program on the GPU, or on the CPU by emulation.
///
/// `mdbook-evidence run starter/testing.cu` is all the exercise needs: it
/// builds your program and runs it, on this machine's NVIDIA GPU when there
/// is one, else on the CPU by emulating CUDA. It says on stderr which of the
/// two it used, and an emulated program names its device `... (CPU
/// emulation)`, so you always know. To see whether you are done, use
/// `mdbook-evidence check`.
///
/// Give the program's .cu file (a whole program, with main); several source
/// files and nvcc's flags may follow, as you would give them to nvcc
/// (`run main.cu helper.cpp -I ../Common -DN=4`). With the .cu file alone,
/// its own `// Build:` line is used when it has one. Put the program's own
/// arguments after `--`.
///
/// Its output goes straight to the terminal and its exit status becomes
/// ours. A program killed by a signal exits 128 + the signal; one still
/// running after --timeout seconds is killed and exits 124.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program's .cu file, then any other sources and nvcc flags.
    #[arg(value_name = "PROGRAM.cu [SOURCES] [NVCC FLAGS]", required = true, num_args = 1.., allow_hyphen_values = true)]
    pub build: Vec<String>,

    /// Where to run: `auto` takes the GPU when there is one, else CPU emulation.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,

    /// Emulation: report an out-of-bounds access to a cudaMalloc'd buffer
    /// like compute-sanitizer's memcheck (kernel, thread, block, address).
    #[arg(long)]
    pub bounds_check: bool,

    /// Emulation: compute-sanitizer's checks on the CPU, reported in its
    /// words on stderr: memcheck, racecheck, synccheck, initcheck (comma
    /// separated; all four when no list is given).
    #[arg(long, value_name = "TOOLS", num_args = 0..=1, require_equals = true,
          default_missing_value = "memcheck,racecheck,synccheck,initcheck")]
    pub sanitize: Option<String>,

    /// With --sanitize's memcheck: `full` reports every allocation never
    /// freed and the LEAK SUMMARY, as compute-sanitizer's --leak-check full.
    #[arg(long, value_name = "full|no", value_parser = ["full", "no"])]
    pub leak_check: Option<String>,

    /// With --sanitize: exit with this status when a check found an error.
    #[arg(long, value_name = "N")]
    pub error_exitcode: Option<i32>,

    /// Emulation: the order in which each block's threads run between
    /// barriers: in-order, reverse or random:SEED. Several, comma separated,
    /// run the program once in each order and report when its output
    /// changes with the order (a race or a missing __syncthreads); the
    /// first order's output is the one shown.
    #[arg(long, value_name = "ORDER[,ORDER...]")]
    pub schedule: Option<String>,
    /// Emulation: OS threads that run the blocks of a grid (default:
    /// `CUDA_EMU_THREADS`, else every core this process may use). 1 gives the
    /// deterministic mode that `build`, `verify` and `check` use. A grid
    /// whose blocks slow each other down on several cores (hot atomics)
    /// goes back to one (`CUDA_EMU_CONTENTION_GUARD=0` keeps them all,
    /// `=report` says when). A block that waits for another (polling a flag
    /// or a counter) starts the next block on a thread of its own, whatever
    /// N is; a wait that nothing can end is named after
    /// `CUDA_EMU_SPIN_HANG_MS` (5000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,

    /// Seconds before the program is killed (at least 1).
    #[arg(long, default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
}

/// How `run` ended: the program's own exit status, passed through.
pub enum Ended {
    Status(Status),
    Code(u8),
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Ended> {
    // Everything after the first `--` is the program's own.
    let split = args.build.iter().position(|w| w == "--");
    let (build, program_args) = match split {
        Some(at) => (&args.build[..at], &args.build[at + 1..]),
        None => (&args.build[..], &[][..]),
    };
    let program = program_of(build)?;
    let course = Course::open(root).ok();
    let sanitize = sanitize_of(&args)?;
    let schedules = schedules_of(args.schedule.as_deref())?;
    let sanitize_or_schedule = sanitize.is_some() || !schedules.is_empty();
    let options = Options {
        // memcheck checks every access (and knows freed memory): the guard
        // pages of --bounds-check would only hide allocations from it.
        bounds_check: args.bounds_check && sanitize.is_none(),
        sanitize,
        schedule: schedules.first().cloned(),
        default_build_line: true,
        // A sanitized or scheduled run keeps one OS thread (the shim's
        // shadow state and thread order are the whole program's).
        threads: Some(if sanitize_or_schedule {
            1
        } else {
            args.threads.map_or_else(default_threads, |n| n as usize)
        }),
    };
    let chosen = backend::select(args.backend, &options, course.as_ref())?;
    eprintln!(
        "mdbook-evidence: running {} on {}",
        program.path,
        crate::cmd::check::describe_backend(chosen.name())
    );
    let compiled = match chosen.compile(&program) {
        Ok(compiled) => compiled,
        Err(backend::BackendError::CompileFailed { log, .. }) => {
            eprint!("{log}");
            eprintln!("mdbook-evidence: {} did not compile", program.path);
            return Ok(Ended::Status(Status::VerificationFailed));
        }
        Err(other) => return Err(other.into()),
    };
    let mut command = chosen.command(&compiled);
    command.args(program_args);
    if schedules.len() > 1 {
        return run_in_orders(&mut command, &schedules, &program.path, args.timeout);
    }
    match exec::run_inherited(&mut command, Duration::from_secs(args.timeout))? {
        Termination::Exited(code) => Ok(Ended::Code(code.clamp(0, 255) as u8)),
        Termination::Signaled(signal) => {
            eprintln!(
                "mdbook-evidence: {} was killed by signal {signal}",
                program.path
            );
            Ok(Ended::Code(128u8.saturating_add(signal as u8)))
        }
        Termination::TimedOut => {
            eprintln!(
                "mdbook-evidence: {} ran past {} s and was killed (raise --timeout)",
                program.path, args.timeout
            );
            Ok(Ended::Code(124))
        }
    }
}

/// `--sanitize[=TOOLS]`, `--leak-check` and `--error-exitcode` as the
/// emulator's options.
fn sanitize_of(args: &Args) -> anyhow::Result<Option<Sanitize>> {
    let Some(list) = &args.sanitize else {
        if args.leak_check.is_some() || args.error_exitcode.is_some() {
            anyhow::bail!("--leak-check and --error-exitcode go with --sanitize");
        }
        return Ok(None);
    };
    Sanitize::from_list(
        list,
        args.leak_check.as_deref() == Some("full"),
        args.error_exitcode,
    )
    .map(Some)
    .map_err(anyhow::Error::msg)
}

/// `--schedule`'s orders, checked: `in-order`, `reverse`, `random:SEED`.
fn schedules_of(value: Option<&str>) -> anyhow::Result<Vec<String>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    value
        .split(',')
        .map(|order| {
            let order = order.trim();
            let seeded = order
                .strip_prefix("random:")
                .is_some_and(|seed| seed.parse::<u64>().is_ok());
            if order == "in-order" || order == "reverse" || seeded {
                Ok(order.to_string())
            } else {
                anyhow::bail!(
                    "--schedule: `{order}` is not an order (in-order, reverse, random:SEED)"
                )
            }
        })
        .collect()
}

/// Runs the program once in each order, shows the first run's output and
/// says when another order printed something else.
fn run_in_orders(
    command: &mut std::process::Command,
    orders: &[String],
    program: &str,
    timeout: u64,
) -> anyhow::Result<Ended> {
    use std::io::Write;
    let mut first: Option<exec::Captured> = None;
    let mut differs = Vec::new();
    for order in orders {
        command.env("CUDA_EMU_SCHEDULE", order);
        let captured = exec::run(command, Duration::from_secs(timeout))?;
        match &first {
            None => first = Some(captured),
            Some(shown) => {
                if shown.stdout != captured.stdout || shown.termination != captured.termination {
                    differs.push(order.as_str());
                }
            }
        }
    }
    let shown = first.expect("at least two orders");
    std::io::stdout().write_all(&shown.stdout)?;
    std::io::stdout().flush()?;
    std::io::stderr().write_all(&shown.stderr)?;
    if !differs.is_empty() {
        eprintln!(
            "mdbook-evidence: {program} printed something else when its threads ran in the order {} \
             than in the order {}: its result depends on the order threads run in (a race, or a \
             missing __syncthreads); --sanitize=racecheck names the lines",
            differs.join(", "),
            orders[0]
        );
    }
    Ok(match shown.termination {
        Termination::Exited(code) => Ended::Code(code.clamp(0, 255) as u8),
        Termination::Signaled(signal) => Ended::Code(128u8.saturating_add(signal as u8)),
        Termination::TimedOut => Ended::Code(124),
    })
}

/// `run`'s threads without `--threads`: `CUDA_EMU_THREADS` when set, else
/// every core this process may use.
fn default_threads() -> usize {
    std::env::var("CUDA_EMU_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The program the words name: the first `.cu` source, built with the
/// words as its nvcc line when there is more than the one file.
fn program_of(words: &[String]) -> anyhow::Result<Program> {
    let words: Vec<String> = match words.first().map(String::as_str) {
        Some("nvcc") => words[1..].to_vec(),
        _ => words.to_vec(),
    };
    // One file alone is the program, whatever its name; its own `// Build:`
    // line (if any) says how to build it.
    if let [only] = &words[..]
        && !only.starts_with('-')
    {
        return Program::from_file(Path::new(only));
    }
    let command = NvccCommand::parse(&words)
        .map_err(|e| anyhow::anyhow!("reading `{}`: {e}", words.join(" ")))?;
    let Some(main) = command
        .sources
        .iter()
        .find(|s| command.is_cuda(s))
        .or(command.sources.first())
    else {
        anyhow::bail!("no source file given: name the program's .cu file");
    };
    let mut program = Program::from_file(Path::new(main))?;
    if words.len() > 1 {
        // Paths as nvcc would see them from here, written absolute so that
        // they hold from the program's own folder, where builds run.
        let here = std::env::current_dir().context("finding the current directory")?;
        let absolute = |p: &String| here.join(p).display().to_string();
        let mut line = command.clone();
        line.sources = command.sources.iter().map(absolute).collect();
        line.include_dirs = command.include_dirs.iter().map(absolute).collect();
        line.system_include_dirs = command.system_include_dirs.iter().map(absolute).collect();
        line.forced_includes = command.forced_includes.iter().map(absolute).collect();
        line.library_dirs = command.library_dirs.iter().map(absolute).collect();
        line.output = None;
        program.build_override = Some(line.to_string());
    }
    Ok(program)
}

impl From<Ended> for ExitCode {
    fn from(ended: Ended) -> ExitCode {
        match ended {
            Ended::Status(status) => status.into(),
            Ended::Code(code) => ExitCode::from(code),
        }
    }
}
