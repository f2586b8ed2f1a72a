//! Recorded evidence: one file per program under `evidence/`, holding what
//! the program printed on a real GPU and everything needed to judge it later.
//!
//! The format is TOML, written so that `git diff` reads line by line: the
//! transcript goes in multi-line strings (stdout and stderr kept apart), one
//! printed line per file line. A file is only ever written whole, through
//! [`files::write_atomically`]. Source and build-command hashes tell when the
//! evidence no longer matches the program ([`Staleness`]).

pub(crate) mod transcript;
pub(crate) mod variation;

use crate::sources::files;
use crate::sources::lesson::Program;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// The version of the file format this build reads and writes.
pub(crate) const FORMAT: u32 = 1;

const HEADER: &str = "\
# Evidence recorded by `mdbook-evidence record` from a real run of the program
# named below. Do not edit by hand: re-record it (the command is in `rerecord`).
";

/// How and when this build reproduced a program's evidence: the note the
/// workflow hands the book for its provenance lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reproduction {
    /// "CPU emulation (g++ 12.2.0)" or "a run on NVIDIA H200".
    pub how: String,
    /// RFC 3339 time.
    pub when: String,
}

/// How a run ended. Written in evidence as `exit 0`, `signal 11` or
/// `timed out`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Termination {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it (a crash).
    Signaled(i32),
    /// It ran past its time limit and was killed.
    TimedOut,
}

impl Termination {
    /// Whether it exited with status 0.
    pub fn success(self) -> bool {
        self == Termination::Exited(0)
    }

    /// Whether the run finished on its own (any exit status), as opposed to
    /// crashing or timing out.
    pub fn completed(self) -> bool {
        matches!(self, Termination::Exited(_))
    }
}

impl From<Termination> for String {
    fn from(t: Termination) -> String {
        match t {
            Termination::Exited(code) => format!("exit {code}"),
            Termination::Signaled(signal) => format!("signal {signal}"),
            Termination::TimedOut => "timed out".into(),
        }
    }
}

impl TryFrom<String> for Termination {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        let number = |n: &str| {
            n.trim()
                .parse()
                .map_err(|_| format!("`{text}` is not `exit N`, `signal N` or `timed out`"))
        };
        if let Some(code) = text.strip_prefix("exit ") {
            Ok(Termination::Exited(number(code)?))
        } else if let Some(signal) = text.strip_prefix("signal ") {
            Ok(Termination::Signaled(number(signal)?))
        } else if text == "timed out" {
            Ok(Termination::TimedOut)
        } else {
            Err(format!(
                "`{text}` is not `exit N`, `signal N` or `timed out`"
            ))
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Termination::Exited(code) => write!(f, "exit status {code}"),
            Termination::Signaled(signal) => write!(f, "killed by signal {signal}"),
            Termination::TimedOut => write!(f, "timed out"),
        }
    }
}

/// The source the evidence was recorded from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct SourceRecord {
    pub sha256: String,
    /// The program's own `// Build:` line.
    pub build_line: String,
    pub build_line_sha256: String,
    /// The other files its build reads (sources of the build line, local
    /// headers), by path, with their SHA-256.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub dependencies: std::collections::BTreeMap<String, String>,
}

impl SourceRecord {
    pub fn of(program: &Program) -> SourceRecord {
        let build_line = program.build_line().unwrap_or("").to_string();
        let dependencies = program
            .dependencies()
            .into_iter()
            .map(|(shown, file)| {
                let hash = crate::sources::confine::read_regular(&file)
                    .map(|bytes| sha256_hex(&bytes))
                    .unwrap_or_else(|_| "unreadable".to_string());
                (shown, hash)
            })
            .collect();
        SourceRecord {
            sha256: sha256_hex(program.source.as_bytes()),
            build_line_sha256: sha256_hex(build_line.as_bytes()),
            build_line,
            dependencies,
        }
    }
}

/// The machine and toolchain of the recording.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct MachineRecord {
    pub device: String,
    pub compute_capability: String,
    /// The CUDA version the driver supports (`cuDriverGetVersion`), e.g. `13.0`.
    pub driver_cuda_version: String,
    /// The driver's release as `nvidia-smi` prints it, when known.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub driver_release: String,
    /// The CUDA runtime the program was built against (nvcc's release).
    pub runtime_version: String,
    /// Set when the run was made by CPU emulation, not on a GPU: the C++
    /// compiler and its flags. The device fields then name the GPU the
    /// emulator stood in for, and the evidence is provisional.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub emulator: String,
}

/// How the program was built.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct BuildRecord {
    /// The exact command that ran, the output path ours.
    pub command: String,
    /// The compiler's `--version`, last line.
    pub compiler_version: String,
}

/// What the program printed and how it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct RunRecord {
    pub command: String,
    pub termination: Termination,
    /// True when stdout or stderr held bytes that are not UTF-8, replaced
    /// here by U+FFFD.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lossy: bool,
    pub stdout: String,
    pub stderr: String,
}

