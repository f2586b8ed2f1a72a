//! Fuzzes the evidence-file reader: any text, no panic; what parses gives
//! a provenance hash and a transcript without panicking either.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mdbook_evidence::Evidence;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(evidence) = Evidence::parse(Path::new("evidence/fuzz.cu.toml"), text) {
        let _ = evidence.short_source_hash();
        let _ = evidence.is_provisional();
    }
});
