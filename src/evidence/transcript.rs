//! Reads what a lesson program printed: its phases, checks, gates and
//! closing line, following the output conventions of the lesson facts.
//!
//! The parser never fails. Every line it does not recognise is kept, in
//! order, so nothing a program prints is lost from the book; a program with
//! no check lines at all is still a valid transcript. Numbers are kept as
//! printed (the book shows them as the program wrote them) and also parsed
//! (NaN and infinities included) for margins and comparisons.
//!
//! Hand-written: the conventions are a few fixed line shapes (a column-0
//! header, a two-space-indented check line with `got`/`want`/`rel`/`rtol`
//! fields, `GATE:` lines), for which a line scanner is clearer than a grammar.

use serde::Serialize;

/// The verdict a check line printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    Pass,
    Fail,
}

/// A number as the program printed it, and its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Number {
    pub text: String,
    #[serde(skip)]
    pub value: f64,
}

impl Number {
    fn parse(text: &str) -> Option<Number> {
        let lower = text.to_ascii_lowercase();
        let value = match lower.trim_start_matches(['-', '+']) {
            "nan" | "-nan" => f64::NAN,
            "inf" | "infinity" if lower.starts_with('-') => f64::NEG_INFINITY,
            "inf" | "infinity" => f64::INFINITY,
            _ => text.parse().ok()?,
        };
        Some(Number {
            text: text.to_string(),
            value,
        })
    }
}

/// One comparison the program made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// The check's name, as printed (`oracle, n=611`).
    pub name: String,
    /// PASS or FAIL, as printed.
    pub verdict: Verdict,
    /// The value the kernel gave.
    pub got: Number,
    /// The value it was compared with.
    pub want: Number,
    /// `|got - want| / |want|` (or `/ 1` when want is 0), as printed.
    pub rel: Number,
    /// The tolerance the check allowed.
    pub rtol: Number,
    /// 1-based line in stdout.
    pub line: usize,
}

impl Check {
    /// rel / rtol: how much of its tolerance the check used. `None` when the
    /// tolerance is 0 (exact comparison) or either number is not finite.
    pub fn margin(&self) -> Option<f64> {
        let (rel, rtol) = (self.rel.value, self.rtol.value);
        (rtol > 0.0 && rel.is_finite() && rtol.is_finite()).then(|| rel / rtol)
    }

    /// Parses a check line, or returns `None` for any other line.
    pub fn parse(line: &str, number: usize) -> Option<Check> {
        let body = line.strip_prefix("  ")?;
        let (name, verdict, rest) = [
            (" PASS  got ", Verdict::Pass),
            (" FAIL  got ", Verdict::Fail),
        ]
        .into_iter()
        .find_map(|(marker, verdict)| {
            body.find(marker)
                .map(|i| (&body[..i], verdict, &body[i + marker.len()..]))
        })?;
        let name = name.trim_end();
        if name.is_empty() || name.starts_with(' ') {
            return None;
        }
        let mut fields = rest.split_whitespace();
        let got = Number::parse(fields.next()?)?;
        let want = field(&mut fields, "want")?;
        let rel = field(&mut fields, "rel")?;
        let rtol = field(&mut fields, "rtol")?;
        if fields.next().is_some() {
            return None;
        }
        Some(Check {
            name: name.to_string(),
            verdict,
            got,
            want,
            rel,
            rtol,
            line: number,
        })
    }
}

fn field<'a>(fields: &mut impl Iterator<Item = &'a str>, key: &str) -> Option<Number> {
    (fields.next()? == key).then_some(())?;
    Number::parse(fields.next()?)
}

/// A phase: a header line and what follows it up to the next empty line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Phase {
    /// The header as printed.
    pub header: String,
    /// The header without its `(expected: ...)` part.
    pub title: String,
    /// What the phase is expected to show, from `(expected: ...)`.
    pub expected: Option<String>,
    pub checks: Vec<Check>,
    /// Lines of the phase that are not checks, kept as printed.
    pub other_lines: Vec<String>,
}

