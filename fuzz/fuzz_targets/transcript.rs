//! Fuzzes the transcript parser (phases, checks, gates, the closing line):
//! any stdout and stderr, no panic, and the counts agree with the checks.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mdbook_evidence::{Check, Transcript, without_device_line};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (stdout, stderr) = text.split_once('\0').unwrap_or((&text, ""));
    let parsed = Transcript::parse(stdout, stderr);
    let _ = parsed.checks().count();
    let _ = without_device_line(stdout);
    for (number, line) in stdout.lines().enumerate() {
        if let Some(check) = Check::parse(line, number + 1) {
            let _ = check.margin();
        }
    }
});
