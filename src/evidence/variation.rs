//! Output that is not bit-exact, declared where it is printed.
//!
//! Most of a lesson's output must reproduce byte for byte; some of it
//! cannot: a timing, a sum built with float atomics across blocks, a
//! bandwidth. A lesson declares those lines in its header comment, one rule
//! a line, and every comparison of a new run with the recording
//! (reproduction, `verify`, `check`) applies the same rules:
//!
//! ```text
//! // Vary: shown "^kernel time"                     shown, never compared
//! // Vary: numbers "weighted sum" rtol=1e-5 atol=1e-5
//! // Vary: band "bandwidth" 10%                     on a GPU like the recording's
//! ```
//!
//! - `shown PATTERN`: lines matching the pattern are shown but not compared.
//! - `numbers PATTERN rtol=R atol=A`: on a matching line, every number is
//!   compared with `|new - recorded| <= A + R * |recorded|` and the text
//!   around the numbers exactly.
//! - `band PATTERN P%`: like `numbers` with `rtol = P/100`, but only where
//!   the new run is on the kind of GPU that made the recording (the same
//!   device name); elsewhere, by emulation or on another GPU, the line is
//!   shown and not compared (a CPU's speed says nothing about a GPU's).
//!
//! A pattern is a regular expression (the `regex` crate's syntax) in double
//! quotes, matched against the recorded line. Lines are paired by position,
//! so a run that prints a different number of lines is compared as it is.
//! Hand-written parsing: one line of three words needs no grammar crate.

use regex::Regex;

/// The header key of a rule.
const KEY: &str = "Vary:";

/// What a rule lets vary.
#[derive(Debug, Clone, PartialEq)]
pub enum Allowance {
    /// Shown, not compared.
    Shown,
    /// Numbers within `atol + rtol * |recorded|`.
    Numbers { rtol: f64, atol: f64 },
    /// Numbers within a relative band, on a GPU like the recording's only.
    Band { fraction: f64 },
}

/// One declared rule: which lines, and what may vary on them.
#[derive(Debug, Clone)]
pub struct Rule {
    /// The pattern as written.
    pub pattern: String,
    regex: Regex,
    pub allowance: Allowance,
    /// The line of the source that declares it (1-based).
    pub line: usize,
}

impl Rule {
    /// How the book shows the rule beside the figures.
    pub fn describe(&self) -> String {
        match self.allowance {
            Allowance::Shown => {
                format!("lines matching `{}` are shown, not compared", self.pattern)
            }
            Allowance::Numbers { rtol, atol } => format!(
                "numbers on lines matching `{}` are compared within rtol {rtol:e}, atol {atol:e}",
                self.pattern
            ),
            Allowance::Band { fraction } => format!(
                "numbers on lines matching `{}` are compared within {}% of the recording, on a GPU like the recording's only",
                self.pattern,
                fraction * 100.0
            ),
        }
    }
}

/// A declaration that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{file}:{line}: {reason}; write it as `// Vary: shown \"PATTERN\"`, `// Vary: numbers \"PATTERN\" rtol=1e-5 atol=0` or `// Vary: band \"PATTERN\" 10%`"
)]
pub struct RuleError {
    pub file: String,
    pub line: usize,
    pub reason: String,
}

/// The rules of a program: its `// Vary:` lines, in order.
#[derive(Debug, Clone, Default)]
pub struct Variation {
    /// The rules, in the order the source declares them.
    pub rules: Vec<Rule>,
}

/// Where a new run was made, for `band` rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOn<'a> {
    /// On a GPU with this device name.
    Gpu(&'a str),
    /// By CPU emulation (or anything that is not a GPU).
    Elsewhere,
}

/// What comparing under the rules found on one line.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// 1-based line of the stream.
    pub line: usize,
    /// The rule's description.
    pub rule: String,
    /// Whether the line was within the rule.
    pub held: bool,
}

impl Variation {
    /// Reads the `// Vary:` lines of `source`'s header comment (`file`
    /// names it in errors).
    pub fn from_source(file: &str, source: &str) -> Result<Variation, RuleError> {
        let mut rules = Vec::new();
        for (index, line) in source.lines().enumerate() {
            let trimmed = line.trim_start();
            if !(trimmed.starts_with("//") || trimmed.is_empty()) {
                break;
            }
            let Some(rest) = trimmed
                .strip_prefix("//")
                .map(str::trim_start)
                .and_then(|l| l.strip_prefix(KEY))
            else {
                continue;
            };
            let error = |reason: String| RuleError {
                file: file.to_string(),
                line: index + 1,
                reason,
            };
            rules.push(parse_rule(rest.trim()).map_err(error).map(
                |(pattern, regex, allowance)| Rule {
                    pattern,
                    regex,
                    allowance,
                    line: index + 1,
                },
            )?);
        }
        Ok(Variation { rules })
    }

