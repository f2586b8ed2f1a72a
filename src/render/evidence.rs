//! View models for `{{#evidence}}`: the transcript, the check tables and the
//! gates, with their provenance line and banners.

use crate::evidence::transcript::{Check, Phase, Transcript, Verdict};
use crate::evidence::{Evidence, Reproduction};
use crate::render::Templates;
use crate::render::markdown::{cell, fence_for};
use anyhow::Result;
use serde::Serialize;

/// What every evidence view is rendered from.
pub(crate) struct Subject<'a> {
    pub evidence: &'a Evidence,
    /// Why the evidence is stale, when it is.
    pub stale: Option<String>,
    pub reproduced: Option<&'a Reproduction>,
    /// The program's declared variation, one sentence a rule, already
    /// escaped.
    pub variation: Vec<String>,
}

impl Subject<'_> {
    /// One line saying where the evidence came from and how it was checked.
    pub(crate) fn provenance(&self) -> String {
        let e = self.evidence;
        let m = &e.machine;
        let driver = if m.driver_release.is_empty() {
            String::new()
        } else {
            format!(", driver {}", m.driver_release)
        };
        let mut line = if e.is_provisional() {
            format!(
                "Provisional: recorded by CPU emulation ({}) standing in for {} (compute capability {}) with CUDA {}, {}; source {}.",
                m.emulator,
                m.device,
                m.compute_capability,
                m.runtime_version,
                e.recorded_day(),
                e.short_source_hash()
            )
        } else {
            format!(
                "Recorded on {} (compute capability {}) with CUDA {}{driver}, {}; source {}.",
                m.device,
                m.compute_capability,
                m.runtime_version,
                e.recorded_day(),
                e.short_source_hash()
            )
        };
        line.push(' ');
        line.push_str(&reproduction_sentence(self.reproduced));
        cell(&line)
    }

    /// The provisional banner's sentence, when the evidence is provisional.
    pub(crate) fn provisional(&self) -> Option<String> {
        provisional_note(self.evidence)
    }

    fn transcript(&self) -> Transcript {
        Transcript::parse(&self.evidence.run.stdout, &self.evidence.run.stderr)
    }
}

#[derive(Serialize)]
struct TranscriptView {
    program: String,
    provenance: String,
    stale: Option<String>,
    provisional: Option<String>,
    variation: Vec<String>,
    failed: Option<String>,
    fence: String,
    stdout: String,
    stderr: String,
}

#[derive(Serialize)]
struct CheckView {
    name: String,
    /// `pass` or `fail`: the `verdict` partial draws the mark.
    verdict: &'static str,
    got: String,
    want: String,
    rel: String,
    rtol: String,
    margin: String,
}

#[derive(Serialize)]
struct PhaseView {
    number: usize,
    title: String,
    expected: String,
    checks: Vec<CheckView>,
    passed: usize,
    failed: usize,
    /// `yes`, `no`, or none when the wording says neither: the `held`
    /// partial draws the mark.
    held: Option<&'static str>,
}

#[derive(Serialize)]
struct TablesView {
    provenance: String,
    stale: Option<String>,
    provisional: Option<String>,
    variation: Vec<String>,
    phases: Vec<PhaseView>,
    gate_failures: Vec<String>,
    closing: Option<String>,
    termination: String,
}

/// The sentence of the provisional banner, for provisional evidence.
pub(crate) fn provisional_note(evidence: &Evidence) -> Option<String> {
    evidence.is_provisional().then(|| {
        format!(
            "This evidence was recorded by CPU emulation, standing in for {}. Record it on a GPU with `{}`.",
            evidence.machine.device, evidence.rerecord
        )
    })
}

/// "Reproduced by ... on ...: identical." or "Not re-run by this build.",
/// for every provenance line.
pub(crate) fn reproduction_sentence(reproduced: Option<&Reproduction>) -> String {
    match reproduced {
        Some(r) => format!("Reproduced by {} on {}: identical.", r.how, r.when),
        None => "Not re-run by this build.".into(),
    }
}

/// `{{#evidence FILE}}`: the transcript as a code block.
pub(crate) fn transcript(templates: &Templates, subject: &Subject) -> Result<String> {
    let run = &subject.evidence.run;
    let with_newline = |s: &str| {
        if s.is_empty() || s.ends_with('\n') {
            s.to_string()
        } else {
            format!("{s}\n")
        }
    };
    let stdout = with_newline(&run.stdout);
    let stderr = with_newline(&run.stderr);
    let view = TranscriptView {
        program: subject.evidence.program.clone(),
        provenance: subject.provenance(),
        stale: subject.stale.clone(),
        provisional: subject.provisional(),
        variation: subject.variation.clone(),
        failed: (!run.termination.success()).then(|| {
            format!(
                "This run did not succeed: {}. The transcript shows what it printed.",
                run.termination
            )
        }),
        fence: fence_for(&format!("{stdout}{stderr}")),
        stdout,
        stderr,
    };
    templates.render("transcript", &view)
}

/// `{{#evidence FILE checks}}`: a table per phase.
pub(crate) fn checks(templates: &Templates, subject: &Subject) -> Result<String> {
    templates.render("checks", &tables(subject))
}

/// `{{#evidence FILE gates}}`: each phase's expectation and whether it held.
pub(crate) fn gates(templates: &Templates, subject: &Subject) -> Result<String> {
    templates.render("gates", &tables(subject))
}

