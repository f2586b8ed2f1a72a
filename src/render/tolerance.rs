//! View models for `{{#tolerance}}`: the table of suggested rtol by
//! precision with the sqrt(K) rule beside it, and a lesson's rule over K
//! with its marks. Numbers are formatted here the way the lesson programs
//! print them (`%.3e`), so a table and a transcript can be read side by
//! side; the arithmetic is in [`crate::tolerance`].

use crate::evidence::Evidence;
use crate::evidence::Reproduction;
use crate::evidence::transcript::Transcript;
use crate::render::Templates;
use crate::render::evidence::{provisional_note, reproduction_sentence};
use crate::render::markdown::cell;
use crate::tolerance::{self, PRECISIONS, ToleranceRule, WorkedExample};
use anyhow::Result;
use serde::Serialize;

/// `x` as C's `printf("%.3e")` writes it: `1.179e-05`.
pub(crate) fn sci(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let rust = format!("{x:.3e}");
    let (mantissa, exponent) = rust.split_once('e').expect("{:e} has an exponent");
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// A short form for round values the course writes by hand: `1e-10`, `5e-2`.
fn short(x: f64) -> String {
    format!("{x:e}")
}

/// An integer with thousands separators: `16,483`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[derive(Serialize)]
struct PrecisionView {
    name: &'static str,
    fraction_bits: i32,
    eps: String,
    rtol: String,
    used_for: &'static str,
}

#[derive(Serialize)]
struct ExampleView {
    k: String,
    sqrt_k: String,
    accumulator: &'static str,
    accumulator_eps: String,
    error: String,
    error_rounded: String,
    output: &'static str,
    output_rtol: String,
    headroom: String,
}

#[derive(Serialize)]
struct DtypesView {
    precisions: Vec<PrecisionView>,
    example: ExampleView,
}

/// `{{#tolerance dtypes}}`.
pub(crate) fn dtypes(templates: &Templates) -> Result<String> {
    let example = WorkedExample::gemm_bf16();
    let view = DtypesView {
        precisions: PRECISIONS
            .iter()
            .map(|p| PrecisionView {
                name: p.name,
                fraction_bits: p.fraction_bits,
                eps: sci(p.eps()),
                rtol: short(p.rtol),
                used_for: p.used_for,
            })
            .collect(),
        example: ExampleView {
            k: grouped(example.k),
            sqrt_k: format!("{}", (example.k as f64).sqrt()),
            accumulator: example.accumulator.name,
            accumulator_eps: sci(example.accumulator.eps()),
            error: sci(example.accumulation_error()),
            error_rounded: format!("{:.0e}", example.accumulation_error()),
            output: example.output.name,
            output_rtol: short(example.output.rtol),
            headroom: grouped(example.headroom().round() as u64),
        },
    };
    templates.render("tolerance-dtypes", &view)
}

/// What a lesson's tolerance table is made from.
pub(crate) struct LessonTolerance<'a> {
    /// The program, as the directive names it (`kernels/testing.cu`).
    pub path: &'a str,
    pub rule: &'a ToleranceRule,
    /// The buggy variant, as the `drop-tail` snippet defines it.
    pub variant: &'a str,
    pub evidence: &'a Evidence,
    /// Why the evidence is stale, when it is.
    pub stale: Option<String>,
    /// How this build reproduced the run, when it did.
    pub reproduced: Option<&'a Reproduction>,
}

#[derive(Serialize)]
struct DeclaredView {
    name: String,
    text: String,
    line: usize,
}

#[derive(Serialize)]
struct RowView {
    k: String,
    lesson: bool,
    expected_error: String,
    fixed: String,
    fails_correct_code: bool,
    scaled: String,
    loose: String,
    blind: bool,
    tail: String,
    tail_recorded: bool,
    /// The recorded error is zero: this size has no tail to drop.
    nothing_dropped: bool,
}