    /// Whether the program declares no variation (its output must match exactly).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// `now` with every line that its rule lets through replaced by the
    /// recorded line, so that a plain diff afterwards shows only what the
    /// rules do not allow; and what each rule found.
    pub fn reconcile(
        &self,
        recorded: &str,
        now: &str,
        run_on: RunOn,
        recorded_on: &str,
    ) -> (String, Vec<Applied>) {
        if self.rules.is_empty() {
            return (now.to_string(), Vec::new());
        }
        let recorded_lines: Vec<&str> = recorded.split_inclusive('\n').collect();
        let now_lines: Vec<&str> = now.split_inclusive('\n').collect();
        if recorded_lines.len() != now_lines.len() {
            return (now.to_string(), Vec::new());
        }
        let mut out = String::with_capacity(now.len());
        let mut applied = Vec::new();
        for (index, (old, new)) in recorded_lines.iter().zip(&now_lines).enumerate() {
            let Some(rule) = self.rules.iter().find(|r| r.regex.is_match(old.trim_end())) else {
                out.push_str(new);
                continue;
            };
            let held = match rule.allowance {
                Allowance::Shown => true,
                Allowance::Numbers { rtol, atol } => within(old, new, rtol, atol),
                Allowance::Band { fraction } => match run_on {
                    RunOn::Gpu(device) if device == recorded_on => within(old, new, fraction, 0.0),
                    _ => true,
                },
            };
            out.push_str(if held { old } else { new });
            applied.push(Applied {
                line: index + 1,
                rule: rule.describe(),
                held,
            });
        }
        (out, applied)
    }
}

fn parse_rule(text: &str) -> Result<(String, Regex, Allowance), String> {
    let (kind, rest) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("`{text}` needs a kind and a pattern"))?;
    let rest = rest.trim_start();
    let Some(after_quote) = rest.strip_prefix('"') else {
        return Err("the pattern goes in double quotes".into());
    };
    let end = after_quote
        .find('"')
        .ok_or_else(|| "the pattern's closing `\"` is missing".to_string())?;
    let pattern = after_quote[..end].to_string();
    let regex = Regex::new(&pattern)
        .map_err(|e| format!("`{pattern}` is not a regular expression: {e}"))?;
    let options: Vec<&str> = after_quote[end + 1..].split_whitespace().collect();
    let allowance = match kind {
        "shown" if options.is_empty() => Allowance::Shown,
        "numbers" => {
            let mut rtol = None;
            let mut atol = 0.0;
            for option in &options {
                let (name, value) = option
                    .split_once('=')
                    .ok_or_else(|| format!("`{option}` is not `rtol=R` or `atol=A`"))?;
                let value: f64 = value
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| format!("`{value}` is not a tolerance (a number, 0 or more)"))?;
                match name {
                    "rtol" => rtol = Some(value),
                    "atol" => atol = value,
                    _ => return Err(format!("`{name}` is not `rtol` or `atol`")),
                }
            }
            Allowance::Numbers {
                rtol: rtol.ok_or("a `numbers` rule needs `rtol=`")?,
                atol,
            }
        }
        "band" => {
            let [percent] = options[..] else {
                return Err("a `band` rule takes one percentage, as in `10%`".into());
            };
            let fraction = percent
                .strip_suffix('%')
                .and_then(|p| p.parse::<f64>().ok())
                .filter(|p| p.is_finite() && *p >= 0.0)
                .ok_or_else(|| format!("`{percent}` is not a percentage such as `10%`"))?
                / 100.0;
            Allowance::Band { fraction }
        }
        "shown" => return Err("a `shown` rule takes only a pattern".into()),
        other => return Err(format!("`{other}` is not `shown`, `numbers` or `band`")),
    };
    Ok((pattern, regex, allowance))
}

/// Whether two lines have the same text around their numbers and every
/// number of `new` is within tolerance of `old`'s.
fn within(old: &str, new: &str, rtol: f64, atol: f64) -> bool {
    let (old_text, old_numbers) = split_numbers(old);
    let (new_text, new_numbers) = split_numbers(new);
    old_text == new_text
        && old_numbers.len() == new_numbers.len()
        && old_numbers
            .iter()
            .zip(&new_numbers)
            .all(|(o, n)| (n - o).abs() <= atol + rtol * o.abs() || (o.is_nan() && n.is_nan()))
}

