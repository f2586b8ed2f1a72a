//! `check`, for students: is the exercise done? A student's run is judged
//! against the lesson's recorded run, check line by check line, then the
//! gates and the closing line, and the judgement ends in one plain sentence.
//!
//! Only what the program printed is judged. Staleness of evidence, drift of
//! the starter and edits outside the exercise region are the author's
//! concerns and never enter here. The device line (`GPU: ...`) is set aside
//! by the transcript parser. Every comparison of one check line with another
//! goes through [`compare_checks`], so that rules for nondeterministic
//! output (lines not compared, rtol/atol fields) are one edit away.

use crate::evidence::Termination;
use crate::evidence::transcript::{Check, Transcript};

/// Which fields of `student`'s check line differ from `lesson`'s (empty:
/// the lines match). Numbers compare as printed: the lesson's arithmetic is
/// exact, so the same program prints the same digits on every executor.
pub(crate) fn compare_checks(lesson: &Check, student: &Check) -> Vec<&'static str> {
    let mut differing = Vec::new();
    if lesson.verdict != student.verdict {
        differing.push("verdict");
    }
    let pairs = [
        ("got", &lesson.got, &student.got),
        ("want", &lesson.want, &student.want),
        ("rel", &lesson.rel, &student.rel),
        ("rtol", &lesson.rtol, &student.rtol),
    ];
    for (field, a, b) in pairs {
        if a.text != b.text {
            differing.push(field);
        }
    }
    differing
}

/// How one line of the lesson's run fared in the student's.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum LineOutcome {
    Matched,
    /// The student printed it, with these fields different.
    Differs {
        student: String,
        fields: Vec<&'static str>,
    },
    Missing,
}

/// One check line of the lesson's run, judged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CheckJudgement {
    pub name: String,
    /// The lesson's line as printed.
    pub lesson: String,
    pub outcome: LineOutcome,
}

/// One phase of the lesson's run, judged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PhaseJudgement {
    pub header: String,
    /// False when the student's run has no phase with this header.
    pub present: bool,
    pub checks: Vec<CheckJudgement>,
    /// Check lines the student printed in this phase that the lesson has not.
    pub extra: Vec<String>,
}

/// The whole judgement of a student's run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Judgement {
    pub phases: Vec<PhaseJudgement>,
    /// Student phases whose header the lesson has not.
    pub extra_phases: Vec<String>,
    /// The lesson's `GATE:` lines the student's run did not print, and the
    /// student's the lesson's did not.
    pub gates_missing: Vec<String>,
    pub gates_extra: Vec<String>,
    /// The lesson's closing line, and the student's when it differs.
    pub closing: Option<String>,
    pub closing_outcome: LineOutcome,
    /// How each run ended, when they differ.
    pub ended: Option<(Termination, Termination)>,
}

impl Judgement {
    /// Whether the student's run is the lesson's, line for line.
    pub(crate) fn done(&self) -> bool {
        self.phases.iter().all(|p| {
            p.present
                && p.extra.is_empty()
                && p.checks.iter().all(|c| c.outcome == LineOutcome::Matched)
        }) && self.extra_phases.is_empty()
            && self.gates_missing.is_empty()
            && self.gates_extra.is_empty()
            && self.closing_outcome == LineOutcome::Matched
            && self.ended.is_none()
    }