fn tables(subject: &Subject) -> TablesView {
    let transcript = subject.transcript();
    TablesView {
        provenance: subject.provenance(),
        stale: subject.stale.clone(),
        provisional: subject.provisional(),
        variation: subject.variation.clone(),
        phases: transcript
            .phases
            .iter()
            .enumerate()
            .map(|(i, p)| phase_view(i + 1, p))
            .collect(),
        gate_failures: transcript.gate_failures.clone(),
        closing: transcript.closing.clone(),
        termination: subject.evidence.run.termination.to_string(),
    }
}

fn phase_view(number: usize, phase: &Phase) -> PhaseView {
    PhaseView {
        number,
        title: cell(if phase.title.is_empty() {
            "(checks with no header)"
        } else {
            &phase.title
        }),
        expected: phase
            .expected
            .as_deref()
            .map(cell)
            .unwrap_or_else(|| "(not stated)".into()),
        checks: phase.checks.iter().map(check_view).collect(),
        passed: phase.passed(),
        failed: phase.failed(),
        held: expectation_held(phase).map(|held| if held { "yes" } else { "no" }),
    }
}

fn check_view(check: &Check) -> CheckView {
    CheckView {
        name: cell(&check.name),
        verdict: match check.verdict {
            Verdict::Pass => "pass",
            Verdict::Fail => "fail",
        },
        got: cell(&trim_fixed(&check.got.text)),
        want: cell(&trim_fixed(&check.want.text)),
        rel: cell(&check.rel.text),
        rtol: cell(&check.rtol.text),
        margin: match check.margin() {
            Some(m) if m < 1000.0 => format!("{m:.3}"),
            Some(m) => format!("{m:.2e}"),
            None if check.rtol.value == 0.0 => "exact".into(),
            None => "n/a".into(),
        },
    }
}

/// `11815.500000` as `11815.5`, `393018.000000` as `393018`; other forms
/// (exponents, NaN) as printed.
fn trim_fixed(text: &str) -> String {
    if text.contains('.') && !text.contains(['e', 'E', 'n', 'N', 'i', 'I']) {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text.to_string()
    }
}

/// Reads a phase's `(expected: ...)` the way the lesson conventions write
/// it: "all ... pass" holds when nothing failed; "fails" or "exposes ..."
/// holds when something failed, and "..., NAME among the failures" when that
/// check failed. `None` when the wording says neither.
pub(crate) fn expectation_held(phase: &Phase) -> Option<bool> {
    let expected = phase.expected.as_deref()?.to_ascii_lowercase();
    let normal = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric() || *c == '=')
            .collect::<String>()
    };
    if expected.contains("fail") || expected.contains("expose") {
        let mut held = phase.failed() > 0;
        if let Some(before) = expected
            .split(" among the failures")
            .next()
            .filter(|_| expected.contains(" among the failures"))
        {
            let wanted = normal(before.rsplit(',').next().unwrap_or(before));
            held &= phase.checks.iter().any(|c| {
                c.verdict == Verdict::Fail && normal(&c.name.to_ascii_lowercase()) == wanted
            });
        }
        Some(held)
    } else if expected.contains("pass") {
        Some(phase.failed() == 0 && !phase.checks.is_empty())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phase(expected: &str, checks: &[(&str, Verdict)]) -> Phase {
        Phase {
            header: String::new(),
            title: "t".into(),
            expected: Some(expected.into()),
            checks: checks
                .iter()
                .map(|(name, verdict)| {
                    let line = format!(
                        "  {name:<34} {}  got 1.0  want 1.0  rel 0.0  rtol 0.0",
                        if *verdict == Verdict::Pass {
                            "PASS"
                        } else {
                            "FAIL"
                        }
                    );
                    Check::parse(&line, 1).unwrap()
                })
                .collect(),
            other_lines: Vec::new(),
        }
    }

    #[test]
    fn expectations_read_as_the_lesson_writes_them() {
        use Verdict::*;
        assert_eq!(
            expectation_held(&phase("all four pass", &[("a", Pass), ("b", Pass)])),
            Some(true)
        );
        assert_eq!(
            expectation_held(&phase("all pass", &[("a", Pass), ("b", Fail)])),
            Some(false)
        );
        assert_eq!(
            expectation_held(&phase("fails", &[("golden", Fail)])),
            Some(true)
        );
        assert_eq!(
            expectation_held(&phase("fails", &[("golden", Pass)])),
            Some(false)
        );
        let exposes = "exposes the bug, oracle n=611 among the failures";
        assert_eq!(
            expectation_held(&phase(exposes, &[("oracle, n=611", Fail)])),
            Some(true)
        );
        assert_eq!(
            expectation_held(&phase(
                exposes,
                &[("oracle, n=611", Pass), ("oracle, n=16483", Fail)]
            )),
            Some(false)
        );
        assert_eq!(
            expectation_held(&phase("something else", &[("a", Pass)])),
            None
        );
    }

    #[test]
    fn fixed_numbers_lose_their_trailing_zeros_only() {
        assert_eq!(trim_fixed("11815.500000"), "11815.5");
        assert_eq!(trim_fixed("393018.000000"), "393018");
        assert_eq!(trim_fixed("1.662e-01"), "1.662e-01");
        assert_eq!(trim_fixed("nan"), "nan");
        assert_eq!(trim_fixed("100"), "100");
    }
}
