//! Mutation testing of a lesson program's device code: generate small,
//! plausible changes to every `__global__` and `__device__` function and to
//! the launch configuration, build and run each mutant, and count, phase by
//! phase, the mutants whose checks catch them.
//!
//! Kills are counted the way mutation testing counts them: a phase kills a
//! mutant when one of its checks that passes on the unmutated program fails
//! (or is missing) on the mutant, or when the mutant crashes or times out. A
//! check that already fails on the unmutated program can kill nothing. A
//! mutant that does not compile is stillborn and counted nowhere.
//!
//! Generation works on the tokens of [`crate::cxx::lexer`]; the operators
//! are one table, [`OPERATORS`]. A line holding `// mutants: skip` (with a
//! reason after it) gets no mutants: the way to set aside an equivalent
//! mutant so that the count stays honest.

use crate::backend::Backend;
use crate::cxx::lexer::{CodeToken, TokenKind, lex};
use crate::evidence::Termination;
use crate::evidence::decode;
use crate::evidence::transcript::{Transcript, Verdict};
use crate::sources::lesson::Program;
use std::path::Path;
use std::time::Duration;

/// One mutant: a replacement of one byte range of the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mutant {
    /// 1-based, in generation order.
    pub id: usize,
    pub operator: &'static str,
    /// 1-based line of the change.
    pub line: usize,
    pub start: usize,
    pub end: usize,
    pub replacement: String,
    /// The line before and after.
    pub before: String,
    pub after: String,
}

impl Mutant {
    /// The mutated source.
    pub(crate) fn apply(&self, source: &str) -> String {
        format!(
            "{}{}{}",
            &source[..self.start],
            self.replacement,
            &source[self.end..]
        )
    }

    /// The change as a two-line diff.
    pub(crate) fn diff(&self) -> String {
        format!("-{}\n+{}", self.before.trim_end(), self.after.trim_end())
    }
}

/// An operator over tokens: where it applies, what it puts there.
pub(crate) struct Operator {
    pub name: &'static str,
    /// What the operator does, for a reader of this table.
    #[allow(dead_code)]
    pub what: &'static str,
    find: fn(&Context) -> Vec<(usize, usize, String)>,
}

/// The mutation operators, in the order mutants are numbered.
pub(crate) const OPERATORS: &[Operator] = &[
    Operator {
        name: "relational",
        what: "a comparison swapped (< and <=, > and >=, == and !=)",
        find: relational,
    },
    Operator {
        name: "arithmetic",
        what: "an arithmetic operator swapped (+ and -, * and /)",
        find: arithmetic,
    },
    Operator {
        name: "off-by-one",
        what: "an integer constant or bound moved by one",
        find: off_by_one,
    },
    Operator {
        name: "no-barrier",
        what: "a __syncthreads() or __syncwarp() removed",
        find: no_barrier,
    },
    Operator {
        name: "grid-round-down",
        what: "a grid rounded down instead of up: (n + b - 1) / b becomes n / b",
        find: grid_round_down,
    },
    Operator {
        name: "no-guard",
        what: "a guard removed: `if (c)` always taken, `c ? a : b` always a",
        find: no_guard,
    },
    Operator {
        name: "index-shift",
        what: "an array index shifted by one",
        find: index_shift,
    },
    Operator {
        name: "narrow",
        what: "an accumulator or index narrowed (long long to int, double to float)",
        find: narrow,
    },
];

/// What the operators see: the source, its code tokens with operators of
/// several bytes merged, and which of them are device code.
struct Context<'a> {
    source: &'a str,
    tokens: Vec<Tok>,
}

#[derive(Debug, Clone)]
struct Tok {
    kind: TokenKind,
    start: usize,
    end: usize,
    /// In a device function's body or a launch's `<<<...>>>`.
    device: bool,
    /// Inside `X_cast<...>` or another template argument list.
    template: bool,
}

impl Context<'_> {
    fn text(&self, i: usize) -> &str {
        &self.source[self.tokens[i].start..self.tokens[i].end]
    }

    fn is(&self, i: usize, text: &str) -> bool {
        i < self.tokens.len() && self.text(i) == text
    }

    /// The index of the token that closes the bracket opened at `open`.
    fn closing(&self, open: usize) -> Option<usize> {
        let (o, c) = match self.text(open) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            "{" => ("{", "}"),
            _ => return None,
        };
        let mut depth = 0usize;
        for i in open..self.tokens.len() {
            if self.is(i, o) {
                depth += 1;
            } else if self.is(i, c) {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    }

    fn span(&self, from: usize, to: usize) -> &str {
        &self.source[self.tokens[from].start..self.tokens[to].end]
    }

    fn device_ops(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.tokens.len()).filter(|&i| self.tokens[i].device && !self.tokens[i].template)
    }
}

const MULTI: &[&str] = &[
    "<<<", ">>>", "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=",
    "-=", "*=", "/=", "%=", "->", "::",
];

fn context(source: &str) -> Context<'_> {
    let lexed = lex(source.as_bytes());
    let code: Vec<CodeToken> = lexed
        .code_tokens()
        .into_iter()
        .filter(|t| t.directive.is_none())
        .collect();
    let bytes = source.as_bytes();
    let mut tokens: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let t = code[i];
        let mut end = t.end;
        let mut next = i + 1;
        if t.kind == TokenKind::Punct {
            for op in MULTI {
                let n = op.len();
                if bytes.len() >= t.start + n
                    && &source[t.start..t.start + n] == *op
                    && (0..n).all(|k| {
                        code.get(i + k)
                            .is_some_and(|c| c.kind == TokenKind::Punct && c.start == t.start + k)
                    })
                {
                    end = t.start + n;
                    next = i + n;
                    break;
                }
            }
        }
        tokens.push(Tok {
            kind: t.kind,
            start: t.start,
            end,
            device: false,
            template: false,
        });
        i = next;
    }
    let mut cx = Context { source, tokens };
    // Template argument lists: `name<...>` after a cast or a known template.
    for i in 0..cx.tokens.len() {
        let opens = cx.is(i + 1, "<")
            && cx.tokens[i].kind == TokenKind::Ident
            && (cx.text(i).ends_with("_cast") || matches!(cx.text(i), "max" | "min" | "vector"));
        if opens {
            let mut depth = 0i32;
            for j in i + 1..cx.tokens.len() {
                match cx.text(j) {
                    "<" => depth += 1,
                    ">" => depth -= 1,
                    ">>" => depth -= 2,
                    _ => {}
                }
                cx.tokens[j].template = true;
                if depth <= 0 {
                    break;
                }
            }
        }
    }
    // Device function bodies.
    for i in 0..cx.tokens.len() {
        if !matches!(cx.text(i), "__global__" | "__device__") {
            continue;
        }
        let mut j = i + 1;
        while j < cx.tokens.len() && !cx.is(j, "{") && !cx.is(j, ";") && !cx.is(j, "=") {
            j += 1;
        }
        if cx.is(j, "{")
            && let Some(close) = cx.closing(j)
        {
            for k in j + 1..close {
                cx.tokens[k].device = true;
            }
        }
    }
    // Launch configurations.
    for i in 0..cx.tokens.len() {
        if cx.is(i, "<<<") {
            let mut j = i + 1;
            while j < cx.tokens.len() && !cx.is(j, ">>>") {
                cx.tokens[j].device = true;
                j += 1;
            }
        }
    }
    cx
}

