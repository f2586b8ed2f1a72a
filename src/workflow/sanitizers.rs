//! Sanitizer evidence: what compute-sanitizer's four tools say about a
//! program on the GPU, recorded beside its evidence
//! (`evidence/<program>.sanitizers.toml`), and reproduced by the emulator's
//! CPU sanitizers (`run --sanitize`), which print their reports in
//! compute-sanitizer's shape and words.
//!
//! A tool's report is reduced to what the two sides must agree on: its
//! summary lines (`ERROR SUMMARY: 2 errors`, `RACECHECK SUMMARY: ...`,
//! `LEAK SUMMARY: ...`), the exit status under the tool, and its findings,
//! each the kind of error (`Invalid __global__ write of size 4 bytes`, a race
//! between a write and a read with its hazard count) at the program's source
//! lines, counted. Addresses, program counters, threads and host frames are
//! left out: they differ between any two machines.
//!
//! Hand-written: compute-sanitizer's text report is the only interface it
//! has (there is no crate for it); the reducer reads the `=========` lines
//! only, so the program's own output around them does not matter.
//!
//! A program opts out with a header line `// Sanitizers: off`, or names the
//! tools it is checked with: `// Sanitizers: memcheck racecheck`.

use super::reuse::{Purpose, ReuseStore};
use crate::backend::{self, Backend, BackendChoice, exec};
use crate::course::Course;
use crate::emulate::Sanitize;
use crate::evidence::{decode, sha256_hex};
use crate::sources::lesson::Program;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// compute-sanitizer's tools, in the order they are run and shown.
const TOOLS: [&str; 4] = Sanitize::TOOLS;

/// The file name ending of a program's sanitizer evidence.
pub(crate) const SUFFIX: &str = ".sanitizers.toml";

/// The words the CPU sanitizers put in a report of a check compute-sanitizer
/// does not make (racecheck of device memory, and its summary line): such
/// lines are no part of a report two machines can agree on, so [`ToolReport::parse`]
/// leaves them out (a program's GPU evidence never has them).
pub(crate) const CPU_ONLY: &str = "(a check of the CPU emulator;";

/// One kind of finding at one place, and how many times it was reported.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) struct Finding {
    /// `Invalid __global__ write of size 4 bytes`, `Error: Race reported
    /// between Write access and Read access [1024 hazards]`.
    pub what: String,
    /// The program's source lines it names (`demo.cu:10`, or for a race
    /// `demo.cu:7 and demo.cu:9`); empty for a leak, which has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub at: String,
    pub count: usize,
}

/// What one tool reported about one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ToolReport {
    pub tool: String,
    /// The program's exit status under the tool (`exit 0`, `signal 6`).
    pub status: String,
    pub summaries: Vec<String>,
    #[serde(default)]
    pub findings: Vec<Finding>,
}

impl ToolReport {
    /// Reduces a transcript (stdout and stderr together) of a run under
    /// `tool`, compute-sanitizer's or ours.
    pub(crate) fn parse(tool: &str, text: &str, status: &str) -> ToolReport {
        let mut findings: Vec<Finding> = Vec::new();
        let mut summaries = Vec::new();
        let mut record: Vec<&str> = Vec::new();
        let mut close = |record: &mut Vec<&str>| {
            if let Some(finding) = reduce(record)
                && !record.iter().any(|line| line.contains(CPU_ONLY))
            {
                match findings
                    .iter_mut()
                    .find(|f| f.what == finding.what && f.at == finding.at)
                {
                    Some(seen) => seen.count += 1,
                    None => findings.push(finding),
                }
            }
            record.clear();
        };
        for line in text.lines() {
            let Some(body) = line.strip_prefix("=========") else {
                continue; // the program's own output
            };
            let trimmed = body.trim();
            if trimmed.is_empty() || trimmed.starts_with("COMPUTE-SANITIZER") {
                close(&mut record);
            } else if trimmed.contains("SUMMARY:") {
                close(&mut record);
                summaries.push(trimmed.to_string());
            } else {
                if !body.starts_with("     ") {
                    close(&mut record);
                }
                record.push(trimmed);
            }
        }
        close(&mut record);
        ToolReport {
            tool: tool.to_string(),
            status: status.to_string(),
            summaries,
            findings,
        }
    }