/// One evidence file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Evidence {
    /// The version of the evidence file format; a file of another version is refused.
    pub format: u32,
    /// The program, relative to the book root.
    pub program: String,
    /// RFC 3339, UTC.
    pub recorded_at: String,
    /// The command that records this evidence again.
    pub rerecord: String,
    /// The sources the program was built from, with their hashes.
    pub source: SourceRecord,
    /// The machine and device it ran on.
    pub machine: MachineRecord,
    /// How it was compiled.
    pub build: BuildRecord,
    /// What the run printed and how it ended.
    pub run: RunRecord,
}

/// Why evidence no longer matches its program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Staleness {
    Fresh,
    /// The source changed since the recording.
    SourceChanged,
    /// A file the build reads (another source, a local header) changed,
    /// appeared or disappeared since the recording.
    DependencyChanged {
        file: String,
    },
    /// The `// Build:` line changed since the recording.
    BuildLineChanged {
        recorded: String,
        now: String,
    },
}

impl Evidence {
    /// Reads an evidence file; `Ok(None)` when there is none.
    pub fn load(path: &Path) -> Result<Option<Evidence>> {
        let bytes = match crate::sources::confine::read_regular(path) {
            Ok(bytes) => bytes,
            Err(e) if crate::sources::confine::is_not_found(&e) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let text = String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!(
                "{}: not a valid evidence file: not UTF-8 text; re-record it with `mdbook-evidence record`",
                path.display()
            )
        })?;
        Evidence::parse(path, &text).map(Some)
    }

    /// Parses the text of an evidence file; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Evidence> {
        let evidence: Evidence = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text[..s.start].matches('\n').count() + 1);
            anyhow::anyhow!(
                "{}{}: not a valid evidence file: {}; re-record it with `mdbook-evidence record`",
                path.display(),
                line.map(|l| format!(":{l}")).unwrap_or_default(),
                e.message()
            )
        })?;
        if evidence.format != FORMAT {
            bail!(
                "{}: evidence format {} is not the format {FORMAT} this mdbook-evidence reads; re-record it",
                path.display(),
                evidence.format
            );
        }
        Ok(evidence)
    }

    /// Writes the evidence whole, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        let body = toml::to_string_pretty(self).context("serialising evidence")?;
        files::write_atomically(path, format!("{HEADER}{body}").as_bytes())
    }

    /// Whether this evidence still describes `program`.
    pub fn staleness(&self, program: &Program) -> Staleness {
        let now = SourceRecord::of(program);
        if now.build_line_sha256 != self.source.build_line_sha256 {
            Staleness::BuildLineChanged {
                recorded: self.source.build_line.clone(),
                now: now.build_line,
            }
        } else if now.sha256 != self.source.sha256 {
            Staleness::SourceChanged
        } else if let Some(file) = changed_dependency(&self.source.dependencies, &now.dependencies)
        {
            Staleness::DependencyChanged { file }
        } else {
            Staleness::Fresh
        }
    }

    /// The first 12 characters of the source hash, for provenance lines.
    pub fn short_source_hash(&self) -> &str {
        let end = self
            .source
            .sha256
            .char_indices()
            .nth(12)
            .map_or(self.source.sha256.len(), |(i, _)| i);
        &self.source.sha256[..end]
    }

    /// Whether this evidence was recorded by CPU emulation and still waits
    /// for a run on a GPU.
    pub fn is_provisional(&self) -> bool {
        !self.machine.emulator.is_empty()
    }

    /// The recording day (`2026-11-30`).
    pub fn recorded_day(&self) -> &str {
        self.recorded_at.get(..10).unwrap_or(&self.recorded_at)
    }
}

impl Staleness {
    /// A sentence for messages and banners; `None` when fresh.
    pub fn describe(&self, evidence: &Evidence) -> Option<String> {
        let when = format!(
            "recorded {} on {} ({})",
            evidence.recorded_at, evidence.machine.device, evidence.machine.compute_capability
        );
        match self {
            Staleness::Fresh => None,
            Staleness::SourceChanged => Some(format!(
                "{} changed since its evidence was {when}; re-record it with `{}`",
                evidence.program, evidence.rerecord
            )),
            Staleness::DependencyChanged { file } => Some(format!(
                "{file}, which {} is built from, changed since its evidence was {when}; re-record it with `{}`",
                evidence.program, evidence.rerecord
            )),
            Staleness::BuildLineChanged { recorded, now } => Some(format!(
                "the build command of {} changed since its evidence was {when} (was `{recorded}`, now `{now}`); re-record it with `{}`",
                evidence.program, evidence.rerecord
            )),
        }
    }
}

