//! Fuzzes the snippet scanner (`// snippet: NAME` ... `// end snippet`):
//! any source, no panic; every region found can be looked up by its name.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mdbook_evidence::SnippetSet;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(set) = SnippetSet::scan("fuzz.cu", text) {
        for snippet in set.iter() {
            assert!(set.get(&snippet.name).is_ok());
        }
    }
});
