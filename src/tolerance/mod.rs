//! Tolerances as numbers a chapter can show: the suggested rtol of each
//! floating-point precision, and a lesson's scaled-tolerance rule evaluated
//! over the number of terms K.
//!
//! The precisions' facts are general (they hold for every lesson) and live
//! here as constants. A lesson's rule is not: its constants are read from
//! the lesson's own source (its `constexpr` declarations) and its sizes and
//! drop-tail errors from its recorded evidence, so a table in the book is
//! the program's rule evaluated, never a copy typed next to it. Formatting
//! and templates are in [`crate::render::tolerance`]; this module only
//! reads and computes.

use crate::cxx::constants;
use crate::evidence::transcript::{Check, Transcript};
use thiserror::Error;

/// A floating-point precision and the rtol the course suggests for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Precision {
    pub name: &'static str,
    /// Significand bits after the point: machine epsilon is 2^-bits.
    pub fraction_bits: i32,
    /// The suggested relative tolerance for results in this precision.
    pub rtol: f64,
    /// Where it is met in practice.
    pub used_for: &'static str,
}

impl Precision {
    /// Machine epsilon: the gap between 1 and the next representable number.
    pub(crate) fn eps(&self) -> f64 {
        2f64.powi(-self.fraction_bits)
    }
}

/// The precisions of the dtype table, widest first.
pub(crate) const PRECISIONS: &[Precision] = &[
    Precision {
        name: "float64",
        fraction_bits: 52,
        rtol: 1e-10,
        used_for: "CPU references, science",
    },
    Precision {
        name: "float32",
        fraction_bits: 23,
        rtol: 1e-5,
        used_for: "the default, accumulators",
    },
    Precision {
        name: "TF32",
        fraction_bits: 10,
        rtol: 1e-3,
        used_for: "tensor-core float32 matmuls",
    },
    Precision {
        name: "bfloat16",
        fraction_bits: 7,
        rtol: 1e-2,
        used_for: "training, activations",
    },
    Precision {
        name: "float16",
        fraction_bits: 10,
        rtol: 1e-2,
        used_for: "inference",
    },
    Precision {
        name: "FP8 (e4m3)",
        fraction_bits: 3,
        rtol: 5e-2,
        used_for: "quantized matmul inputs",
    },
];

/// The precision named `name` in [`PRECISIONS`].
pub(crate) fn precision(name: &str) -> &'static Precision {
    PRECISIONS
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no precision named {name}"))
}

/// The course's worked example of the sqrt(K) rule: a K-term dot product
/// whose inputs and output are in one precision and whose accumulator is in
/// another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WorkedExample {
    pub k: u64,
    pub accumulator: &'static Precision,
    pub output: &'static Precision,
}

impl WorkedExample {
    /// K = 4096 in bfloat16, accumulated in float32.
    pub(crate) fn gemm_bf16() -> WorkedExample {
        WorkedExample {
            k: 4096,
            accumulator: precision("float32"),
            output: precision("bfloat16"),
        }
    }

    /// sqrt(K) * eps of the accumulator: the expected relative error of the
    /// sum when the rounding errors are independent.
    pub(crate) fn accumulation_error(&self) -> f64 {
        (self.k as f64).sqrt() * self.accumulator.eps()
    }

    /// How many times the output's rtol exceeds the accumulation error.
    pub(crate) fn headroom(&self) -> f64 {
        self.output.rtol / self.accumulation_error()
    }
}

/// A number declared `constexpr` in a source.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    pub name: String,
    pub value: f64,
    /// The literal as written (`1e-5`, `256`).
    pub text: String,
    /// 1-based line of the declaration.
    pub line: usize,
}

/// Why a lesson's tolerance rule could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RuleError {
    #[error(
        "{file} declares no `{name}`; the tolerance table reads the rule from a line like `constexpr double {name} = 1e-5;` (it needs {})",
        ToleranceRule::DECLARATIONS.join(", ")
    )]
    Missing { file: String, name: String },
    #[error(
        "{file}:{line}: `{name}` is declared as `{text}`, which is not a plain number; write the value as a literal so the tolerance table can read it"
    )]
    NotANumber {
        file: String,
        line: usize,
        name: String,
        text: String,
    },
    /// The source cannot be read for its constants: a comment or raw
    /// string that never ends, or a constant declared in two `#if` branches.
    #[error("{file}:{line}: {message}")]
    Unreadable {
        file: String,
        line: usize,
        message: String,
    },
}