    /// `clean`, or the summary's count of errors.
    pub(crate) fn result(&self) -> String {
        if self.findings.is_empty() {
            return "clean".into();
        }
        let said: Vec<&str> = self
            .summaries
            .iter()
            .filter_map(|s| s.split_once("SUMMARY: ").map(|(_, rest)| rest))
            .collect();
        if said.is_empty() {
            format!("{} findings", self.findings.len())
        } else {
            said.join("; ")
        }
    }

    /// How this report differs from `recorded`, or `None`.
    pub(crate) fn difference(&self, recorded: &ToolReport) -> Option<String> {
        let mut lines = Vec::new();
        if self.status != recorded.status {
            lines.push(format!(
                "status: {} recorded, {} now",
                recorded.status, self.status
            ));
        }
        if self.summaries != recorded.summaries {
            lines.push(format!(
                "summary: `{}` recorded, `{}` now",
                recorded.summaries.join("; "),
                self.summaries.join("; ")
            ));
        }
        let show = |f: &Finding| format!("{} at {} (x{})", f.what, f.at, f.count);
        for f in &recorded.findings {
            if !self.findings.contains(f) {
                lines.push(format!("recorded, not found now: {}", show(f)));
            }
        }
        for f in &self.findings {
            if !recorded.findings.contains(f) {
                lines.push(format!("found now, not recorded: {}", show(f)));
            }
        }
        (!lines.is_empty()).then(|| format!("{}: {}", self.tool, lines.join("; ")))
    }
}

/// One report's lines reduced to a finding: its wording without addresses,
/// program counters, threads and frames, and the program lines it names.
fn reduce(record: &[&str]) -> Option<Finding> {
    record.first()?;
    // Compiled once: an initcheck report has a record per thread.
    static PATTERNS: std::sync::LazyLock<[regex::Regex; 3]> = std::sync::LazyLock::new(|| {
        [
            r"in (?:\S*/)?([\w.-]+\.(?:cu|cuh|cpp|h|hpp)):(\d+)",
            r"\[\d+ hazards?\]",
            r"\s+at 0x[0-9a-f]+",
        ]
        .map(|p| regex::Regex::new(p).expect("a valid pattern"))
    });
    let [location, hazards, address] = &*PATTERNS;
    let mut what = Vec::new();
    let mut at: Vec<String> = Vec::new();
    for (i, line) in record.iter().enumerate() {
        for place in location.captures_iter(line) {
            let file = &place[1];
            // The program's lines, not the CUDA headers' (`sm_30_intrinsics.hpp`).
            if file.ends_with(".cu") || file.ends_with(".cuh") {
                let named = format!("{file}:{}", &place[2]);
                if !at.contains(&named) {
                    at.push(named);
                }
            }
        }
        let detail = [
            "by thread",
            "Address",
            "Access to",
            "and is ",
            "Saved host",
            "Host Frame",
            "Device Frame",
            "at ",
        ];
        if i > 0 && detail.iter().any(|d| line.starts_with(d)) {
            continue;
        }
        let hazard = hazards.find(line).map(|m| m.as_str().to_string());
        let mut words = address.replace_all(line, "").into_owned();
        if let Some(cut) = words.find(" at ") {
            words.truncate(cut);
        }
        if let Some(hazard) = hazard {
            words = format!("{words} {hazard}");
        }
        what.push(words.trim().to_string());
    }
    Some(Finding {
        what: what.join(" "),
        at: at.join(" and "),
        count: 1,
    })
}

/// The tools a program is checked with: all four, those its
/// `// Sanitizers:` line names, or none (`off`).
pub(crate) fn tools_of(program: &Program) -> Result<Vec<String>> {
    let line = program
        .source
        .lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| {
            l.trim_start_matches('/')
                .trim()
                .strip_prefix("Sanitizers:")
                .map(str::trim)
        });
    let Some(line) = line else {
        return Ok(TOOLS.iter().map(|t| t.to_string()).collect());
    };
    if line == "off" {
        return Ok(Vec::new());
    }
    let mut tools = Vec::new();
    for word in line.split([' ', ',']).filter(|w| !w.is_empty()) {
        if !TOOLS.contains(&word) {
            bail!(
                "{}: the `// Sanitizers:` line names `{word}`, not a tool; write `off` or some of {}",
                program.path,
                TOOLS.join(", ")
            );
        }
        tools.push(word.to_string());
    }
    Ok(tools)
}