fn relational(cx: &Context) -> Vec<(usize, usize, String)> {
    cx.device_ops()
        .filter_map(|i| {
            let swap = match cx.text(i) {
                "<" => "<=",
                "<=" => "<",
                ">" => ">=",
                ">=" => ">",
                "==" => "!=",
                "!=" => "==",
                _ => return None,
            };
            Some((i, i, swap.to_string()))
        })
        .collect()
}

fn arithmetic(cx: &Context) -> Vec<(usize, usize, String)> {
    cx.device_ops()
        .filter_map(|i| {
            // Binary only: an operand (a name, a number or a closing bracket) before it.
            let binary = i > 0
                && (matches!(cx.tokens[i - 1].kind, TokenKind::Ident | TokenKind::Number)
                    || cx.is(i - 1, ")")
                    || cx.is(i - 1, "]"));
            let swap = match cx.text(i) {
                "+" => "-",
                "-" => "+",
                "*" => "/",
                "/" => "*",
                "+=" => "-=",
                _ => return None,
            };
            binary.then(|| (i, i, swap.to_string()))
        })
        .collect()
}

fn off_by_one(cx: &Context) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for i in cx.device_ops() {
        if cx.tokens[i].kind != TokenKind::Number {
            continue;
        }
        let Ok(value) = cx.text(i).parse::<i64>() else {
            continue;
        };
        out.push((i, i, (value + 1).to_string()));
        if value > 0 {
            out.push((i, i, (value - 1).to_string()));
        }
    }
    out
}

fn no_barrier(cx: &Context) -> Vec<(usize, usize, String)> {
    cx.device_ops()
        .filter(|&i| matches!(cx.text(i), "__syncthreads" | "__syncwarp") && cx.is(i + 1, "("))
        .filter_map(|i| {
            let close = cx.closing(i + 1)?;
            let end = if cx.is(close + 1, ";") {
                close + 1
            } else {
                close
            };
            Some((i, end, ";".to_string()))
        })
        .collect()
}

fn grid_round_down(cx: &Context) -> Vec<(usize, usize, String)> {
    // `( A + B - 1 ) / B`, anywhere: it is how grids are rounded up.
    let mut out = Vec::new();
    for close in 0..cx.tokens.len() {
        if !(cx.is(close, ")")
            && close >= 3
            && cx.is(close - 1, "1")
            && cx.is(close - 2, "-")
            && cx.is(close + 1, "/"))
        {
            continue;
        }
        let mut open = None;
        for j in (0..close).rev() {
            if cx.is(j, "(") && cx.closing(j) == Some(close) {
                open = Some(j);
                break;
            }
        }
        let Some(open) = open else { continue };
        // The last `+` at depth 0 inside splits A from B.
        let mut depth = 0i32;
        let mut plus = None;
        for j in open + 1..close - 2 {
            match cx.text(j) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "+" if depth == 0 => plus = Some(j),
                _ => {}
            }
        }
        if let Some(plus) = plus
            && plus > open + 1
        {
            out.push((open, close, format!("({})", cx.span(open + 1, plus - 1))));
        }
    }
    out
}

fn no_guard(cx: &Context) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for i in cx.device_ops() {
        if cx.is(i, "if")
            && cx.is(i + 1, "(")
            && let Some(close) = cx.closing(i + 1)
        {
            out.push((i + 1, close, "(true)".to_string()));
        }
        if cx.is(i, "?") {
            // `c ? a : b` → `a`, where c starts after `=`, `(` or `,`.
            let mut start = i;
            while start > 0 && !matches!(cx.text(start - 1), "=" | "(" | "," | "return" | ";") {
                start -= 1;
            }
            let mut colon = i + 1;
            while colon < cx.tokens.len() && !cx.is(colon, ":") {
                colon += 1;
            }
            let mut end = colon + 1;
            while end < cx.tokens.len() && !matches!(cx.text(end), ";" | ")" | ",") {
                end += 1;
            }
            if start < i && colon < end {
                out.push((start, end - 1, format!("({})", cx.span(i + 1, colon - 1))));
            }
        }
    }
    out
}

fn index_shift(cx: &Context) -> Vec<(usize, usize, String)> {
    cx.device_ops()
        // An index: `name[...]`, not a declaration (`float tile[...]`).
        .filter(|&i| {
            cx.is(i, "[")
                && i > 1
                && cx.tokens[i - 1].kind == TokenKind::Ident
                && cx.tokens[i - 2].kind != TokenKind::Ident
        })
        .filter_map(|i| {
            let close = cx.closing(i)?;
            // A constant index is the off-by-one operator's.
            let constant = close == i + 2 && cx.tokens[i + 1].kind == TokenKind::Number;
            (close > i + 1 && !constant)
                .then(|| (i, close, format!("[{} + 1]", cx.span(i + 1, close - 1))))
        })
        .collect()
}

fn narrow(cx: &Context) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for i in cx.device_ops() {
        if cx.is(i, "long") && cx.is(i + 1, "long") {
            out.push((i, i + 1, "int".to_string()));
        } else if cx.is(i, "double") {
            out.push((i, i, "float".to_string()));
        }
    }
    out
}