/// A line's text with each number replaced by `#`, and the numbers.
fn split_numbers(line: &str) -> (String, Vec<f64>) {
    static NUMBER: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let number = NUMBER.get_or_init(|| {
        Regex::new(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\b(?:nan|inf)\b").expect("valid")
    });
    let mut numbers = Vec::new();
    let text = number
        .replace_all(line, |c: &regex::Captures| {
            numbers.push(c[0].parse::<f64>().unwrap_or(f64::NAN));
            "#"
        })
        .into_owned();
    (text, numbers)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "// A lesson.\n//\n// Vary: shown \"^kernel time\"\n// Vary: numbers \"weighted sum\" rtol=1e-5 atol=1e-6\n// Vary: band \"bandwidth\" 10%\n\nint main() {}\n// Vary: shown \"not in the header\"\n";

    fn rules() -> Variation {
        Variation::from_source("k.cu", SOURCE).unwrap()
    }

    #[test]
    fn rules_are_read_from_the_header_comment_with_their_lines() {
        let v = rules();
        assert_eq!(v.rules.len(), 3);
        assert_eq!(v.rules[0].allowance, Allowance::Shown);
        assert_eq!(
            v.rules[1].allowance,
            Allowance::Numbers {
                rtol: 1e-5,
                atol: 1e-6
            }
        );
        assert_eq!(v.rules[2].allowance, Allowance::Band { fraction: 0.1 });
        assert_eq!(v.rules[2].line, 5);
        assert!(
            v.rules[1].describe().contains("rtol 1e-5"),
            "{}",
            v.rules[1].describe()
        );
    }

    #[test]
    fn a_bad_rule_names_its_line_and_says_how_to_write_it() {
        for (bad, why) in [
            (
                "// Vary: sometimes \"x\"\n",
                "is not `shown`, `numbers` or `band`",
            ),
            ("// Vary: numbers \"x\"\n", "needs `rtol=`"),
            ("// Vary: numbers \"x\" rtol=-1\n", "is not a tolerance"),
            ("// Vary: band \"x\" ten\n", "is not a percentage"),
            ("// Vary: shown x\n", "in double quotes"),
            ("// Vary: shown \"(\"\n", "is not a regular expression"),
        ] {
            let err = Variation::from_source("k.cu", bad).unwrap_err();
            assert_eq!(err.line, 1, "{bad}");
            let text = err.to_string();
            assert!(text.starts_with("k.cu:1: ") && text.contains(why), "{text}");
        }
    }

    #[test]
    fn each_rule_lets_through_only_what_it_declares() {
        let v = rules();
        let recorded = "a 1\nkernel time: 0.12 ms\n  weighted sum  PASS  got 1000.000000  rel 1e-07\nbandwidth 500.0 GB/s\n";
        let within = "a 1\nkernel time: 0.50 ms\n  weighted sum  PASS  got 1000.004000  rel 2e-07\nbandwidth 540.0 GB/s\n";
        let (same, applied) =
            v.reconcile(recorded, within, RunOn::Gpu("NVIDIA H200"), "NVIDIA H200");
        assert_eq!(same, recorded);
        assert_eq!(applied.iter().filter(|a| a.held).count(), 3);

        // Outside the tolerance, the band, or the text around the numbers.
        let outside = "a 1\nkernel time: 9 ms\n  weighted sum  FAIL  got 1000.100000  rel 1e-04\nbandwidth 600.0 GB/s\n";
        let (kept, applied) =
            v.reconcile(recorded, outside, RunOn::Gpu("NVIDIA H200"), "NVIDIA H200");
        assert!(kept.contains("FAIL") && kept.contains("600.0"), "{kept}");
        assert_eq!(applied.iter().filter(|a| !a.held).count(), 2);

        // A band is not checked by emulation or on another GPU.
        for run_on in [RunOn::Elsewhere, RunOn::Gpu("NVIDIA A100")] {
            let (kept, _) = v.reconcile(recorded, "a 1\nkernel time: 0.12 ms\n  weighted sum  PASS  got 1000.000000  rel 1e-07\nbandwidth 5.0 GB/s\n", run_on, "NVIDIA H200");
            assert_eq!(kept, recorded);
        }
        // Lines without a rule still compare exactly.
        let (kept, _) = v.reconcile(
            recorded,
            &recorded.replace("a 1", "a 2"),
            RunOn::Elsewhere,
            "x",
        );
        assert!(kept.starts_with("a 2"));
    }

    #[test]
    fn no_rules_change_nothing() {
        let v = Variation::from_source("k.cu", "int main() {}\n").unwrap();
        assert!(v.is_empty());
        assert_eq!(v.reconcile("a\n", "b\n", RunOn::Elsewhere, "x").0, "b\n");
    }
}
