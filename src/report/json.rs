//! `--format json`: one document with a record per program and check, and
//! the counts, for scripts and dashboards.

use super::{Record, counts};
use serde::Serialize;

#[derive(Serialize)]
struct Document<'a> {
    /// The command that checked (`verify`).
    command: &'a str,
    passed: usize,
    failed: usize,
    skipped: usize,
    records: &'a [Record],
}

/// The JSON document for `records`, pretty-printed, ending with a newline.
pub(crate) fn render(command: &str, records: &[Record]) -> String {
    let (passed, failed, skipped) = counts(records);
    let document = Document {
        command,
        passed,
        failed,
        skipped,
        records,
    };
    let mut text = serde_json::to_string_pretty(&document).expect("records serialize");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Outcome;

    #[test]
    fn one_record_per_check_and_the_counts() {
        let records = vec![
            Record {
                check: "evidence".into(),
                name: "kernels/a.cu".into(),
                outcome: Outcome::Passed,
                verdict: "reproduced".into(),
                message: "reproduces its evidence".into(),
            },
            Record {
                check: "drift".into(),
                name: "a".into(),
                outcome: Outcome::Failed,
                verdict: "drift".into(),
                message: "x".into(),
            },
        ];
        let value: serde_json::Value = serde_json::from_str(&render("verify", &records)).unwrap();
        assert_eq!(value["command"], "verify");
        assert_eq!(
            (value["passed"].as_u64(), value["failed"].as_u64()),
            (Some(1), Some(1))
        );
        assert_eq!(value["records"][0]["name"], "kernels/a.cu");
        assert_eq!(value["records"][0]["outcome"], "passed");
        assert_eq!(value["records"][1]["check"], "drift");
        assert_eq!(value["records"][1]["outcome"], "failed");
    }
}