/// Every mutant of `source`'s device code, skip marks honoured.
pub(crate) fn generate(source: &str) -> Vec<Mutant> {
    let cx = context(source);
    let line_of = |offset: usize| source[..offset].matches('\n').count() + 1;
    let line_text = |line: usize| source.lines().nth(line - 1).unwrap_or_default().to_string();
    let mut mutants = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for operator in OPERATORS {
        for (from, to, replacement) in (operator.find)(&cx) {
            let (start, end) = (cx.tokens[from].start, cx.tokens[to].end);
            let line = line_of(start);
            if line_text(line).contains("// mutants: skip")
                || !seen.insert((start, end, replacement.clone()))
            {
                continue;
            }
            let mut mutant = Mutant {
                id: 0,
                operator: operator.name,
                line,
                start,
                end,
                replacement,
                before: line_text(line),
                after: String::new(),
            };
            let mutated = mutant.apply(source);
            mutant.after = mutated
                .lines()
                .nth(line - 1)
                .unwrap_or_default()
                .to_string();
            mutant.id = mutants.len() + 1;
            mutants.push(mutant);
        }
    }
    mutants
}

/// How one mutant fared.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Fate {
    /// It did not compile: counted nowhere.
    Stillborn,
    /// It ran; for each phase of the unmutated run, whether that phase
    /// killed it (and which check, or `crash`/`timeout`).
    Ran(Vec<Option<String>>),
    /// Its outcome here says nothing about a GPU's, with the reason: under
    /// emulation it read or wrote out of bounds (a GPU reads whatever lies
    /// there, which the CPU does not reproduce), or the emulator refused it.
    /// Counted nowhere, like a mutant that did not compile.
    NotReproducible(String),
}

/// The reason a mutant's emulated outcome is not a GPU's.
pub(crate) const NOT_REPRODUCIBLE: &str = "outcome not reproducible on the CPU";

/// One phase of the unmutated run and what it can kill with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PhaseInfo {
    pub header: String,
    /// The checks that pass on the unmutated program (the ones that can kill).
    pub passing: Vec<String>,
    /// The checks that already fail there (they can kill nothing).
    pub failing: Vec<String>,
}

/// The result of a mutation run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Report {
    pub program: String,
    pub phases: Vec<PhaseInfo>,
    pub mutants: Vec<(Mutant, Fate)>,
}

/// The phases of an unmutated run.
pub(crate) fn phases_of(transcript: &Transcript) -> Vec<PhaseInfo> {
    transcript
        .phases
        .iter()
        .map(|p| PhaseInfo {
            header: p.header.clone(),
            passing: p
                .checks
                .iter()
                .filter(|c| c.verdict == Verdict::Pass)
                .map(|c| c.name.clone())
                .collect(),
            failing: p
                .checks
                .iter()
                .filter(|c| c.verdict == Verdict::Fail)
                .map(|c| c.name.clone())
                .collect(),
        })
        .collect()
}

/// Which phases kill a mutant whose run printed `transcript` and ended `ended`.
pub(crate) fn kills(
    phases: &[PhaseInfo],
    transcript: &Transcript,
    ended: Termination,
) -> Vec<Option<String>> {
    phases
        .iter()
        .map(|phase| {
            if phase.passing.is_empty() {
                return None;
            }
            match ended {
                Termination::Signaled(s) => return Some(format!("crash (signal {s})")),
                Termination::TimedOut => return Some("timeout".into()),
                Termination::Exited(_) => {}
            }
            let theirs = transcript.phases.iter().find(|p| p.header == phase.header);
            phase.passing.iter().find_map(|name| {
                let passed = theirs
                    .and_then(|p| p.checks.iter().find(|c| &c.name == name))
                    .is_some_and(|c| c.verdict == Verdict::Pass);
                (!passed).then(|| name.clone())
            })
        })
        .collect()
}

/// A mutant as built for its run.
pub(crate) enum Built {
    Ready(crate::backend::Compiled),
    /// It did not compile.
    Stillborn,
    /// The emulator refused it (the refusal's message).
    Refused(String),
}

/// What a mutant's run is compiled from: under emulation the static
/// `__shared__` arrays' indices are checked ([`guard_shared_indices`]).
fn source_for(backend: &dyn Backend, source: &str) -> String {
    if backend.name() == "emulate" {
        guard_shared_indices(source)
    } else {
        source.to_string()
    }
}

/// A run under emulation checks every global-memory access against the
/// program's allocations (`CUDA_EMU_BOUNDS_CHECK=1`): a mutant that reads
/// past a buffer reads, on a GPU, whatever lies there.
fn bounds_checked(
    backend: &dyn Backend,
    mut compiled: crate::backend::Compiled,
) -> crate::backend::Compiled {
    if backend.name() == "emulate" {
        compiled
            .env
            .retain(|(name, _)| name != "CUDA_EMU_BOUNDS_CHECK");
        compiled
            .env
            .push(("CUDA_EMU_BOUNDS_CHECK".into(), "1".into()));
    }
    compiled
}

/// Builds `program` (as `source`, written under `scratch`) for a mutant run.
fn build_one(
    backend: &dyn Backend,
    program: &Program,
    source: &str,
    sub: &str,
    scratch: &Path,
) -> anyhow::Result<Built> {
    let name = Path::new(&program.path)
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "program.cu".into());
    let dir = scratch.join(sub);
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(&name);
    std::fs::write(&path, source_for(backend, source))?;
    let mut mutated = Program::from_file(&path)?;
    // Named after the program, not the scratch folder, so that an emulated
    // build is the same (and cached) from one run to the next; `sub` keeps
    // the GPU's build folders apart.
    mutated.path = format!("{}#{sub}", program.path);
    mutated.build_override = program.build_override.clone();
    match backend.compile(&mutated) {
        Ok(compiled) => Ok(Built::Ready(bounds_checked(backend, compiled))),
        Err(crate::backend::BackendError::CompileFailed { .. }) => Ok(Built::Stillborn),
        Err(crate::backend::BackendError::Emulate(e)) => {
            Ok(Built::Refused(format!("the emulator refuses it: {e}")))
        }
        Err(other) => Err(other.into()),
    }
}