impl Phase {
    pub fn passed(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.verdict == Verdict::Pass)
            .count()
    }

    pub fn failed(&self) -> usize {
        self.checks.len() - self.passed()
    }
}

/// A program's stdout and stderr, read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transcript {
    /// The first line when it names the GPU (`GPU: ...`): the only line that
    /// differs between machines.
    pub device_line: Option<String>,
    /// The lines before the first empty line (device line included).
    pub preamble: Vec<String>,
    /// The phases of the run (a header line and its checks), in order.
    pub phases: Vec<Phase>,
    /// The `GATE:` lines of stderr, without the marker.
    pub gate_failures: Vec<String>,
    /// The last column-0 line after the phases, when it is not a phase.
    pub closing: Option<String>,
    /// Every line of stdout in no phase and not the closing line.
    pub unrecognised: Vec<String>,
}

/// The text of stdout with the device line set aside, for comparing runs on
/// different machines.
pub fn without_device_line(stdout: &str) -> &str {
    match stdout.split_once('\n') {
        Some((first, rest)) if first.starts_with("GPU:") => rest,
        None if stdout.starts_with("GPU:") => "",
        _ => stdout,
    }
}

impl Transcript {
    /// Reads stdout and stderr; never fails.
    pub fn parse(stdout: &str, stderr: &str) -> Transcript {
        let lines: Vec<&str> = stdout.lines().collect();
        let blocks = blocks(&lines);
        let mut transcript = Transcript {
            device_line: lines
                .first()
                .filter(|l| l.starts_with("GPU:"))
                .map(|l| l.to_string()),
            preamble: Vec::new(),
            phases: Vec::new(),
            gate_failures: stderr
                .lines()
                .filter_map(|l| l.strip_prefix("GATE:"))
                .map(|l| l.trim().to_string())
                .collect(),
            closing: None,
            unrecognised: Vec::new(),
        };
        let mut rest = &blocks[..];
        // The preamble: the first block, unless it already holds checks.
        if let Some((first, tail)) = rest.split_first()
            && !first.iter().any(|(n, l)| Check::parse(l, *n).is_some())
        {
            transcript.preamble = first.iter().map(|(_, l)| l.to_string()).collect();
            rest = tail;
        }
        let last = rest.len().saturating_sub(1);
        for (index, block) in rest.iter().enumerate() {
            let checks: Vec<Check> = block
                .iter()
                .filter_map(|(n, l)| Check::parse(l, *n))
                .collect();
            let (_, head) = block[0];
            let is_header = !head.starts_with(' ') && !head.starts_with('\t');
            if checks.is_empty() && index == last && is_header && block.len() == 1 {
                transcript.closing = Some(head.to_string());
            } else if is_header && Check::parse(head, 0).is_none() {
                let (title, expected) = split_expectation(head);
                transcript.phases.push(Phase {
                    header: head.to_string(),
                    title,
                    expected,
                    other_lines: block[1..]
                        .iter()
                        .filter(|(n, l)| Check::parse(l, *n).is_none())
                        .map(|(_, l)| l.to_string())
                        .collect(),
                    checks,
                });
            } else {
                // Checks with no header of their own, or indented text.
                transcript.unrecognised.extend(
                    block
                        .iter()
                        .filter(|(n, l)| Check::parse(l, *n).is_none())
                        .map(|(_, l)| l.to_string()),
                );
                if !checks.is_empty() {
                    transcript.phases.push(Phase {
                        header: String::new(),
                        title: String::new(),
                        expected: None,
                        checks,
                        other_lines: Vec::new(),
                    });
                }
            }
        }
        transcript
    }

    /// Every check of every phase, in order.
    pub fn checks(&self) -> impl Iterator<Item = &Check> {
        self.phases.iter().flat_map(|p| p.checks.iter())
    }
}

