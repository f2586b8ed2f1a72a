//! Fuzzes the chapter directive scanner: any text, no panic, and every
//! span found lies on char boundaries inside the text, in order.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mdbook_evidence::find_directives;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut last = 0;
    for found in find_directives(text) {
        assert!(found.span.start >= last && found.span.end <= text.len());
        assert!(text.is_char_boundary(found.span.start) && text.is_char_boundary(found.span.end));
        assert!(found.line >= 1);
        last = found.span.end;
    }
});