/// Builds the unmutated program the way the mutants' runs need it.
pub(crate) fn build_original(
    backend: &dyn Backend,
    program: &Program,
    scratch: &Path,
) -> anyhow::Result<crate::backend::Compiled> {
    match build_one(backend, program, &program.source, "original", scratch)? {
        Built::Ready(compiled) => Ok(compiled),
        Built::Stillborn => anyhow::bail!("{} does not compile", program.path),
        Built::Refused(why) => anyhow::bail!("{}: {why}", program.path),
    }
}

/// The text each mutant's build is compiled from, named as its build is
/// (`PROGRAM#mutant-N`): with the unmutated program's build (which covers
/// the headers, flags and toolchain they share), what determines the
/// mutants' builds.
pub(crate) fn mutant_sources(
    backend: &dyn Backend,
    program: &Program,
    mutants: &[Mutant],
) -> Vec<u8> {
    let mut covered = Vec::new();
    for mutant in mutants {
        covered.extend_from_slice(format!("\n{}#mutant-{}\n", program.path, mutant.id).as_bytes());
        covered.extend_from_slice(source_for(backend, &mutant.apply(&program.source)).as_bytes());
    }
    covered
}

/// Builds the unmutated program and every mutant, `jobs` at a time, the way
/// their runs need them.
pub(crate) fn build_all(
    backend: &dyn Backend,
    program: &Program,
    mutants: Vec<Mutant>,
    jobs: usize,
    scratch: &Path,
) -> anyhow::Result<(crate::backend::Compiled, Vec<(Mutant, Built)>)> {
    let original = build_original(backend, program, scratch)?;
    Ok((
        original,
        build_mutants(backend, program, mutants, jobs, scratch)?,
    ))
}

/// Builds every mutant, `jobs` at a time, the way their runs need them.
pub(crate) fn build_mutants(
    backend: &dyn Backend,
    program: &Program,
    mutants: Vec<Mutant>,
    jobs: usize,
    scratch: &Path,
) -> anyhow::Result<Vec<(Mutant, Built)>> {
    let built = super::parallel::map_ordered(
        &mutants,
        jobs.max(1),
        |mutant| {
            build_one(
                backend,
                program,
                &mutant.apply(&program.source),
                &format!("mutant-{}", mutant.id),
                scratch,
            )
        },
        &|| {},
    );
    let mut out = Vec::new();
    for (mutant, built) in mutants.into_iter().zip(built) {
        out.push((mutant, built?));
    }
    Ok(out)
}

/// Whether an emulated run stopped at an access out of bounds, and which
/// kind: the emulator's memcheck-like report, or the index check of a static
/// `__shared__` array.
pub(crate) fn out_of_bounds(stderr: &str) -> Option<&'static str> {
    if stderr.contains(SHARED_INDEX_REPORT) {
        Some("reads or writes a __shared__ array")
    } else if stderr.contains("========= Invalid __global__ read")
        || stderr.contains("========= Invalid __shared__ read")
    {
        Some("reads")
    } else if stderr.contains("========= Invalid __global__ write")
        || stderr.contains("========= Invalid __shared__ write")
    {
        Some("writes")
    } else if stderr.contains("========= Invalid __global__ access")
        || stderr.contains("========= Invalid __shared__ access")
    {
        Some("reads or writes")
    } else {
        None
    }
}

/// Runs every built mutant, `jobs` at a time where the backend runs
/// programs side by side (one at a time on a GPU), and judges each against
/// `phases`.
pub(crate) fn run_all(
    backend: &dyn Backend,
    phases: &[PhaseInfo],
    built: Vec<(Mutant, Built)>,
    jobs: usize,
    timeout: Duration,
) -> anyhow::Result<Vec<(Mutant, Fate)>> {
    let jobs = if backend.runs_in_parallel() {
        jobs.max(1)
    } else {
        1
    };
    let fates = super::parallel::map_ordered(
        &built,
        jobs,
        |(_, built)| -> anyhow::Result<Fate> {
            let compiled = match built {
                Built::Ready(compiled) => compiled,
                Built::Stillborn => return Ok(Fate::Stillborn),
                Built::Refused(why) => return Ok(Fate::NotReproducible(why.clone())),
            };
            let run = backend.run(compiled, timeout)?;
            let (stdout, _) = decode(&run.stdout);
            let (stderr, _) = decode(&run.stderr);
            if backend.name() == "emulate"
                && let Some(what) = out_of_bounds(&stderr)
            {
                return Ok(Fate::NotReproducible(format!(
                    "{what} out of bounds: {NOT_REPRODUCIBLE}"
                )));
            }
            Ok(Fate::Ran(kills(
                phases,
                &Transcript::parse(&stdout, &stderr),
                run.termination,
            )))
        },
        &|| {},
    );
    let mut out = Vec::new();
    for ((mutant, _), fate) in built.into_iter().zip(fates) {
        out.push((mutant, fate?));
    }
    Ok(out)
}

/// The line the index check of a static `__shared__` array prints.
const SHARED_INDEX_REPORT: &str = "mdbook-evidence mutants: __shared__ array indexed out of bounds";