/// Finds `constexpr TYPE NAME = LITERAL;` (or `NAME{LITERAL}`) in `source`,
/// `static` or `inline` allowed first, through the C++ reader
/// (`src/cxx/constants.rs`: comments and `#if 0` blocks are not read, a
/// name declared in two branches of an `#if` is refused). `None` when
/// nothing declares `name`; an error when the value is not a literal or the
/// source cannot be read.
pub(crate) fn constexpr_number(
    file: &str,
    source: &str,
    name: &str,
) -> Option<Result<Declared, RuleError>> {
    let constant = match constants::constexpr_literal(source, name) {
        Ok(found) => found?,
        Err(problem) => {
            return Some(Err(RuleError::Unreadable {
                file: file.to_string(),
                line: problem.line,
                message: problem.message,
            }));
        }
    };
    let text = constant.value;
    let line = constant.line;
    Some(
        parse_literal(&text)
            .map(|number| Declared {
                name: name.to_string(),
                value: number,
                text: text.clone(),
                line,
            })
            .ok_or_else(|| RuleError::NotANumber {
                file: file.to_string(),
                line,
                name: name.to_string(),
                text,
            }),
    )
}

/// A C++ decimal literal (`256`, `1e-5`, `4.0`, `0.5f`, `16'483LL`).
fn parse_literal(text: &str) -> Option<f64> {
    let digits: String = text.chars().filter(|&c| c != '\'').collect();
    let body = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let body = if body.contains(['.', 'e', 'E']) {
        body.trim_end_matches(['f', 'F'])
    } else {
        body
    };
    let plain = body.trim_start_matches(['-', '+']);
    let starts_with_digit = plain.starts_with(|c: char| c.is_ascii_digit() || c == '.');
    if !starts_with_digit || plain.starts_with("0x") || plain.starts_with("0X") {
        return None;
    }
    body.parse().ok()
}

/// A lesson's tolerance rule, read from its source:
/// `scaled(K) = max(base, slack * eps * sqrt(K))`, next to the base and
/// the loose rtol and the block size that bounds a dropped tail.
#[derive(Debug, Clone, PartialEq)]
pub struct ToleranceRule {
    /// Threads per block (`kBlock`): a dropped tail is at most `block - 1`.
    pub block: Declared,
    /// The fixed rtol (`kBaseRtol`), also the scaled rule's floor.
    pub base_rtol: Declared,
    /// The loose rtol (`kLooseRtol`).
    pub loose_rtol: Declared,
    /// float32 epsilon as the lesson declares it (`kFloatEps`).
    pub eps: Declared,
    /// The slack factor for a different valid order (`kOrderSlack`).
    pub slack: Declared,
}

impl ToleranceRule {
    /// The declarations the rule is read from, in the order of the fields.
    pub const DECLARATIONS: [&'static str; 5] = [
        "kBlock",
        "kBaseRtol",
        "kLooseRtol",
        "kFloatEps",
        "kOrderSlack",
    ];

    /// Reads the rule from `source`, the text of `file`.
    pub fn from_source(file: &str, source: &str) -> Result<ToleranceRule, RuleError> {
        let read = |name: &str| {
            constexpr_number(file, source, name).unwrap_or_else(|| {
                Err(RuleError::Missing {
                    file: file.to_string(),
                    name: name.to_string(),
                })
            })
        };
        Ok(ToleranceRule {
            block: read("kBlock")?,
            base_rtol: read("kBaseRtol")?,
            loose_rtol: read("kLooseRtol")?,
            eps: read("kFloatEps")?,
            slack: read("kOrderSlack")?,
        })
    }

    /// Every declaration, in [`Self::DECLARATIONS`] order.
    pub fn declarations(&self) -> [&Declared; 5] {
        [
            &self.block,
            &self.base_rtol,
            &self.loose_rtol,
            &self.eps,
            &self.slack,
        ]
    }

    /// slack * eps * sqrt(K): the error a correct float32 sum of K terms may
    /// show, summed in any valid order.
    pub fn expected_error(&self, k: u64) -> f64 {
        self.slack.value * self.eps.value * (k as f64).sqrt()
    }

