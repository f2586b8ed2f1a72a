//! The crate's one reader of C++/CUDA source.
//!
//! - [`lexer`]: cuts source into tokens with exact byte spans and line and
//!   column numbers: comments, preprocessor lines, string, char and raw
//!   string literals, numbers, identifiers, punctuation. Its module doc holds
//!   the one policy for text that never ends (an unterminated `/*` or raw
//!   string).
//! - [`definitions`]: cuts a file into its top-level definitions, named, with
//!   the exact text of each; the drift check compares starters with lessons
//!   through it.
//! - [`constants`]: finds `constexpr` numbers and the function a snippet
//!   defines, for the tolerance rule.
//!
//! The emulator's launch rewriter (`emulate/rewrite.rs`) reads its tokens
//! from [`lexer::Lexed::code_tokens`].
//!
//! # Why hand-written
//!
//! It must accept everything nvcc accepts, including code no grammar of ours
//! would know: a reader that fails on an unfamiliar construct would refuse
//! lessons that compile fine. Macro bodies are read textually, as the tokens
//! they are written with, which is what the drift check compares and where
//! the rewriter finds a launch written inside a `#define`. What the users
//! need is token boundaries and exact spans (comments included, since the
//! drift check compares them byte for byte), not a syntax tree; a small
//! lexer gives exactly that, builds offline, and needs no C toolchain (a
//! parser such as tree-sitter would bring one into the build).
//!
//! # What it is not
//!
//! Not a C++ parser. It does not expand macros, does not evaluate `#if`
//! (the constant lookup only sets aside `#if 0` blocks and refuses a
//! constant declared in two branches; see [`constants`]), and knows no
//! types: it never decides what an identifier means beyond the few keywords
//! the definition scanner names definitions by.

pub(crate) mod constants;
pub(crate) mod definitions;
pub(crate) mod lexer;

#[cfg(test)]
mod tests {
    //! The users follow the one policy for text that never ends.

    use std::path::Path;

    use super::definitions::scan;
    use super::lexer::{TokenKind, lex};

    const OPEN_COMMENT: &str = "int a;\n/* open\nk<<<1, 1>>>();\n";

    #[test]
    fn an_unterminated_block_comment_runs_to_the_end_for_every_user() {
        // The lexer: one comment to the end, and the error at its start.
        let lexed = lex(OPEN_COMMENT.as_bytes());
        let last = lexed.tokens().last().unwrap();
        assert_eq!(
            (last.kind, last.span.end),
            (TokenKind::BlockComment, OPEN_COMMENT.len())
        );
        assert_eq!(lexed.error().map(|e| (e.line, e.column)), Some((2, 1)));

        // The definition scanner (the drift check and the tolerance rule)
        // refuses the file at that line, with the lexer's message.
        let err = scan("t.cu", OPEN_COMMENT).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.cu:2: this `/*` comment is never closed; close it with `*/`"
        );

        // The rewriter reads the same comment: it rewrites no launch inside
        // it and copies it through for g++ to report.
        let rewritten = crate::emulate::rewrite::rewrite(Path::new("t.cu"), OPEN_COMMENT).unwrap();
        assert_eq!(rewritten.launches, 0);
        assert!(rewritten.cpp.ends_with(OPEN_COMMENT));
    }

    #[test]
    fn an_unterminated_raw_string_runs_to_the_end_for_every_user() {
        let src = "int a;\nauto s = R\"d(k<<<1, 1>>>();\n";
        let err = scan("t.cu", src).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.cu:2: this raw string is never closed"),
            "{err}"
        );
        let rewritten = crate::emulate::rewrite::rewrite(Path::new("t.cu"), src).unwrap();
        assert_eq!(rewritten.launches, 0);
        assert!(rewritten.cpp.ends_with(src));
    }
}