    /// The closing sentence: done, or not yet and what to look at first.
    pub(crate) fn sentence(&self) -> String {
        if self.done() {
            return "Done: every check, every gate and the closing line match the lesson's recorded run.".into();
        }
        if let Some((_, Termination::Signaled(signal))) = self.ended {
            return format!(
                "Not yet: your program crashed (signal {signal}); fix the crash first, then run check again."
            );
        }
        if let Some((_, Termination::TimedOut)) = self.ended {
            return "Not yet: your program ran past its time limit; look for a loop that never ends.".into();
        }
        if let Some(gate) = self.gates_extra.first() {
            return format!(
                "Not yet: a gate does not hold (\"{gate}\"); start with the phase it names."
            );
        }
        for phase in &self.phases {
            if !phase.present {
                let missing = self.phases.iter().filter(|p| !p.present).count();
                return format!(
                    "Not yet: {missing} of the lesson's {} phases are missing from your run; write the phase \"{}\" next.",
                    self.phases.len(),
                    phase.header
                );
            }
        }
        let differing: Vec<&CheckJudgement> = self
            .phases
            .iter()
            .flat_map(|p| &p.checks)
            .filter(|c| c.outcome != LineOutcome::Matched)
            .collect();
        if let Some(first) = differing.first() {
            let mut names: Vec<&str> = Vec::new();
            for check in &differing {
                if !names.contains(&check.name.as_str()) {
                    names.push(&check.name);
                }
            }
            return format!(
                "Not yet: {} check line{} differ from the lesson's run ({}); start with `{}`.",
                differing.len(),
                if differing.len() == 1 { "" } else { "s" },
                names.join("; "),
                first.name
            );
        }
        if let Some(phase) = self.phases.iter().find(|p| !p.extra.is_empty()) {
            return format!(
                "Not yet: the phase \"{}\" prints check lines the lesson's does not; keep to the lesson's checks.",
                phase.header
            );
        }
        if let Some(extra) = self.extra_phases.first() {
            return format!("Not yet: your run has a phase the lesson's has not: \"{extra}\".");
        }
        if let Some(gate) = self.gates_missing.first() {
            return format!(
                "Not yet: the lesson's run printed the gate line \"{gate}\" and yours did not."
            );
        }
        if self.closing_outcome != LineOutcome::Matched {
            return "Not yet: every check matches, but the closing line differs from the lesson's; print it as the lesson does.".into();
        }
        match self.ended {
            Some((lesson, student)) => format!(
                "Not yet: every line matches, but your program ended with {} where the lesson's ended with {}.",
                String::from(student),
                String::from(lesson)
            ),
            None => unreachable!("done() covers every other case"),
        }
    }
}

/// Judges a student's run against the lesson's.
pub(crate) fn judge(
    lesson: &Transcript,
    lesson_ended: Termination,
    student: &Transcript,
    student_ended: Termination,
) -> Judgement {
    let mut phases = Vec::new();
    for phase in &lesson.phases {
        let theirs = student.phases.iter().find(|p| p.header == phase.header);
        let checks = phase
            .checks
            .iter()
            .enumerate()
            .map(|(index, check)| {
                let same_name: Vec<&Check> = theirs
                    .map(|p| p.checks.iter().filter(|c| c.name == check.name).collect())
                    .unwrap_or_default();
                // The nth check of that name in the lesson's phase meets the
                // nth of that name in the student's.
                let nth = phase.checks[..index]
                    .iter()
                    .filter(|c| c.name == check.name)
                    .count();
                let outcome = match same_name.get(nth) {
                    None => LineOutcome::Missing,
                    Some(found) => {
                        let fields = compare_checks(check, found);
                        if fields.is_empty() {
                            LineOutcome::Matched
                        } else {
                            LineOutcome::Differs {
                                student: check_line(found),
                                fields,
                            }
                        }
                    }
                };
                CheckJudgement {
                    name: check.name.clone(),
                    lesson: check_line(check),
                    outcome,
                }
            })
            .collect();
        let extra = theirs
            .map(|p| {
                p.checks
                    .iter()
                    .filter(|c| !phase.checks.iter().any(|l| l.name == c.name))
                    .map(check_line)
                    .collect()
            })
            .unwrap_or_default();
        phases.push(PhaseJudgement {
            header: phase.header.clone(),
            present: theirs.is_some(),
            checks,
            extra,
        });
    }
    let extra_phases = student
        .phases
        .iter()
        .filter(|p| !lesson.phases.iter().any(|l| l.header == p.header))
        .map(|p| p.header.clone())
        .collect();
    let gates_missing = lesson
        .gate_failures
        .iter()
        .filter(|g| !student.gate_failures.contains(g))
        .cloned()
        .collect();
    let gates_extra = student
        .gate_failures
        .iter()
        .filter(|g| !lesson.gate_failures.contains(g))
        .cloned()
        .collect();
    let closing_outcome = match (&lesson.closing, &student.closing) {
        (a, b) if a == b => LineOutcome::Matched,
        (_, None) => LineOutcome::Missing,
        (_, Some(theirs)) => LineOutcome::Differs {
            student: theirs.clone(),
            fields: vec!["closing line"],
        },
    };
    Judgement {
        phases,
        extra_phases,
        gates_missing,
        gates_extra,
        closing: lesson.closing.clone(),
        closing_outcome,
        ended: (lesson_ended != student_ended).then_some((lesson_ended, student_ended)),
    }
}