/// A program's recorded sanitizer reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SanitizerEvidence {
    pub format: u32,
    pub program: String,
    pub recorded_at: String,
    pub source_sha256: String,
    pub device: String,
    pub backend: String,
    /// compute-sanitizer's version line (or the emulator's, provisionally).
    pub toolkit: String,
    pub arguments: Vec<String>,
    pub tools: Vec<ToolReport>,
}

const HEADER: &str = "# Sanitizer reports recorded by `mdbook-evidence record --sanitizers` from real runs of\n\
    # the program named below under each tool. Do not edit by hand: record them again.\n";

impl SanitizerEvidence {
    pub(crate) fn load(path: &std::path::Path) -> Result<Option<Self>> {
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(Some(
                toml::from_str(&text).with_context(|| format!("reading {}", path.display()))?,
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
        }
    }

    /// Writes the file atomically (a temporary file renamed over it).
    pub(crate) fn save(&self, path: &std::path::Path) -> Result<()> {
        crate::sources::files::write_atomically(
            path,
            format!("{HEADER}{}", toml::to_string(self)?).as_bytes(),
        )
    }

    pub(crate) fn recorded_day(&self) -> &str {
        self.recorded_at.get(..10).unwrap_or(&self.recorded_at)
    }

    /// Why this evidence no longer describes `program`, or `None`.
    pub(crate) fn staleness(&self, program: &Program) -> Option<String> {
        (self.source_sha256 != sha256_hex(program.source.as_bytes())).then(|| {
            format!(
                "{} changed since its sanitizer reports were recorded ({}, on {}); record them again with `{}`",
                program.path,
                self.recorded_day(),
                self.device,
                rerecord(&program.path)
            )
        })
    }
}

/// The command that records a program's sanitizer evidence.
pub(crate) fn rerecord(program: &str) -> String {
    format!("mdbook-evidence record --sanitizers {program}")
}

/// Where a program's sanitizer evidence lives, beside its evidence.
pub(crate) fn evidence_path(course: &Course, program: &str) -> PathBuf {
    let path = course.evidence_path(program);
    let name = std::path::Path::new(program)
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().to_string());
    path.with_file_name(format!("{name}{SUFFIX}"))
}

/// Runs `program` under each of `tools`: on a GPU (`backend` is the GPU's)
/// under compute-sanitizer, else by CPU emulation with the emulator's
/// sanitizers, each tool in a build and a run of its own.
pub(crate) fn measure(
    backend: &dyn Backend,
    course: &Course,
    program: &Program,
    tools: &[String],
) -> Result<Vec<ToolReport>> {
    let limit = Duration::from_secs(course.settings().timeout);
    if backend.name() == "gpu" {
        let compiled = backend.compile(program)?;
        let mut reports = Vec::new();
        for tool in tools {
            let mut command = under_compute_sanitizer(&backend.command(&compiled), tool);
            let captured = exec::run(&mut command, limit)
                .with_context(|| format!("running {} under compute-sanitizer", program.path))?;
            reports.push(report_of(tool, &captured));
        }
        return Ok(reports);
    }
    tools
        .iter()
        .map(|tool| emulated(course, program, tool, None).map(|(report, _)| report))
        .collect()
}

/// What lets an emulated run be skipped: a remembered match of the same
/// build, tool and evidence ([`super::reuse`]), found by its inputs key
/// before anything is built, or by its artifact key after.
struct Remembered<'a> {
    store: &'a ReuseStore,
    fresh: bool,
    evidence: &'a [u8],
    recorded: &'a ToolReport,
    /// The run's inputs key ([`ReuseStore::inputs_key`]), when it has one.
    inputs: Option<String>,
}

