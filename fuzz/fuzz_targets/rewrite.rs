//! Fuzzes the launch rewriter (kernel launches, `extern __shared__`,
//! refusals): any source, no panic; a refusal names a line of the file.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mdbook_evidence::rewrite;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = rewrite(Path::new("fuzz.cu"), text);
});