#[derive(Serialize)]
struct Disagreement {
    check: String,
    printed: String,
    rule: String,
}

#[derive(Serialize)]
struct ProgramView {
    program: String,
    variant: String,
    slack: String,
    block: String,
    largest_tail: String,
    declarations: Vec<DeclaredView>,
    rows: Vec<RowView>,
    disagreements: Vec<Disagreement>,
    stale: Option<String>,
    provisional: Option<String>,
    device: String,
    recorded_day: String,
    source_hash: String,
    reproduced: String,
}

/// `{{#tolerance FILE}}`: the lesson's rule over K, with its marks.
pub(crate) fn program(templates: &Templates, lesson: &LessonTolerance) -> Result<String> {
    let run = &lesson.evidence.run;
    let transcript = Transcript::parse(&run.stdout, &run.stderr);
    let sizes = tolerance::recorded_sizes(&transcript, lesson.variant)
        .map_err(|e| anyhow::anyhow!("{}: {e}", lesson.path))?;
    let rule = lesson.rule;
    let rows = tolerance::rows(rule, &sizes)
        .into_iter()
        .map(|row| RowView {
            k: grouped(row.k),
            lesson: row.recorded.is_some(),
            expected_error: sci(row.expected_error),
            fixed: sci(row.fixed),
            fails_correct_code: row.fixed_fails_correct_code,
            scaled: sci(row.scaled),
            loose: sci(row.loose),
            blind: row.loose_is_blind,
            tail: match &row.recorded {
                Some(check) => cell(&check.rel.text),
                None => sci(row.tail_error),
            },
            tail_recorded: row.recorded.is_some(),
            nothing_dropped: row.recorded.is_some() && row.tail_error == 0.0,
        })
        .collect();
    let disagreements = tolerance::rtol_disagreements(rule, &transcript, sci)
        .into_iter()
        .map(|(check, ours)| Disagreement {
            check: cell(&check.name),
            printed: cell(&check.rtol.text),
            rule: ours,
        })
        .collect();
    let block = rule.block.value as u64;
    let view = ProgramView {
        program: lesson.path.to_string(),
        variant: cell(lesson.variant),
        slack: format!("{}", rule.slack.value),
        block: grouped(block),
        largest_tail: grouped(block.saturating_sub(1)),
        declarations: rule
            .declarations()
            .iter()
            .map(|d| DeclaredView {
                name: d.name.clone(),
                text: cell(&d.text),
                line: d.line,
            })
            .collect(),
        rows,
        disagreements,
        stale: lesson.stale.clone(),
        provisional: provisional_note(lesson.evidence),
        device: cell(&if lesson.evidence.is_provisional() {
            format!(
                "CPU emulation standing in for {}",
                lesson.evidence.machine.device
            )
        } else {
            lesson.evidence.machine.device.clone()
        }),
        recorded_day: lesson.evidence.recorded_day().to_string(),
        source_hash: lesson.evidence.short_source_hash().to_string(),
        reproduced: cell(&reproduction_sentence(lesson.reproduced)),
    };
    templates.render("tolerance-program", &view)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sci_writes_what_printf_writes() {
        assert_eq!(sci(1.1786e-5), "1.179e-05");
        assert_eq!(sci(0.0), "0.000e+00");
        assert_eq!(sci(1e-2), "1.000e-02");
        assert_eq!(sci(395434.5), "3.954e+05");
        assert_eq!(sci(2f64.powi(-52)), "2.220e-16");
        assert_eq!(sci(f64::NAN), "nan");
    }

    #[test]
    fn grouped_thousands() {
        assert_eq!(grouped(611), "611");
        assert_eq!(grouped(16483), "16,483");
        assert_eq!(grouped(100_000_000), "100,000,000");
    }

    #[test]
    fn short_forms() {
        assert_eq!(short(1e-10), "1e-10");
        assert_eq!(short(5e-2), "5e-2");
    }
}