/// `source` with every index of a static `__shared__` array in device code
/// checked against the array's extent: an index out of bounds prints one
/// line on stderr and aborts. The emulator keeps such arrays in ordinary
/// thread-local memory, where an index past the end reads a neighbour
/// without a fault; on a GPU it reads whatever shared memory holds there.
/// Only for emulated mutant runs: the lines stay where they were (the check
/// function is defined on the line of the first function that needs it).
pub(crate) fn guard_shared_indices(source: &str) -> String {
    let cx = context(source);
    let n = cx.tokens.len();
    // (byte offset, text) insertions.
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut first_function: Option<usize> = None;
    for i in 0..n {
        if !(cx.tokens[i].device && cx.is(i, "__shared__")) || (i > 0 && cx.is(i - 1, "extern")) {
            continue;
        }
        // `__shared__ T name[A][B];`: the name is the identifier before the
        // first `[` of the declaration.
        let mut j = i + 1;
        while j < n && !cx.is(j, "[") && !cx.is(j, ";") && !cx.is(j, "=") {
            j += 1;
        }
        if !(j < n && cx.is(j, "[") && j > i + 1 && cx.tokens[j - 1].kind == TokenKind::Ident) {
            continue;
        }
        if (i + 1..j).any(|k| cx.is(k, "extern")) {
            continue;
        }
        let name = cx.text(j - 1).to_string();
        let mut dims = 0;
        let mut k = j;
        while cx.is(k, "[") {
            let Some(close) = cx.closing(k) else { break };
            dims += 1;
            k = close + 1;
        }
        if dims == 0 || !cx.is(k, ";") {
            continue;
        }
        // The block the declaration lives in ends at its closing brace.
        let mut depth = 0i32;
        let mut open = None;
        for b in (0..i).rev() {
            if cx.is(b, "}") {
                depth += 1;
            } else if cx.is(b, "{") {
                if depth == 0 {
                    open = Some(b);
                    break;
                }
                depth -= 1;
            }
        }
        let Some(open) = open else { continue };
        let Some(scope_end) = cx.closing(open) else {
            continue;
        };
        // The function the block belongs to: where the check is defined.
        let mut f = open;
        while f > 0 && !matches!(cx.text(f), "__global__" | "__device__") {
            f -= 1;
        }
        let mut start = f;
        while start > 0 && matches!(cx.text(start - 1), "template" | "static" | "inline" | ">") {
            start -= 1;
        }
        first_function = Some(first_function.map_or(start, |s: usize| s.min(start)));
        for u in k + 1..scope_end {
            let member = u > 0 && matches!(cx.text(u - 1), "." | "->" | "::");
            if !(cx.text(u) == name && cx.is(u + 1, "[") && !member) {
                continue;
            }
            let line = source[..cx.tokens[u].start].matches('\n').count() + 1;
            let mut at = u + 1;
            for level in 0..dims {
                if !cx.is(at, "[") {
                    break;
                }
                let Some(close) = cx.closing(at) else { break };
                let zeros = |count: usize| "[0]".repeat(count);
                inserts.push((cx.tokens[at].end, "mdbook_evidence_mutants_index_((".into()));
                inserts.push((
                    cx.tokens[close].start,
                    format!(
                        "), sizeof({name}{}) / sizeof({name}{}), {line})",
                        zeros(level),
                        zeros(level + 1)
                    ),
                ));
                at = close + 1;
            }
        }
    }
    let Some(first) = first_function else {
        return source.to_string();
    };
    inserts.push((
        cx.tokens[first].start,
        format!(
            "__device__ static inline long long mdbook_evidence_mutants_index_(long long i, \
             unsigned long long n, int line) {{ if (i < 0 || static_cast<unsigned long long>(i) >= n) \
             {{ __builtin_fprintf(stderr, \"{SHARED_INDEX_REPORT} (index %lld of %llu) at line %d\\n\", \
             i, n, line); __builtin_abort(); }} return i; }} "
        ),
    ));
    // Later offsets first, so that earlier ones stay valid (no two
    // insertions share an offset).
    inserts.sort_by_key(|insert| std::cmp::Reverse(insert.0));
    let mut out = source.to_string();
    for (at, text) in inserts {
        out.insert_str(at, &text);
    }
    out
}

/// Per phase: (killed, of how many mutants that ran).
pub(crate) fn tally(report: &Report) -> Vec<(usize, usize)> {
    let ran: Vec<&Vec<Option<String>>> = report
        .mutants
        .iter()
        .filter_map(|(_, f)| match f {
            Fate::Ran(k) => Some(k),
            Fate::Stillborn | Fate::NotReproducible(_) => None,
        })
        .collect();
    (0..report.phases.len())
        .map(|p| (ran.iter().filter(|k| k[p].is_some()).count(), ran.len()))
        .collect()
}