/// One run of `program` under the emulator's `tool`. With `remembered`, a
/// run that matched before with nothing changed is not repeated (its report
/// was the recorded one), and a match is remembered.
fn emulated(
    course: &Course,
    program: &Program,
    tool: &str,
    remembered: Option<&Remembered>,
) -> Result<(ToolReport, bool)> {
    if let Some(r) = remembered
        && !r.fresh
        && let Some(inputs) = &r.inputs
        && r.store.lookup(inputs).is_some()
    {
        return Ok((r.recorded.clone(), true));
    }
    let options = backend::Options {
        sanitize: Some(Sanitize {
            tools: vec![tool.to_string()],
            leak_check: tool == "memcheck",
            error_exitcode: None,
        }),
        ..backend::Options::default()
    };
    let backend = backend::select(BackendChoice::Emulate, &options, Some(course))?;
    let compiled = backend.compile(program)?;
    let key = remembered.and_then(|r| {
        let machine = backend
            .machine()
            .map(|m| format!("{m:?}"))
            .unwrap_or_default();
        let mut covered = r.evidence.to_vec();
        covered.extend_from_slice(format!("\nsanitizer {tool}").as_bytes());
        ReuseStore::key(backend.as_ref(), &machine, &compiled, &covered)
    });
    if let (Some(r), Some(key)) = (remembered, &key)
        && !r.fresh
        && let Some(reused) = r.store.lookup(key)
    {
        if let Some(inputs) = &r.inputs {
            r.store.remember(inputs, &reused.when);
        }
        return Ok((r.recorded.clone(), true));
    }
    let limit = Duration::from_secs(course.settings().timeout);
    let report = report_of(tool, &backend.run(&compiled, limit)?);
    if let Some(r) = remembered
        && report == *r.recorded
    {
        let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
        for key in key.iter().chain(&r.inputs) {
            r.store.remember(key, &now);
        }
    }
    Ok((report, false))
}

fn report_of(tool: &str, captured: &exec::Captured) -> ToolReport {
    let text = format!(
        "{}\n{}",
        decode(&captured.stdout).0,
        decode(&captured.stderr).0
    );
    ToolReport::parse(tool, &text, &String::from(captured.termination))
}

/// `compute-sanitizer --tool TOOL [--leak-check full] PROGRAM ARGS...`, in
/// the program's folder and environment.
fn under_compute_sanitizer(run: &Command, tool: &str) -> Command {
    let mut command = Command::new("compute-sanitizer");
    command.args(["--tool", tool]);
    if tool == "memcheck" {
        command.args(["--leak-check", "full"]);
    }
    command.arg(run.get_program()).args(run.get_args());
    if let Some(dir) = run.get_current_dir() {
        command.current_dir(dir);
    }
    for (key, value) in run.get_envs() {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    command
}

/// Takes the CPU sanitizers' lines (`=========`) out of a run's stdout and
/// stderr, leaving the program's own output to compare; their report, in
/// the order it came (stdout's first), when it holds a finding.
pub(crate) fn take_findings(run: &mut exec::Captured) -> Option<String> {
    let mut report = String::new();
    for stream in [&mut run.stdout, &mut run.stderr] {
        let text = decode(stream).0;
        let mut kept = String::new();
        for line in text.split_inclusive('\n') {
            if line.starts_with("=========") {
                report.push_str(line);
            } else {
                kept.push_str(line);
            }
        }
        *stream = kept.into_bytes();
    }
    let found = ToolReport::parse("", &report, "");
    (!found.findings.is_empty() || cpu_only_races(&report) > 0).then_some(report)
}

/// How many hazards of a check compute-sanitizer does not make (racecheck of
/// device memory) a CPU sanitizer's report holds: left out of the evidence,
/// they still fail `verify --sanitize` and `check --sanitize`.
pub(crate) fn cpu_only_races(report: &str) -> usize {
    let mut count = 0;
    let mut race = false;
    for line in report.lines() {
        let body = line.trim_start_matches('=').trim();
        if !line.starts_with("=========     ") {
            race = body.contains("Race reported between");
        } else if race && body.contains(CPU_ONLY) {
            count += 1;
            race = false;
        }
    }
    count
}

/// The verdict on a program's sanitizer evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SanitizersVerdict {
    /// Every tool reported what was recorded; this build's reports, and
    /// whether every one was a remembered match (nothing ran).
    Reproduced {
        reports: Vec<ToolReport>,
        reused: bool,
    },
    NoEvidence,
    Stale {
        why: String,
    },
    Mismatch {
        diff: String,
    },
}