    /// The scaled rtol: `max(base, slack * eps * sqrt(K))`.
    pub fn scaled_rtol(&self, k: u64) -> f64 {
        self.base_rtol.value.max(self.expected_error(k))
    }

    /// The largest relative error a dropped tail can cause when all values
    /// have one magnitude: up to `block - 1` of K terms missing (all of
    /// them when K is smaller than that).
    pub fn worst_tail_error(&self, k: u64) -> f64 {
        let tail = (self.block.value as u64).saturating_sub(1).min(k);
        tail as f64 / k as f64
    }
}

/// A check of the oracle at one size, `oracle, n=N`: the lesson convention
/// for the checks that compare a sum of N terms with the oracle.
pub fn oracle_size(check: &Check) -> Option<u64> {
    check.name.strip_prefix("oracle, n=")?.trim().parse().ok()
}

/// One of the lesson's sizes as its recorded run saw it against the buggy
/// variant.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RecordedSize {
    pub n: u64,
    /// The oracle check against the drop-tail variant: its `rel` is the
    /// relative error the dropped tail caused.
    pub check: Check,
}

/// The name of the function the `drop-tail` snippet defines (the buggy
/// variant, `sumDropTail`): the first function whose body the snippet opens
/// at its top level, without its qualifier
/// (`src/cxx/constants.rs`).
pub fn defined_function(snippet: &str) -> Option<String> {
    constants::defined_function(snippet)
}

/// The lesson's sizes and their drop-tail errors: the `oracle, n=N` checks
/// of the first phase whose header names `variant` and has any.
pub(crate) fn recorded_sizes(
    transcript: &Transcript,
    variant: &str,
) -> Result<Vec<RecordedSize>, String> {
    let sizes: Vec<RecordedSize> = transcript
        .phases
        .iter()
        .filter(|phase| phase.title.contains(variant))
        .map(|phase| {
            phase
                .checks
                .iter()
                .filter_map(|check| {
                    oracle_size(check).map(|n| RecordedSize {
                        n,
                        check: check.clone(),
                    })
                })
                .collect::<Vec<_>>()
        })
        .find(|sizes| !sizes.is_empty())
        .unwrap_or_default();
    if sizes.is_empty() {
        return Err(format!(
            "the recorded output has no phase against `{variant}` with `oracle, n=N` checks, so the lesson's sizes and drop-tail errors are unknown"
        ));
    }
    Ok(sizes)
}

/// The recorded `oracle, n=N` checks whose printed rtol is not the rule's
/// scaled rtol for N, formatted as the program prints it (`%.3e`), as
/// (check, what the rule gives); a check printed alike in several phases
/// is named once.
pub(crate) fn rtol_disagreements<'t>(
    rule: &ToleranceRule,
    transcript: &'t Transcript,
    format: impl Fn(f64) -> String,
) -> Vec<(&'t Check, String)> {
    let mut found: Vec<(&Check, String)> = Vec::new();
    for check in transcript.checks() {
        let Some(n) = oracle_size(check) else {
            continue;
        };
        let ours = format(rule.scaled_rtol(n));
        let named = found
            .iter()
            .any(|(c, _)| c.name == check.name && c.rtol.text == check.rtol.text);
        if ours != check.rtol.text && !named {
            found.push((check, ours));
        }
    }
    found
}

/// The K of the lesson table: the lesson's sizes in recorded order, then
/// every power of ten above the largest of them, up to 10^8.
pub(crate) fn table_sizes(lesson: &[u64]) -> Vec<u64> {
    let largest = lesson.iter().copied().max().unwrap_or(0);
    let mut sizes = lesson.to_vec();
    sizes.extend(
        (1..=8)
            .map(|p| 10u64.pow(p))
            .filter(|&k| k > largest && !lesson.contains(&k)),
    );
    sizes
}

/// One row of the lesson table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub k: u64,
    /// The recorded drop-tail check, for the lesson's own sizes.
    pub recorded: Option<Check>,
    pub expected_error: f64,
    pub fixed: f64,
    pub scaled: f64,
    pub loose: f64,
    /// The drop-tail error: recorded at the lesson's sizes, the worst case
    /// of a `block - 1` tail elsewhere.
    pub tail_error: f64,
    /// The expected error of a correct sum is above the fixed rtol.
    pub fixed_fails_correct_code: bool,
    /// The drop-tail error is at or below the loose rtol: it passes.
    pub loose_is_blind: bool,
}