/// A check line as the lesson's helper prints it.
fn check_line(check: &Check) -> String {
    format!(
        "  {:<34} {}  got {}  want {}  rel {}  rtol {}",
        check.name,
        match check.verdict {
            crate::evidence::transcript::Verdict::Pass => "PASS",
            crate::evidence::transcript::Verdict::Fail => "FAIL",
        },
        check.got.text,
        check.want.text,
        check.rel.text,
        check.rtol.text
    )
}

/// A line of `^` under the differing fields of a printed check line.
pub(crate) fn underline(line: &str, fields: &[&str]) -> String {
    let mut marks = vec![b' '; line.len()];
    let verdict_at = line
        .find(" PASS ")
        .or_else(|| line.find(" FAIL "))
        .map(|at| at + 1);
    for field in fields {
        let span = if *field == "verdict" {
            verdict_at.map(|at| (at, at + 4))
        } else {
            let key = format!("  {field} ");
            line.find(&key).map(|at| {
                let start = at + key.len();
                let end = line[start..].find(' ').map_or(line.len(), |e| start + e);
                (start, end)
            })
        };
        if let Some((start, end)) = span {
            marks[start..end].fill(b'^');
        }
    }
    String::from_utf8(marks).unwrap().trim_end().to_string()
}

/// The judgement as the terminal shows it: only what is not matched, phase
/// by phase, and then the sentence.
pub(crate) fn report(judgement: &Judgement) -> String {
    let mut out = String::new();
    for phase in &judgement.phases {
        let matched = phase
            .checks
            .iter()
            .filter(|c| c.outcome == LineOutcome::Matched)
            .count();
        if !phase.present {
            out.push_str(&format!("missing phase: {}\n", phase.header));
            continue;
        }
        out.push_str(&format!(
            "{}\n  {matched} of {} check lines match the lesson's\n",
            phase.header,
            phase.checks.len()
        ));
        for check in &phase.checks {
            match &check.outcome {
                LineOutcome::Matched => {}
                LineOutcome::Missing => {
                    out.push_str(&format!(
                        "  missing: `{}`\n    lesson:{}\n",
                        check.name, check.lesson
                    ));
                }
                LineOutcome::Differs { student, fields } => {
                    out.push_str(&format!(
                        "  differs: `{}` ({})\n    lesson:{}\n    yours: {}\n           {}\n",
                        check.name,
                        fields.join(", "),
                        check.lesson,
                        student,
                        underline(student, fields)
                    ));
                }
            }
        }
        for extra in &phase.extra {
            out.push_str(&format!("  not in the lesson's run:{extra}\n"));
        }
    }
    for phase in &judgement.extra_phases {
        out.push_str(&format!(
            "a phase the lesson's run does not have: {phase}\n"
        ));
    }
    for gate in &judgement.gates_extra {
        out.push_str(&format!(
            "gate that did not hold in your run: GATE: {gate}\n"
        ));
    }
    for gate in &judgement.gates_missing {
        out.push_str(&format!(
            "the lesson's run printed, and yours did not: GATE: {gate}\n"
        ));
    }
    match &judgement.closing_outcome {
        LineOutcome::Matched => {}
        LineOutcome::Missing => out.push_str(&format!(
            "closing line missing; the lesson's is:\n  {}\n",
            judgement.closing.as_deref().unwrap_or("(none)")
        )),
        LineOutcome::Differs { student, .. } => out.push_str(&format!(
            "closing line differs:\n  lesson: {}\n  yours:  {student}\n",
            judgement.closing.as_deref().unwrap_or("(none)")
        )),
    }
    if let Some((lesson, student)) = judgement.ended {
        out.push_str(&format!(
            "ended: the lesson's run {}, yours {}\n",
            String::from(lesson),
            String::from(student)
        ));
    }
    out.push_str(&judgement.sentence());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = r"GPU: NVIDIA H200 (compute capability 9.0)
largest n

supplied suite vs sumDropTail (expected: all four pass)
  golden snapshot, n=611             PASS  got 11815.500000  want 11815.500000  rel 0.000e+00  rtol 0.000e+00

hardened suite vs sumDropTail (expected: exposes)
  oracle, n=611                      FAIL  got 11815.500000  want 14171.000000  rel 1.662e-01  rtol 1.179e-05

all gates hold
";

    fn judged(student: &str, ended: i32) -> Judgement {
        judge(
            &Transcript::parse(LESSON, ""),
            Termination::Exited(0),
            &Transcript::parse(student, ""),
            Termination::Exited(ended),
        )
    }

    #[test]
    fn the_same_run_on_another_device_is_done() {
        let other = LESSON.replace(
            "NVIDIA H200 (compute",
            "NVIDIA H200 (CPU emulation) (compute",
        );
        let judgement = judged(&other, 0);
        assert!(judgement.done(), "{}", report(&judgement));
        assert!(judgement.sentence().starts_with("Done"));
    }

    #[test]
    fn a_differing_number_is_named_and_underlined() {
        let wrong = LESSON.replace("rtol 1.179e-05", "rtol 1.000e-05");
        let judgement = judged(&wrong, 0);
        assert!(!judgement.done());
        let text = report(&judgement);
        assert!(text.contains("differs: `oracle, n=611` (rtol)"), "{text}");
        assert!(text.contains("^^^^^^^^^"), "{text}");
        assert!(
            judgement.sentence().contains("`oracle, n=611`"),
            "{}",
            judgement.sentence()
        );
    }

    #[test]
    fn a_missing_phase_and_closing_line_say_what_to_write() {
        let starter = r"GPU: x
largest n

supplied suite vs sumDropTail (expected: all four pass)
  golden snapshot, n=611             PASS  got 11815.500000  want 11815.500000  rel 0.000e+00  rtol 0.000e+00

now make them fail
";
        let judgement = judged(starter, 0);
        assert!(!judgement.done());
        assert!(
            judgement
                .sentence()
                .contains("1 of the lesson's 2 phases are missing")
                && judgement
                    .sentence()
                    .contains("hardened suite vs sumDropTail"),
            "{}",
            judgement.sentence()
        );
    }

    #[test]
    fn a_verdict_flip_underlines_the_verdict() {
        let line = "  oracle, n=611                      PASS  got 1  want 1  rel 0  rtol 1";
        let marks = underline(line, &["verdict", "got"]);
        let verdict = line.find("PASS").unwrap();
        let got = line.find("got ").unwrap() + 4;
        assert_eq!(&marks[verdict..verdict + 4], "^^^^");
        assert_eq!(
            &marks[got..],
            "^",
            "only the got field, and nothing after it"
        );
        assert_eq!(marks[..verdict].trim(), "");
        assert_eq!(marks[verdict + 4..got].trim(), "");
    }

    #[test]
    fn a_different_exit_status_is_not_done() {
        let judgement = judged(LESSON, 1);
        assert!(!judgement.done());
        assert!(
            judgement.sentence().contains("exit 1"),
            "{}",
            judgement.sentence()
        );
    }
}