/// The SHA-256 of `bytes`, in lowercase hex: how evidence files name a
/// source and its build line.
/// The first dependency that differs between two recordings' lists.
fn changed_dependency(
    recorded: &std::collections::BTreeMap<String, String>,
    now: &std::collections::BTreeMap<String, String>,
) -> Option<String> {
    recorded
        .iter()
        .find(|(file, hash)| now.get(*file) != Some(hash))
        .map(|(file, _)| file.clone())
        .or_else(|| now.keys().find(|f| !recorded.contains_key(*f)).cloned())
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// `bytes` as lowercase hex, two digits a byte: the one spelling of hashes
/// in evidence files and in the emulator's cache names.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Decodes a program's output; the flag says whether bytes were replaced.
pub(crate) fn decode(bytes: &[u8]) -> (String, bool) {
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => (text, false),
        Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn sample(program: &Program) -> Evidence {
        Evidence {
            format: FORMAT,
            program: program.path.clone(),
            recorded_at: "2026-11-30T15:00:00Z".into(),
            rerecord: format!("mdbook-evidence record {}", program.path),
            source: SourceRecord::of(program),
            machine: MachineRecord {
                device: "NVIDIA H200".into(),
                compute_capability: "9.0".into(),
                driver_cuda_version: "13.0".into(),
                driver_release: "580.159.04".into(),
                runtime_version: "13.0".into(),
                emulator: String::new(),
            },
            build: BuildRecord {
                command: "nvcc -O3 -o /tmp/x/t t.cu".into(),
                compiler_version: "Cuda compilation tools, release 13.0, V13.0.88".into(),
            },
            run: RunRecord {
                command: "./t".into(),
                termination: Termination::Exited(0),
                lossy: false,
                stdout: "GPU: NVIDIA H200 (compute capability 9.0)\n  with \"quotes\" and \\ and '''\n\ttab\r\n  trailing  \n".into(),
                stderr: String::new(),
            },
        }
    }

    fn program(source: &str) -> Program {
        Program {
            path: "kernels/t.cu".into(),
            file: "kernels/t.cu".into(),
            source: source.into(),
            build_override: None,
        }
    }

    #[test]
    fn hashes_are_spelled_in_lowercase_hex() {
        assert_eq!(hex(&[0x00, 0xab, 0x0f]), "00ab0f");
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn round_trips_exactly_and_diffs_line_by_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("evidence/kernels/t.cu.toml");
        let evidence = sample(&program("// Build: nvcc -o t t.cu\nint main(){}\n"));
        evidence.save(&path).unwrap();
        assert_eq!(Evidence::load(&path).unwrap().unwrap(), evidence);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# Evidence recorded by"));
        // Each printed line is a line of the file.
        assert!(
            text.contains("\nGPU: NVIDIA H200 (compute capability 9.0)\n"),
            "{text}"
        );
        assert!(text.contains("\ntermination = \"exit 0\"\n"), "{text}");
        for t in [
            Termination::Exited(-1),
            Termination::Signaled(11),
            Termination::TimedOut,
        ] {
            assert_eq!(Termination::try_from(String::from(t)), Ok(t));
        }
        assert!(Termination::try_from("crashed".to_string()).is_err());
    }

    #[test]
    fn a_missing_file_is_none_and_a_broken_one_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Evidence::load(&dir.path().join("none.toml")).unwrap(), None);
        let broken = dir.path().join("broken.toml");
        std::fs::write(&broken, "format = 1\nprogram = \"x\"\nrecorded-at = 5\n").unwrap();
        let err = Evidence::load(&broken).unwrap_err().to_string();
        assert!(
            err.contains("broken.toml:3:") && err.contains("re-record"),
            "{err}"
        );
    }

    #[test]
    fn staleness_follows_the_source_and_the_build_line() {
        let original = program("// Build: nvcc -o t t.cu\nint main(){}\n");
        let evidence = sample(&original);
        assert_eq!(evidence.staleness(&original), Staleness::Fresh);
        let edited = program("// Build: nvcc -o t t.cu\nint main(){ return 1; }\n");
        assert_eq!(evidence.staleness(&edited), Staleness::SourceChanged);
        let rebuilt = program("// Build: nvcc -O0 -o t t.cu\nint main(){}\n");
        assert!(matches!(
            evidence.staleness(&rebuilt),
            Staleness::BuildLineChanged { .. }
        ));
        let message = evidence.staleness(&edited).describe(&evidence).unwrap();
        assert!(
            message.contains("kernels/t.cu changed")
                && message.contains("mdbook-evidence record kernels/t.cu")
        );
        assert!(message.contains("2026-11-30T15:00:00Z") && message.contains("NVIDIA H200"));
    }

    #[test]
    fn a_hash_that_is_not_hex_does_not_break_the_provenance_line() {
        let mut evidence = sample(&program(""));
        evidence.source.sha256 = "ééééééééééééééééé".into();
        assert_eq!(evidence.short_source_hash(), "éééééééééééé");
        evidence.source.sha256 = "abc".into();
        assert_eq!(evidence.short_source_hash(), "abc");
    }

    #[test]
    fn non_utf8_output_is_decoded_lossily_and_flagged() {
        assert_eq!(decode(b"ok\n"), ("ok\n".to_string(), false));
        let (text, lossy) = decode(b"bad \xff\xfe byte\n");
        assert!(lossy && text.contains('\u{FFFD}'));
    }
}
