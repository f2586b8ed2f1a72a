//! Fuzzes the C++ reader (src/cxx/: the lexer, the definition scanner and
//! the constant lookup) through the public entries that reach it: the drift
//! check ([`compare_drift`]), the tolerance rule's constants
//! ([`ToleranceRule::from_source`]) and the function a snippet defines
//! ([`defined_function`]). Any source, no panic; a file compared with itself
//! never drifts, and every line a report or an error names lies in the file.
//! Input: one source, or a lesson and a starter separated by a NUL byte.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mdbook_evidence::{SourceFile, ToleranceRule, compare_drift, defined_function};

fn lines_of(text: &str) -> usize {
    text.split('\n').count()
}

fn check_pair(lesson: &str, starter: &str) {
    let lesson_file = SourceFile {
        display: "kernels/fuzz.cu".into(),
        text: lesson.into(),
    };
    let starter_file = SourceFile {
        display: "starter/fuzz.cu".into(),
        text: starter.into(),
    };
    match compare_drift(&lesson_file, &starter_file) {
        Ok(report) => {
            for found in report.mirrored.iter().chain(&report.exercise) {
                assert!(
                    found.line >= 1 && found.line <= lines_of(lesson),
                    "{found:?}"
                );
            }
            for drift in &report.drifts {
                if let Some(line) = drift.lesson_line {
                    assert!(line >= 1 && line <= lines_of(lesson), "{drift:?}");
                }
                if let Some(line) = drift.starter_line {
                    assert!(line >= 1 && line <= lines_of(starter), "{drift:?}");
                }
            }
            if lesson == starter {
                assert!(report.is_clean(), "a file drifts from itself: {report:?}");
            }
            let _ = report.render_text(true);
        }
        Err(error) => {
            let text = if error.file == lesson_file.display {
                lesson
            } else {
                starter
            };
            assert!(error.line >= 1 && error.line <= lines_of(text), "{error}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match text.split_once('\0') {
        Some((lesson, starter)) => check_pair(lesson, starter),
        None => check_pair(&text, &text),
    }
    if let Err(error) = ToleranceRule::from_source("kernels/fuzz.cu", &text) {
        // `kernels/fuzz.cu:LINE: ...` or `kernels/fuzz.cu declares no ...`.
        let message = error.to_string();
        let after = message
            .strip_prefix("kernels/fuzz.cu")
            .expect("names the file");
        if let Some(rest) = after.strip_prefix(':') {
            let line: usize = rest.split(':').next().unwrap().parse().expect("a line");
            assert!(line >= 1 && line <= lines_of(&text), "{message}");
        }
    }
    let _ = defined_function(&text);
});
