//! `mdbook-evidence mutants PROGRAM`: measures a program's test suites by
//! mutation testing (see [`crate::workflow::mutants`]): a table of mutants,
//! the survivors' diffs, and one line per phase with its kill count.

use crate::backend::{self, BackendChoice, Options};
use crate::cmd::Status;
use crate::course::Course;
use crate::sources::lesson::Program;
use crate::workflow::mutants::record::MutantsEvidence;
use crate::workflow::mutants::{
    OPERATORS, Report, evidence_path, generate, import_outcomes, measure, render,
};
use std::path::Path;
use std::time::{Duration, Instant};

/// Measure a program's test suites with mutants of its device code.
///
/// A mutant is the program with one small, plausible change to its device
/// code (every `__global__` and `__device__` function, and the launch
/// configuration): a comparison or arithmetic operator swapped, a constant
/// moved by one, a barrier removed, a grid rounded down, a guard removed, an
/// index shifted, an accumulator narrowed. Each mutant is built and run (by
/// CPU emulation unless --backend says otherwise, several at a time, builds
/// cached). A phase of the program kills a mutant when one of its checks
/// that passes on the unmutated program fails on the mutant, or the mutant
/// crashes or times out. A line marked `// mutants: skip (reason)` gets no
/// mutants (for equivalent ones). Under emulation every access is checked:
/// a mutant that reads or writes out of bounds is marked `?` and counted
/// nowhere, since a GPU would read whatever lies there.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The program, e.g. `kernels/testing.cu`.
    #[arg(value_name = "PROGRAM")]
    pub program: String,

    /// Where to run the mutants.
    #[arg(long, value_enum, default_value_t = BackendChoice::Emulate)]
    pub backend: BackendChoice,

    /// Mutants built and run at a time (default: the number of CPUs).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Only the mutants of these operators (repeatable): relational,
    /// arithmetic, off-by-one, no-barrier, grid-round-down, no-guard,
    /// index-shift, narrow.
    #[arg(long = "operator", value_name = "NAME")]
    pub operators: Vec<String>,

    /// List the mutants without building them.
    #[arg(long)]
    pub list: bool,

    /// Write the unmutated program and each mutant as sources under DIR
    /// (`DIR/original/`, `DIR/mutant-N/`), to build and run elsewhere,
    /// such as on a GPU machine; nothing is built.
    #[arg(long, value_name = "DIR")]
    pub write: Option<std::path::PathBuf>,

    /// Judge runs made elsewhere instead of building here: DIR holds
    /// `original/` and `mutant-N/` (as --write made them), each with the
    /// run's `stdout`, `stderr` and `status`, and a `machine` file
    /// (`nvidia-smi` name line, then `nvcc --version`).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["write", "list"])]
    pub outcomes: Option<std::path::PathBuf>,

    /// Save the outcomes as the program's mutant evidence,
    /// `evidence/<program>.mutants.toml`, which `{{#mutants PROGRAM}}`
    /// renders in the book.
    #[arg(long)]
    pub save: bool,
}

pub(crate) fn execute(root: &Path, args: Args) -> anyhow::Result<Status> {
    let started = Instant::now();
    let course = Course::open(root)?;
    let program = course.program(&args.program)?;
    let known: Vec<&str> = OPERATORS.iter().map(|o| o.name).collect();
    if let Some(unknown) = args.operators.iter().find(|o| !known.contains(&o.as_str())) {
        anyhow::bail!(
            "no mutation operator `{unknown}`; the operators are {}",
            known.join(", ")
        );
    }
    let mutants: Vec<_> = generate(&program.source)
        .into_iter()
        .filter(|m| args.operators.is_empty() || args.operators.iter().any(|o| o == m.operator))
        .collect();
    if let Some(dir) = &args.write {
        let name = Path::new(&program.path)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| "program.cu".into());
        let write = |sub: String, text: &str| -> anyhow::Result<()> {
            std::fs::create_dir_all(dir.join(&sub))?;
            std::fs::write(dir.join(sub).join(&name), text)?;
            Ok(())
        };
        write("original".into(), &program.source)?;
        for m in &mutants {
            write(format!("mutant-{}", m.id), &m.apply(&program.source))?;
        }
        println!(
            "wrote the program and {} mutants under {}",
            mutants.len(),
            dir.display()
        );
        return Ok(Status::Success);
    }
    if args.list {
        for m in &mutants {
            println!("#{} {} line {}:\n{}", m.id, m.operator, m.line, m.diff());
        }
        println!("{} mutants", mutants.len());
        return Ok(Status::Success);
    }
    if let Some(dir) = &args.outcomes {
        let report = import_outcomes(&program, mutants, dir)?;
        print!("{}", render(&report));
        if args.save {
            let machine = std::fs::read_to_string(dir.join("machine")).unwrap_or_default();
            let device = machine
                .lines()
                .next()
                .and_then(|l| l.split(',').next())
                .unwrap_or("unknown GPU")
                .trim()
                .to_string();
            let toolkit = machine
                .lines()
                .find(|l| l.contains("release"))
                .unwrap_or_default()
                .trim()
                .to_string();
            save(&course, &program, &report, &device, "gpu", &toolkit)?;
        }
        return Ok(Status::Success);
    }
    let chosen = backend::select(args.backend, &Options::default(), Some(&course))?;
    eprintln!(
        "mdbook-evidence: {} mutants of {}, run on {}",
        mutants.len(),
        program.path,
        crate::cmd::check::describe_backend(chosen.name())
    );
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let limit = Duration::from_secs(course.settings().timeout);
    let report = measure(chosen.as_ref(), &program, &args.operators, jobs, limit)?;
    print!("{}", render(&report));
    if args.save {
        let machine = chosen.machine()?;
        save(
            &course,
            &program,
            &report,
            &machine.device,
            chosen.name(),
            &machine.emulator,
        )?;
    }
    eprintln!(
        "mdbook-evidence: {} mutants in {:.1} s ({jobs} at a time)",
        report.mutants.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(Status::Success)
}

fn save(
    course: &Course,
    program: &Program,
    report: &Report,
    device: &str,
    backend: &str,
    toolkit: &str,
) -> anyhow::Result<()> {
    let path = evidence_path(course, &program.path);
    MutantsEvidence::of(report, &program.source, device, backend, toolkit).save(&path)?;
    eprintln!("mdbook-evidence: wrote {}", path.display());
    Ok(())
}