/// The rows of the lesson table.
pub(crate) fn rows(rule: &ToleranceRule, lesson: &[RecordedSize]) -> Vec<Row> {
    let sizes: Vec<u64> = lesson.iter().map(|s| s.n).collect();
    table_sizes(&sizes)
        .into_iter()
        .map(|k| {
            let recorded = lesson.iter().find(|s| s.n == k).map(|s| s.check.clone());
            let tail_error = match &recorded {
                Some(check) => check.rel.value,
                None => rule.worst_tail_error(k),
            };
            let expected_error = rule.expected_error(k);
            Row {
                k,
                expected_error,
                fixed: rule.base_rtol.value,
                scaled: rule.scaled_rtol(k),
                loose: rule.loose_rtol.value,
                tail_error,
                fixed_fails_correct_code: expected_error > rule.base_rtol.value,
                // A check passes when rel <= rtol; NaN never does.
                loose_is_blind: tail_error <= rule.loose_rtol.value,
                recorded,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lesson's rule, declared as the lesson declares it, with a decoy
    /// in a comment.
    const LESSON: &str = "constexpr int kBlock = 256;\n\
                          constexpr double kBaseRtol = 1e-5;   // the float32 default\n\
                          constexpr double kLooseRtol = 1e-2;\n\
                          /* constexpr double kFloatEps = 1.0; */\n\
                          constexpr double kFloatEps = 1.1920929e-7;  // 2^-23\n\
                          constexpr double kOrderSlack = 4.0;\n";
    const RECORDED: &str = include_str!("../../tests/fixtures/h200/testing.stdout");

    fn rule() -> ToleranceRule {
        ToleranceRule::from_source("kernels/testing.cu", LESSON).unwrap()
    }

    #[test]
    fn declarations_are_read_with_their_lines() {
        let source = "int x;\nconstexpr int kBlock = 256;  // threads\n static constexpr double kEps{1.5e-3};\nconstexpr long long kN = 16'483LL;\nconstexpr float kF = 0.5f;\n";
        let read = |name| constexpr_number("k.cu", source, name).unwrap().unwrap();
        assert_eq!(
            read("kBlock"),
            Declared {
                name: "kBlock".into(),
                value: 256.0,
                text: "256".into(),
                line: 2
            }
        );
        assert_eq!(read("kEps").value, 1.5e-3);
        assert_eq!(read("kN").value, 16483.0);
        assert_eq!(read("kF").value, 0.5);
        assert!(constexpr_number("k.cu", source, "kMissing").is_none());
        assert!(constexpr_number("k.cu", source, "x").is_none());
    }

    #[test]
    fn a_value_that_is_not_a_literal_is_an_error_naming_file_and_line() {
        let source = "\nconstexpr double kFloatEps = 1.0 / (1 << 23);\n";
        let err = constexpr_number("k.cu", source, "kFloatEps")
            .unwrap()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "k.cu:2: `kFloatEps` is declared as `1.0 / (1 << 23)`, which is not a plain number; write the value as a literal so the tolerance table can read it"
        );
    }

    #[test]
    fn comments_and_if_0_blocks_are_not_read_and_two_branches_are_refused() {
        let source = "/* constexpr int kBlock = 1; */\n#if 0\nconstexpr int kBlock = 2;\n#endif\n\
                      constexpr int kBlock = 256;\n";
        let read = constexpr_number("k.cu", source, "kBlock").unwrap().unwrap();
        assert_eq!((read.value, read.line), (256.0, 5));

        let source = "#ifdef FAST\nconstexpr int kBlock = 512;\n#else\nconstexpr int kBlock = 256;\n#endif\n";
        let err = constexpr_number("k.cu", source, "kBlock")
            .unwrap()
            .unwrap_err();
        assert!(
            err.to_string().starts_with(
                "k.cu:4: `kBlock` is declared in two branches of the `#if` at line 1 (lines 2 and 4)"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_missing_declaration_names_the_file_and_the_declaration() {
        let source = LESSON.replace("constexpr double kOrderSlack", "const double kOrderSlack");
        let err = ToleranceRule::from_source("kernels/testing.cu", &source).unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with("kernels/testing.cu declares no `kOrderSlack`"),
            "{text}"
        );
        assert!(text.contains("kBlock, kBaseRtol"), "{text}");
    }

    #[test]
    fn the_lesson_rule_is_read_from_its_source() {
        let rule = rule();
        let values: Vec<f64> = rule.declarations().iter().map(|d| d.value).collect();
        assert_eq!(values, [256.0, 1e-5, 1e-2, 1.1920929e-7, 4.0]);
        assert_eq!(rule.scaled_rtol(1), 1e-5);
        assert!((rule.scaled_rtol(1024) - 4.0 * 1.1920929e-7 * 32.0).abs() < 1e-18);
        assert_eq!(rule.worst_tail_error(100_000), 255.0 / 100_000.0);
        assert_eq!(rule.worst_tail_error(10), 1.0);
    }

    #[test]
    fn the_buggy_variant_is_the_function_of_the_drop_tail_snippet() {
        let snippet = "// BUG: rounds down (x) {\nfloat sumDropTail(const std::vector<float>& x) {\n  return 0;\n}\n";
        assert_eq!(defined_function(snippet).as_deref(), Some("sumDropTail"));
        assert_eq!(defined_function("int a;\n"), None);
    }

    #[test]
    fn sizes_and_tail_errors_come_from_the_phase_against_the_buggy_variant() {
        let transcript = Transcript::parse(RECORDED, "");
        let sizes = recorded_sizes(&transcript, "sumDropTail").unwrap();
        let seen: Vec<(u64, &str)> = sizes
            .iter()
            .map(|s| (s.n, s.check.rel.text.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                (611, "1.662e-01"),
                (1024, "0.000e+00"),
                (16483, "6.111e-03")
            ]
        );
        let err = recorded_sizes(&transcript, "sumNowhere").unwrap_err();
        assert!(err.contains("`sumNowhere`"), "{err}");
    }

    #[test]
    fn table_sizes_continue_with_powers_of_ten() {
        assert_eq!(
            table_sizes(&[611, 1024, 16483]),
            [
                611,
                1024,
                16483,
                100_000,
                1_000_000,
                10_000_000,
                100_000_000
            ]
        );
        assert_eq!(table_sizes(&[100, 1000]).len(), 2 + 5);
    }

    #[test]
    fn marks_follow_the_rule() {
        let transcript = Transcript::parse(RECORDED, "");
        let sizes = recorded_sizes(&transcript, "sumDropTail").unwrap();
        let table = rows(&rule(), &sizes);
        let marks: Vec<(u64, bool, bool)> = table
            .iter()
            .map(|r| (r.k, r.fixed_fails_correct_code, r.loose_is_blind))
            .collect();
        assert_eq!(
            marks,
            [
                (611, true, false),
                (1024, true, true),
                (16483, true, true),
                (100_000, true, true),
                (1_000_000, true, true),
                (10_000_000, true, true),
                (100_000_000, true, true),
            ]
        );
        let generic = rows(&rule(), &[]);
        assert_eq!(generic.len(), 8);
        assert!(generic.iter().all(|r| r.recorded.is_none()));
        assert!(!generic[0].loose_is_blind, "a 10-term sum loses everything");
    }

    #[test]
    fn disagreements_are_named_once_per_check() {
        let transcript = Transcript::parse(RECORDED, "");
        let sci = |x: f64| crate::render::tolerance::sci(x);
        assert!(rtol_disagreements(&rule(), &transcript, sci).is_empty());
        let mut looser = rule();
        looser.slack.value = 3.0;
        let found: Vec<(&str, String)> = rtol_disagreements(&looser, &transcript, sci)
            .into_iter()
            .map(|(c, ours)| (c.name.as_str(), ours))
            .collect();
        assert_eq!(
            found,
            [
                ("oracle, n=611", "1.000e-05".to_string()),
                ("oracle, n=1024", "1.144e-05".to_string()),
                ("oracle, n=16483", "4.591e-05".to_string()),
            ]
        );
    }

    #[test]
    fn the_worked_example_is_computed() {
        let example = WorkedExample::gemm_bf16();
        assert!((example.accumulation_error() - 7.62939e-6).abs() < 1e-10);
        assert!(example.headroom() > 1000.0);
        assert_eq!(precision("float32").eps(), 1.1920928955078125e-7);
    }
}