/// The report as text: a table, the survivors' diffs, then one line per phase.
pub(crate) fn render(report: &Report) -> String {
    let mut out = String::new();
    let short: Vec<String> = (1..=report.phases.len()).map(|p| format!("P{p}")).collect();
    out.push_str(&format!("mutants of {}\n", report.program));
    for (p, phase) in report.phases.iter().enumerate() {
        out.push_str(&format!("  P{}: {}\n", p + 1, phase.header));
    }
    out.push_str(&format!(
        "\n{:>4}  {:<16} {:>5}  {}  change\n",
        "#",
        "operator",
        "line",
        short.join(" ")
    ));
    for (mutant, fate) in &report.mutants {
        let cells = match fate {
            Fate::Stillborn => "did not compile".to_string(),
            Fate::NotReproducible(_) => vec!["? "; report.phases.len()].join(" "),
            Fate::Ran(kills) => kills
                .iter()
                .map(|k| if k.is_some() { "K " } else { ". " })
                .collect::<Vec<_>>()
                .join(" "),
        };
        out.push_str(&format!(
            "{:>4}  {:<16} {:>5}  {}  {}\n",
            mutant.id,
            mutant.operator,
            mutant.line,
            cells,
            mutant.after.trim()
        ));
    }
    out.push_str("\n(K: killed by that phase, .: survived it, ?: not reproducible here, below)\n");
    let aside: Vec<String> = report
        .mutants
        .iter()
        .filter_map(|(m, f)| match f {
            Fate::NotReproducible(why) => Some(format!(
                "#{} ({}, line {}): {why}\n",
                m.id, m.operator, m.line
            )),
            _ => None,
        })
        .collect();
    if !aside.is_empty() {
        out.push_str(&format!(
            "\nnot reproducible here, counted nowhere ({}):\n{}",
            aside.len(),
            aside.concat()
        ));
    }
    out.push_str("\nsurvivors of every phase:\n");
    for (mutant, fate) in &report.mutants {
        if let Fate::Ran(kills) = fate
            && kills.iter().all(Option::is_none)
        {
            out.push_str(&format!(
                "#{} ({}, line {}):\n{}\n",
                mutant.id,
                mutant.operator,
                mutant.line,
                mutant.diff()
            ));
        }
    }
    out.push('\n');
    for ((phase, (killed, of)), _) in report.phases.iter().zip(tally(report)).zip(0..) {
        let title = phase
            .header
            .split(" (expected")
            .next()
            .unwrap_or(&phase.header);
        if phase.passing.is_empty() {
            out.push_str(&format!(
                "{title}: can kill nothing (every check of it already fails on the unmutated program: {})\n",
                phase.failing.join(", ")
            ));
        } else {
            out.push_str(&format!("{title}: killed {killed} of {of}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = "__global__ void k(const float* x, long long n, float* out) {
  __shared__ float tile[256];
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];  // mutants: skip (example)
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}
float host(long long n) { return n < 3 ? 1 : 2; }
int blocks(long long n) { return (n + 256 - 1) / 256; }
void launch() { k<<<blocks(4), 256>>>(0, 4, 0); }
";

    fn of(operator: &str) -> Vec<String> {
        generate(KERNEL)
            .into_iter()
            .filter(|m| m.operator == operator)
            .map(|m| m.after.trim().to_string())
            .collect()
    }

    #[test]
    fn operators_touch_device_code_and_launches_only() {
        let relational = of("relational");
        assert_eq!(
            relational,
            [
                "tile[threadIdx.x] = i <= n ? x[i] : 0.0f;",
                "for (int s = 128; s >= 0; s /= 2) {",
                "if (threadIdx.x != 0) out[blockIdx.x] = tile[0];",
            ]
        );
        // Nothing from the host's `n < 3`, the skipped line, or the cast's `<`.
        assert!(
            generate(KERNEL)
                .iter()
                .all(|m| m.line <= 11 || m.line >= 13)
        );
    }

    #[test]
    fn the_grid_is_rounded_down_and_barriers_removed() {
        assert_eq!(
            of("grid-round-down"),
            ["int blocks(long long n) { return (n) / 256; }"]
        );
        assert_eq!(of("no-barrier"), [";", ";"]);
        assert!(
            of("narrow").contains(
                &"const int i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;"
                    .to_string()
            )
        );
        assert!(of("no-guard").contains(&"tile[threadIdx.x] = (x[i]);".to_string()));
        assert!(
            of("index-shift").contains(&"tile[threadIdx.x + 1] = i < n ? x[i] : 0.0f;".to_string())
        );
        assert!(
            of("off-by-one")
                .contains(&"void launch() { k<<<blocks(4), 257>>>(0, 4, 0); }".to_string())
        );
        assert!(of("arithmetic").iter().all(|l| {
            !l.contains("static_cast<long long>(blockIdx.x) / blockDim.x + threadIdx.x")
                || l.starts_with("const")
        }));
    }

    #[test]
    fn a_students_suite_is_compared_with_the_lessons_mutant_by_mutant() {
        let mutants = generate(KERNEL);
        let grid = mutants
            .iter()
            .find(|m| m.operator == "grid-round-down")
            .unwrap()
            .clone();
        let barrier = mutants
            .iter()
            .find(|m| m.operator == "no-barrier")
            .unwrap()
            .clone();
        let phase = |passing: &[&str]| PhaseInfo {
            header: "hardened suite vs sumGuarded (expected: all pass)".into(),
            passing: passing.iter().map(|s| s.to_string()).collect(),
            failing: Vec::new(),
        };
        let student = Report {
            program: "starter/t.cu".into(),
            phases: vec![phase(&["linearity"])],
            mutants: vec![
                (grid.clone(), Fate::Ran(vec![None])),
                (barrier.clone(), Fate::Ran(vec![Some("linearity".into())])),
            ],
        };
        let lesson = Report {
            program: "kernels/t.cu".into(),
            phases: vec![phase(&["oracle, n=611", "linearity"])],
            mutants: vec![
                (grid, Fate::Ran(vec![Some("oracle, n=611".into())])),
                (barrier, Fate::Ran(vec![Some("linearity".into())])),
            ],
        };
        let text = compare_suites(&student, &lesson);
        assert!(
            text.starts_with("hardened suite vs sumGuarded: yours kills 1 of 2 mutants; the lesson's kills 2 of 2\n"),
            "{text}"
        );
        assert!(
            text.contains("the lesson's `oracle, n=611` kills it: mutant"),
            "{text}"
        );
        assert!(
            text.contains("+int blocks(long long n) { return (n) / 256; }"),
            "{text}"
        );
    }

    #[test]
    fn kills_come_only_from_checks_that_pass_unmutated() {
        let original = Transcript::parse(
            "p1 (expected: pass)\n  a                                  PASS  got 1  want 1  rel 0  rtol 0\n\np2\n  b                                  FAIL  got 1  want 2  rel 1  rtol 0\n",
            "",
        );
        let phases = phases_of(&original);
        let mutant = Transcript::parse(
            "p1 (expected: pass)\n  a                                  FAIL  got 2  want 1  rel 1  rtol 0\n\np2\n  b                                  FAIL  got 2  want 2  rel 0  rtol 0\n",
            "",
        );
        assert_eq!(
            kills(&phases, &mutant, Termination::Exited(1)),
            [Some("a".to_string()), None]
        );
        assert_eq!(
            kills(&phases, &original, Termination::Signaled(11)),
            [Some("crash (signal 11)".to_string()), None]
        );
    }
}

/// Mutant outcomes as evidence: `evidence/<program>.mutants.toml`, written
/// by `mutants --save` (from a run here) or `mutants --outcomes DIR --save`
/// (from runs made on a GPU machine), read by the `{{#mutants}}` directive.
pub(crate) mod record {
    use super::{Fate, Mutant, PhaseInfo, Report};
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub(crate) struct MutantsEvidence {
        pub format: u32,
        pub program: String,
        pub recorded_at: String,
        /// SHA-256 of the program's source when the mutants were run.
        pub source_sha256: String,
        /// The device the mutants ran on, and how (`gpu`, `emulate`).
        pub device: String,
        pub backend: String,
        pub toolkit: String,
        #[serde(rename = "phase")]
        pub phases: Vec<PhaseRecord>,
        #[serde(rename = "mutant")]
        pub mutants: Vec<MutantRecord>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub(crate) struct PhaseRecord {
        pub header: String,
        pub passing: Vec<String>,
        pub failing: Vec<String>,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub(crate) struct MutantRecord {
        pub id: usize,
        pub operator: String,
        pub line: usize,
        pub before: String,
        pub after: String,
        pub compiled: bool,
        /// Per phase, in order: the check (or `crash`, `timeout`) that killed
        /// it, or an empty string when it survived that phase.
        pub killed_by: Vec<String>,
        /// Why its outcome where it ran is not a GPU's (recorded by
        /// emulation: it read out of bounds, say); empty otherwise.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        pub not_reproducible: String,
    }

    /// The comment at the top of a mutant evidence file.
    const HEADER: &str = "# Mutant outcomes recorded by `mdbook-evidence record --mutants` from real runs of\n\
        # every mutant of the program named below. Do not edit by hand: record them again.\n";

    impl MutantsEvidence {
        pub(crate) fn of(
            report: &Report,
            source: &str,
            device: &str,
            backend: &str,
            toolkit: &str,
        ) -> Self {
            MutantsEvidence {
                format: 1,
                program: report.program.clone(),
                recorded_at: humantime::format_rfc3339_seconds(std::time::SystemTime::now())
                    .to_string(),
                source_sha256: crate::evidence::sha256_hex(source.as_bytes()),
                device: device.to_string(),
                backend: backend.to_string(),
                toolkit: toolkit.to_string(),
                phases: report
                    .phases
                    .iter()
                    .map(|p| PhaseRecord {
                        header: p.header.clone(),
                        passing: p.passing.clone(),
                        failing: p.failing.clone(),
                    })
                    .collect(),
                mutants: report
                    .mutants
                    .iter()
                    .map(|(m, fate)| MutantRecord {
                        id: m.id,
                        operator: m.operator.to_string(),
                        line: m.line,
                        before: m.before.clone(),
                        after: m.after.clone(),
                        compiled: !matches!(fate, Fate::Stillborn),
                        killed_by: match fate {
                            Fate::Stillborn | Fate::NotReproducible(_) => Vec::new(),
                            Fate::Ran(kills) => kills
                                .iter()
                                .map(|k| k.clone().unwrap_or_default())
                                .collect(),
                        },
                        not_reproducible: match fate {
                            Fate::NotReproducible(why) => why.clone(),
                            _ => String::new(),
                        },
                    })
                    .collect(),
            }
        }

        /// The report this evidence holds (for rendering and comparison).
        pub(crate) fn report(&self) -> Report {
            let operator = |name: &str| {
                super::OPERATORS
                    .iter()
                    .find(|o| o.name == name)
                    .map_or("unknown", |o| o.name)
            };
            Report {
                program: self.program.clone(),
                phases: self
                    .phases
                    .iter()
                    .map(|p| PhaseInfo {
                        header: p.header.clone(),
                        passing: p.passing.clone(),
                        failing: p.failing.clone(),
                    })
                    .collect(),
                mutants: self
                    .mutants
                    .iter()
                    .map(|m| {
                        let mutant = Mutant {
                            id: m.id,
                            operator: operator(&m.operator),
                            line: m.line,
                            start: 0,
                            end: 0,
                            replacement: String::new(),
                            before: m.before.clone(),
                            after: m.after.clone(),
                        };
                        let fate = if !m.not_reproducible.is_empty() {
                            Fate::NotReproducible(m.not_reproducible.clone())
                        } else if m.compiled {
                            Fate::Ran(
                                m.killed_by
                                    .iter()
                                    .map(|k| (!k.is_empty()).then(|| k.clone()))
                                    .collect(),
                            )
                        } else {
                            Fate::Stillborn
                        };
                        (mutant, fate)
                    })
                    .collect(),
            }
        }

        pub(crate) fn load(path: &std::path::Path) -> anyhow::Result<Option<Self>> {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    Ok(Some(toml::from_str(&text).map_err(|e| {
                        anyhow::anyhow!("reading {}: {e}", path.display())
                    })?))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(anyhow::anyhow!("reading {}: {e}", path.display())),
            }
        }

        /// Writes the file atomically (a temporary file renamed over it).
        pub(crate) fn save(&self, path: &std::path::Path) -> anyhow::Result<()> {
            crate::sources::files::write_atomically(
                path,
                format!("{HEADER}{}", toml::to_string(self)?).as_bytes(),
            )
        }

        /// The day the mutants were recorded (`2026-12-01`).
        pub(crate) fn recorded_day(&self) -> &str {
            self.recorded_at.get(..10).unwrap_or(&self.recorded_at)
        }
    }
}

/// Reads runs made elsewhere (`DIR/original/` and `DIR/mutant-N/`, each
/// with `stdout`, `stderr` and `status`: an exit status, 124 for a time-out,
/// 128 + N for signal N, or `did not compile`) into a report.
pub(crate) fn import_outcomes(
    program: &Program,
    mutants: Vec<Mutant>,
    dir: &Path,
) -> anyhow::Result<Report> {
    let read = |sub: &str| -> anyhow::Result<Option<(Transcript, Termination)>> {
        let folder = dir.join(sub);
        let text = |f: &str| {
            std::fs::read(folder.join(f))
                .map(|b| decode(&b).0)
                .map_err(|e| anyhow::anyhow!("reading {}: {e}", folder.join(f).display()))
        };
        let status = text("status")?;
        let status = status.trim();
        if status == "did not compile" {
            return Ok(None);
        }
        let code: i32 = status.parse().map_err(|_| {
            anyhow::anyhow!("{}: status `{status}` is not a number", folder.display())
        })?;
        let ended = match code {
            124 => Termination::TimedOut,
            c if c > 128 => Termination::Signaled(c - 128),
            c => Termination::Exited(c),
        };
        Ok(Some((
            Transcript::parse(&text("stdout")?, &text("stderr")?),
            ended,
        )))
    };
    let Some((original, _)) = read("original")? else {
        anyhow::bail!("the unmutated program did not compile in {}", dir.display());
    };
    let phases = phases_of(&original);
    let mut out = Vec::new();
    for mutant in mutants {
        let fate = match read(&format!("mutant-{}", mutant.id))? {
            None => Fate::Stillborn,
            Some((transcript, ended)) => Fate::Ran(kills(&phases, &transcript, ended)),
        };
        out.push((mutant, fate));
    }
    Ok(Report {
        program: program.path.clone(),
        phases,
        mutants: out,
    })
}

/// Where a program's mutant evidence lives, next to its evidence.
pub(crate) fn evidence_path(course: &crate::course::Course, program: &str) -> std::path::PathBuf {
    let path = course.evidence_path(program);
    path.with_file_name(format!(
        "{}{}",
        Path::new(program)
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().to_string()),
        crate::course::MUTANTS_SUFFIX
    ))
}

/// Runs `program` unmutated, then every mutant of it (of `operators`, or
/// all), `jobs` at a time, each under ten times the unmutated run's time
/// plus five seconds (at most `limit`).
pub(crate) fn measure(
    backend: &dyn Backend,
    program: &Program,
    operators: &[String],
    jobs: usize,
    limit: Duration,
) -> anyhow::Result<Report> {
    let mutants: Vec<Mutant> = generate(&program.source)
        .into_iter()
        .filter(|m| operators.is_empty() || operators.iter().any(|o| o == m.operator))
        .collect();
    let scratch = tempfile::tempdir()?;
    let (original, built) = build_all(backend, program, mutants, jobs, scratch.path())?;
    let (phases, timeout) = run_original(backend, program, &original, limit)?;
    Ok(Report {
        program: program.path.clone(),
        mutants: run_all(backend, &phases, built, jobs, timeout)?,
        phases,
    })
}

/// Runs the unmutated program: its phases, and the time limit of each
/// mutant's run (ten times this run's time plus five seconds, at most
/// `limit`). An error when it did not run to its end, or (under emulation)
/// read or wrote out of bounds.
pub(crate) fn run_original(
    backend: &dyn Backend,
    program: &Program,
    compiled: &crate::backend::Compiled,
    limit: Duration,
) -> anyhow::Result<(Vec<PhaseInfo>, Duration)> {
    let run = backend.run(compiled, limit)?;
    if !run.termination.completed() {
        anyhow::bail!(
            "{} itself ended with {}: mutants need a program that runs",
            program.path,
            String::from(run.termination)
        );
    }
    let (stdout, _) = decode(&run.stdout);
    let (stderr, _) = decode(&run.stderr);
    if backend.name() == "emulate"
        && let Some(what) = out_of_bounds(&stderr)
    {
        anyhow::bail!(
            "{} itself {what} out of bounds under emulation (`run --bounds-check` shows where); mutants need a program that does not",
            program.path
        );
    }
    let original = Transcript::parse(&stdout, &stderr);
    let timeout = (run.elapsed * 10 + Duration::from_secs(5)).min(limit);
    Ok((phases_of(&original), timeout))
}

/// The student's kills next to the lesson's, per phase the two share: one
/// line each, and the student's survivors that the lesson's suite kills
/// (mutants matched by their operator and their changed line).
pub(crate) fn compare_suites(student: &Report, lesson: &Report) -> String {
    let mut out = String::new();
    let ours = tally(student);
    let theirs = tally(lesson);
    for (p, phase) in student.phases.iter().enumerate() {
        let Some(q) = lesson.phases.iter().position(|l| l.header == phase.header) else {
            continue;
        };
        if phase.passing.is_empty() && lesson.phases[q].passing.is_empty() {
            continue;
        }
        let title = phase
            .header
            .split(" (expected")
            .next()
            .unwrap_or(&phase.header);
        out.push_str(&format!(
            "{title}: yours kills {} of {} mutants; the lesson's kills {} of {}\n",
            ours[p].0, ours[p].1, theirs[q].0, theirs[q].1
        ));
        for (mutant, fate) in &student.mutants {
            let Fate::Ran(kills) = fate else { continue };
            if kills[p].is_some() {
                continue;
            }
            let caught = lesson.mutants.iter().find_map(|(m, f)| match f {
                Fate::Ran(k)
                    if m.operator == mutant.operator
                        && m.before.trim() == mutant.before.trim()
                        && m.after.trim() == mutant.after.trim() =>
                {
                    k[q].clone()
                }
                _ => None,
            });
            if let Some(by) = caught {
                out.push_str(&format!(
                    "  survives yours, the lesson's `{by}` kills it: mutant {} ({}, line {})\n{}\n",
                    mutant.id,
                    mutant.operator,
                    mutant.line,
                    mutant
                        .diff()
                        .lines()
                        .map(|l| format!("    {l}"))
                        .collect::<Vec<_>>()
                        .join("\n")
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod guard_tests {
    use super::*;

    #[test]
    fn static_shared_indices_are_checked_and_lines_stay_where_they_were() {
        let source = "// k\n__global__ void k(float* y) {\n  __shared__ float t[4][8];\n  \
                      t[threadIdx.x][0] = 1.0f;\n  y[0] = t[1][threadIdx.x];\n}\n\
                      __global__ void d(float* y) {\n  extern __shared__ float s[];\n  s[0] = 1;\n}\n";
        let guarded = guard_shared_indices(source);
        assert_eq!(guarded.lines().count(), source.lines().count());
        let lines: Vec<&str> = guarded.lines().collect();
        assert!(
            lines[1]
                .starts_with("__device__ static inline long long mdbook_evidence_mutants_index_(")
                && lines[1].ends_with("__global__ void k(float* y) {"),
            "{}",
            lines[1]
        );
        assert_eq!(
            lines[3],
            "  t[mdbook_evidence_mutants_index_((threadIdx.x), sizeof(t) / sizeof(t[0]), 4)]\
             [mdbook_evidence_mutants_index_((0), sizeof(t[0]) / sizeof(t[0][0]), 4)] = 1.0f;"
        );
        // Global memory (the emulator's bounds check covers it) and dynamic
        // shared memory (likewise) are left alone.
        assert!(lines[4].starts_with("  y[0] = t[mdbook_evidence_mutants_index_((1)"));
        assert_eq!(lines[8], "  s[0] = 1;");
        // Nothing to check: the source as it was.
        assert_eq!(guard_shared_indices("int main() {}\n"), "int main() {}\n");
    }

    #[test]
    fn an_emulated_report_of_an_access_out_of_bounds_is_recognised() {
        assert_eq!(
            out_of_bounds("========= Invalid __global__ read of size 4 bytes\n"),
            Some("reads")
        );
        assert_eq!(
            out_of_bounds("x\n========= Invalid __global__ write of size 4 bytes\n"),
            Some("writes")
        );
        assert_eq!(
            out_of_bounds(&format!(
                "{SHARED_INDEX_REPORT} (index 256 of 256) at line 60\n"
            )),
            Some("reads or writes a __shared__ array")
        );
        assert_eq!(out_of_bounds("GATE: the supplied suite failed\n"), None);
    }
}