/// Runs the recorded tools again (by the emulator's sanitizers, or on a
/// GPU under compute-sanitizer) and compares each report. Under emulation,
/// with `reuse`, a tool's run that matched before is not repeated while its
/// build and the evidence are unchanged (unless `fresh`).
pub(crate) fn reproduce(
    backend: &dyn Backend,
    course: &Course,
    program: &Program,
    reuse: Option<&ReuseStore>,
    fresh: bool,
) -> Result<SanitizersVerdict> {
    let path = evidence_path(course, &program.path);
    let Some(evidence) = SanitizerEvidence::load(&path)? else {
        return Ok(SanitizersVerdict::NoEvidence);
    };
    if let Some(why) = evidence.staleness(program) {
        return Ok(SanitizersVerdict::Stale { why });
    }
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let (now, reused): (Vec<ToolReport>, bool) = if backend.name() == "gpu" {
        let tools: Vec<String> = evidence.tools.iter().map(|t| t.tool.clone()).collect();
        (measure(backend, course, program, &tools)?, false)
    } else {
        // Only the emulator's own description vouches for the emulators
        // each tool's run is built with (the same compiler, flags and shim,
        // with the tool's options, which the purpose names).
        let machine = (backend.name() == "emulate")
            .then(|| backend.machine().map(|m| format!("{m:?}")).ok())
            .flatten();
        let runs = evidence
            .tools
            .iter()
            .map(|recorded| {
                let remembered = reuse.map(|store| Remembered {
                    store,
                    fresh,
                    evidence: &bytes,
                    recorded,
                    inputs: machine.as_deref().and_then(|machine| {
                        ReuseStore::inputs_key(
                            backend,
                            machine,
                            program,
                            Purpose::Sanitizer(&recorded.tool),
                            &bytes,
                            course.settings().timeout,
                        )
                    }),
                });
                emulated(course, program, &recorded.tool, remembered.as_ref())
            })
            .collect::<Result<Vec<_>>>()?;
        let reused = runs.iter().all(|(_, reused)| *reused);
        (runs.into_iter().map(|(report, _)| report).collect(), reused)
    };
    let diffs: Vec<String> = now
        .iter()
        .zip(&evidence.tools)
        .filter_map(|(now, recorded)| now.difference(recorded))
        .collect();
    if diffs.is_empty() {
        Ok(SanitizersVerdict::Reproduced {
            reports: now,
            reused,
        })
    } else {
        Ok(SanitizersVerdict::Mismatch {
            diff: format!(
                "the sanitizers' reports differ from those recorded on {} ({}):\n  {}",
                evidence.device,
                evidence.recorded_day(),
                diffs.join("\n  ")
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RACE: &str = "\
========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at rotate(const float *, float *)+0x140 in /x/demo.cu:11
=========     and Read access at rotate(const float *, float *)+0x150 in demo.cu:13 [4096 hazards]
========= 
launch 0 sync 0
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
";

    const LEAK: &str = "\
========= COMPUTE-SANITIZER
========= Leaked 4,096 bytes at 0x7f78ac800000
=========     Saved host backtrace up to driver entry point at allocation time
=========         Host Frame: cudaMalloc [0x4cb66] in demo
========= 
========= Invalid __global__ write of size 4 bytes
=========     at scale(float *, int)+0xa0 in demo.cu:10
=========     by thread (232,0,0) in block (3,0,0)
=========     Access to 0x7ff2c8800fa0 is out of bounds
========= 
========= Invalid __global__ write of size 4 bytes
=========     at scale(float *, int)+0xa0 in demo.cu:10
=========     by thread (233,0,0) in block (3,0,0)
========= 
========= Barrier error detected. Invalid arguments.
=========     at __syncwarp(unsigned int)+0x70 in sm_30_intrinsics.hpp:110
=========         Device Frame: half(int *)+0x30 in demo.cu:11
sum 4
========= LEAK SUMMARY: 4096 bytes leaked in 1 allocations
========= ERROR SUMMARY: 4 errors
";

    #[test]
    fn a_report_is_reduced_to_kinds_lines_and_counts() {
        let race = ToolReport::parse("racecheck", RACE, "exit 0");
        assert_eq!(
            race.findings,
            vec![Finding {
                what: "Error: Race reported between Write access and Read access [4096 hazards]"
                    .into(),
                at: "demo.cu:11 and demo.cu:13".into(),
                count: 1
            }]
        );
        assert_eq!(
            race.summaries,
            ["RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"]
        );
        assert_eq!(race.result(), "1 hazard displayed (1 error, 0 warnings)");

        let memcheck = ToolReport::parse("memcheck", LEAK, "exit 0");
        let found: Vec<(&str, &str, usize)> = memcheck
            .findings
            .iter()
            .map(|f| (f.what.as_str(), f.at.as_str(), f.count))
            .collect();
        assert_eq!(
            found,
            [
                ("Leaked 4,096 bytes", "", 1),
                ("Invalid __global__ write of size 4 bytes", "demo.cu:10", 2),
                (
                    "Barrier error detected. Invalid arguments.",
                    "demo.cu:11",
                    1
                ),
            ]
        );
        assert_eq!(
            memcheck.result(),
            "4096 bytes leaked in 1 allocations; 4 errors"
        );
        let clean = ToolReport::parse(
            "initcheck",
            "========= COMPUTE-SANITIZER\nok\n========= ERROR SUMMARY: 0 errors\n",
            "exit 0",
        );
        assert_eq!(clean.result(), "clean");
    }

    #[test]
    fn a_different_line_count_or_status_is_a_difference() {
        let recorded = ToolReport::parse("racecheck", RACE, "exit 0");
        assert_eq!(recorded.difference(&recorded), None);
        let moved = ToolReport::parse(
            "racecheck",
            &RACE.replace("demo.cu:13", "demo.cu:14"),
            "exit 0",
        );
        let diff = moved.difference(&recorded).unwrap();
        assert!(
            diff.contains("demo.cu:13") && diff.contains("demo.cu:14"),
            "{diff}"
        );
        let fewer = ToolReport::parse(
            "racecheck",
            &RACE.replace("4096 hazards", "4095 hazards"),
            "exit 0",
        );
        assert!(fewer.difference(&recorded).is_some());
        let failed = ToolReport::parse("racecheck", RACE, "exit 1");
        assert!(failed.difference(&recorded).unwrap().contains("exit 1 now"));
    }

    #[test]
    fn device_memory_races_are_left_out_of_the_evidence_but_fail_a_check() {
        // The CPU's racecheck of device memory, which compute-sanitizer does not
        // make: the H200's report of the same program has neither the finding nor
        // the second summary line, and the two must agree.
        let cpu = RACE.replace(
            "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n",
            "\
========= Error: Race reported between Write access at raw(int*, int*) in demo.cu:17
=========     and Read access at raw(int*, int*) in demo.cu:18 [2040 hazards]
=========     in __global__ memory (a check of the CPU emulator; compute-sanitizer's racecheck watches shared memory only)
========= 
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
========= RACECHECK SUMMARY of __global__ memory: 1 hazard displayed (1 error, 0 warnings) (a check of the CPU emulator; compute-sanitizer's racecheck watches shared memory only)
",
        );
        assert!(cpu.contains("demo.cu:18"), "{cpu}");
        let gpu = ToolReport::parse("racecheck", RACE, "exit 0");
        let ours = ToolReport::parse("racecheck", &cpu, "exit 0");
        assert_eq!(ours, gpu);
        assert_eq!(ours.difference(&gpu), None);
        assert_eq!(cpu_only_races(&cpu), 1);
        assert_eq!(cpu_only_races(RACE), 0);
        // Left out of the comparison, a device-memory race still fails `verify
        // --sanitize`; a clean report with its (zero) summary line does not.
        let captured = |stderr: &str| exec::Captured {
            stdout: b"sum 4\n".to_vec(),
            stderr: stderr.as_bytes().to_vec(),
            termination: crate::evidence::Termination::Exited(0),
            elapsed: Duration::ZERO,
        };
        let global_only: String = cpu
            .lines()
            .filter(|l| !l.contains("rotate("))
            .map(|l| format!("{l}\n"))
            .collect();
        assert!(global_only.contains("demo.cu:18"), "{global_only}");
        let mut run = captured(&global_only);
        assert!(take_findings(&mut run).is_some());
        assert_eq!(run.stdout, b"sum 4\n");
        let clean = "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n\
            ========= RACECHECK SUMMARY of __global__ memory: 0 hazards displayed (0 errors, 0 warnings) (a check of the CPU emulator; compute-sanitizer's racecheck watches shared memory only)\n";
        let mut run = captured(clean);
        assert_eq!(take_findings(&mut run), None);
        assert!(run.stderr.is_empty());
    }

    #[test]
    fn a_program_names_its_tools_or_opts_out() {
        let program = |header: &str| Program {
            path: "kernels/p.cu".into(),
            file: PathBuf::from("kernels/p.cu"),
            source: format!("{header}\nint main() {{}}\n"),
            build_override: None,
        };
        assert_eq!(tools_of(&program("// Build: nvcc p.cu")).unwrap().len(), 4);
        assert!(tools_of(&program("// Sanitizers: off")).unwrap().is_empty());
        assert_eq!(
            tools_of(&program("// Sanitizers: racecheck, initcheck")).unwrap(),
            ["racecheck", "initcheck"]
        );
        let error = tools_of(&program("// Sanitizers: memchek"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("kernels/p.cu") && error.contains("`memchek`"),
            "{error}"
        );
    }
}