/// Groups numbered lines into runs separated by empty lines.
fn blocks<'a>(lines: &[&'a str]) -> Vec<Vec<(usize, &'a str)>> {
    let mut blocks = Vec::new();
    let mut current = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                blocks.push(std::mem::take(&mut current));
            }
        } else {
            current.push((index + 1, *line));
        }
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    blocks
}

/// `title (expected: what)` into its two parts.
fn split_expectation(header: &str) -> (String, Option<String>) {
    if let Some(start) = header.rfind("(expected:")
        && header.trim_end().ends_with(')')
    {
        let what = header[start + "(expected:".len()..header.trim_end().len() - 1].trim();
        return (
            header[..start].trim_end().to_string(),
            Some(what.to_string()),
        );
    }
    (header.to_string(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "  oracle, n=611                      FAIL  got 11815.500000  want 14171.000000  rel 1.662e-01  rtol 1.179e-05";

    #[test]
    fn parses_the_lesson_facts_example_line() {
        let check = Check::parse(EXAMPLE, 7).unwrap();
        assert_eq!(check.name, "oracle, n=611");
        assert_eq!(check.verdict, Verdict::Fail);
        assert_eq!(check.got.text, "11815.500000");
        assert_eq!(check.want.value, 14171.0);
        assert_eq!(check.rel.text, "1.662e-01");
        assert_eq!(check.rtol.value, 1.179e-05);
        assert_eq!(check.line, 7);
        assert!((check.margin().unwrap() - 1.662e-01 / 1.179e-05).abs() < 1e-6);
    }

    #[test]
    fn nan_and_inf_are_numbers_too() {
        let line = "  nan case                           FAIL  got nan  want -inf  rel nan  rtol 1.000e-05";
        let check = Check::parse(line, 1).unwrap();
        assert!(check.got.value.is_nan());
        assert_eq!(check.want.value, f64::NEG_INFINITY);
        assert_eq!(check.margin(), None);
        let line = "  inf                                PASS  got inf  want INF  rel -nan  rtol 0.000e+00";
        assert!(Check::parse(line, 1).is_some());
    }

    #[test]
    fn names_longer_than_the_column_still_parse() {
        let line = "  a very long test name that overflows the column PASS  got 1.0  want 1.0  rel 0.0  rtol 0.0";
        assert_eq!(
            Check::parse(line, 1).unwrap().name,
            "a very long test name that overflows the column"
        );
    }

    #[test]
    fn truncated_or_odd_lines_are_not_checks() {
        for line in [
            "  oracle, n=611                      FAIL  got 11815.500000  want 14171.000000  rel 1.662e-01",
            "  oracle, n=611                      FAIL  got 11815.500000  want 14171.000000  rel 1.662e-01  rtol",
            "  oracle, n=611                      FAIL  got 11815.500000  want",
            "  oracle                             MAYBE  got 1  want 1  rel 0  rtol 0",
            "  x                                  PASS  got one  want 1  rel 0  rtol 0",
            "  x                                  PASS  got 1  want 1  rel 0  rtol 0  extra",
            "oracle, n=611                        PASS  got 1  want 1  rel 0  rtol 0",
            "   PASS  got 1  want 1  rel 0  rtol 0",
        ] {
            assert_eq!(Check::parse(line, 1), None, "{line}");
        }
    }

    #[test]
    fn phases_gates_and_closing() {
        let stdout = "GPU: Test (compute capability 1.0)\nsecond line\n\nphase one (expected: all pass)\n  a                                  PASS  got 1.0  want 1.0  rel 0.0  rtol 0.0\n  note: something\n\nphase two\n  b                                  FAIL  got 1.0  want 2.0  rel 0.5  rtol 0.0\n\nall gates hold\n";
        let t = Transcript::parse(stdout, "warning\nGATE: phase two was meant to pass\n");
        assert_eq!(
            t.device_line.as_deref(),
            Some("GPU: Test (compute capability 1.0)")
        );
        assert_eq!(
            t.preamble,
            ["GPU: Test (compute capability 1.0)", "second line"]
        );
        assert_eq!(t.phases.len(), 2);
        assert_eq!(t.phases[0].title, "phase one");
        assert_eq!(t.phases[0].expected.as_deref(), Some("all pass"));
        assert_eq!(t.phases[0].other_lines, ["  note: something"]);
        assert_eq!((t.phases[1].passed(), t.phases[1].failed()), (0, 1));
        assert_eq!(t.phases[1].expected, None);
        assert_eq!(t.gate_failures, ["phase two was meant to pass"]);
        assert_eq!(t.closing.as_deref(), Some("all gates hold"));
        assert!(t.unrecognised.is_empty());
    }

    #[test]
    fn output_with_no_checks_is_kept_whole() {
        let t = Transcript::parse("hello\nworld\n\n  indented\n\nbye\n", "");
        assert_eq!(t.preamble, ["hello", "world"]);
        assert!(t.phases.is_empty());
        assert_eq!(t.unrecognised, ["  indented"]);
        assert_eq!(t.closing.as_deref(), Some("bye"));
        assert_eq!(t.device_line, None);
    }

    #[test]
    fn empty_output_is_an_empty_transcript() {
        let t = Transcript::parse("", "");
        assert!(t.preamble.is_empty() && t.phases.is_empty() && t.closing.is_none());
    }

    #[test]
    fn the_device_line_is_set_aside_for_comparisons() {
        assert_eq!(without_device_line("GPU: A\nx\n"), "x\n");
        assert_eq!(without_device_line("GPU: A"), "");
        assert_eq!(without_device_line("x\nGPU: A\n"), "x\nGPU: A\n");
    }

    #[test]
    fn the_real_h200_transcripts() {
        let root = env!("CARGO_MANIFEST_DIR");
        let stdout =
            std::fs::read_to_string(format!("{root}/tests/fixtures/h200/testing.stdout")).unwrap();
        let t = Transcript::parse(&stdout, "");
        assert_eq!(
            t.device_line.as_deref(),
            Some("GPU: NVIDIA H200 (compute capability 9.0)")
        );
        let counts: Vec<(usize, usize)> =
            t.phases.iter().map(|p| (p.passed(), p.failed())).collect();
        assert_eq!(counts, [(4, 0), (2, 3), (5, 0), (0, 1)]);
        assert_eq!(
            t.phases[1].expected.as_deref(),
            Some("exposes the bug, oracle n=611 among the failures")
        );
        assert!(
            t.closing
                .as_deref()
                .unwrap()
                .starts_with("all four gates hold")
        );
        assert!(t.unrecognised.is_empty() && t.gate_failures.is_empty());

        let stdout =
            std::fs::read_to_string(format!("{root}/tests/fixtures/h200/starter.stdout")).unwrap();
        let t = Transcript::parse(&stdout, "");
        assert_eq!(t.phases.len(), 1);
        assert_eq!(t.phases[0].passed(), 4);
        assert!(t.closing.as_deref().unwrap().starts_with("phase 1 holds"));
    }

    #[test]
    fn non_utf8_bytes_survive_as_replacement_characters() {
        let (stdout, lossy) = crate::evidence::decode(b"GPU: X\n\nphase\n  caf\xe9 \xff\n");
        assert!(lossy);
        let t = Transcript::parse(&stdout, "");
        assert_eq!(t.phases.len(), 1);
        assert!(t.phases[0].other_lines[0].contains('\u{FFFD}'));
    }

    #[test]
    fn a_ten_megabyte_transcript_parses() {
        let line = "  check                              PASS  got 1.000000  want 1.000000  rel 0.000e+00  rtol 1.000e-05\n";
        let mut stdout = String::from("GPU: X\n\nbig phase (expected: all pass)\n");
        while stdout.len() < 10 << 20 {
            stdout.push_str(line);
        }
        let t = Transcript::parse(&stdout, "");
        assert_eq!(t.phases.len(), 1);
        assert!(t.phases[0].checks.len() > 90_000);
    }
}
