//! `--format junit`: JUnit XML, the test-report format CI systems read
//! (GitLab, Jenkins, GitHub actions that publish test results). One
//! `<testsuite>` per kind of check, one `<testcase>` per program or lesson;
//! a failure carries the verdict and its diff.

use super::{Outcome, Record, counts};

/// Escapes text for XML content and attribute values; characters XML 1.0
/// cannot hold at all (control characters) become U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The JUnit XML for `records` of `command` (`verify`).
pub(crate) fn render(command: &str, records: &[Record]) -> String {
    let (_, failed, skipped) = counts(records);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"mdbook-evidence {}\" tests=\"{}\" failures=\"{failed}\" skipped=\"{skipped}\">\n",
        escape(command),
        records.len()
    ));
    let mut kinds: Vec<&str> = Vec::new();
    for record in records {
        if !kinds.contains(&record.check.as_str()) {
            kinds.push(&record.check);
        }
    }
    for kind in kinds {
        let suite: Vec<Record> = records
            .iter()
            .filter(|r| r.check == kind)
            .cloned()
            .collect();
        let (_, failed, skipped) = counts(&suite);
        xml.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failed}\" errors=\"0\" skipped=\"{skipped}\">\n",
            escape(kind),
            suite.len()
        ));
        for record in &suite {
            let open = format!(
                "    <testcase classname=\"{}\" name=\"{}\"",
                escape(kind),
                escape(&record.name)
            );
            match record.outcome {
                Outcome::Passed => xml.push_str(&format!("{open}/>\n")),
                Outcome::Failed => xml.push_str(&format!(
                    "{open}>\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(first_line(&record.message)),
                    escape(&record.verdict),
                    escape(&record.message)
                )),
                Outcome::Skipped => xml.push_str(&format!(
                    "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                    escape(first_line(&record.message))
                )),
            }
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(check: &str, name: &str, outcome: Outcome, message: &str) -> Record {
        Record {
            check: check.into(),
            name: name.into(),
            outcome,
            verdict: "v".into(),
            message: message.into(),
        }
    }

    #[test]
    fn suites_by_check_with_failures_escaped() {
        let xml = render(
            "verify",
            &[
                record("evidence", "kernels/a.cu", Outcome::Passed, "ok"),
                record(
                    "evidence",
                    "kernels/b.cu",
                    Outcome::Failed,
                    "differs:\n-a<b\n+a&b",
                ),
                record("drift", "a", Outcome::Skipped, "no starter"),
            ],
        );
        assert!(xml.contains("<testsuites name=\"mdbook-evidence verify\" tests=\"3\" failures=\"1\" skipped=\"1\">"), "{xml}");
        assert!(
            xml.contains("<testsuite name=\"evidence\" tests=\"2\" failures=\"1\""),
            "{xml}"
        );
        assert!(
            xml.contains("<testcase classname=\"evidence\" name=\"kernels/a.cu\"/>"),
            "{xml}"
        );
        assert!(
            xml.contains(
                "<failure message=\"differs:\" type=\"v\">differs:\n-a&lt;b\n+a&amp;b</failure>"
            ),
            "{xml}"
        );
        assert!(xml.contains("<skipped message=\"no starter\"/>"), "{xml}");
        assert_eq!(escape("\u{1b}[31m"), "\u{FFFD}[31m");
    }
}
