//! A lexer for C++/CUDA source that knows just enough to tell code from
//! comments, strings and preprocessor lines.
//!
//! It exists so that [`super::definitions`] can find where each top-level
//! definition begins and ends without being fooled by a `{` in a string, a `}`
//! in a comment, a `"` in a char literal or a raw string full of both. It is
//! hand-written, not a grammar: the drift check needs token boundaries and
//! exact byte spans (comments included), not a syntax tree, and a small lexer
//! builds offline with no C toolchain. It is not a C++ parser: it does not
//! expand macros, evaluate `#if`, or know what any identifier means.
//!
//! What it recognises, every token carrying its exact byte span:
//! - `//` comments (a trailing backslash continues them onto the next line,
//!   as the compiler does) and `/* */` comments;
//! - preprocessor lines: a `#` that is the first thing on its line, up to the
//!   end of the line, with backslash continuations, and with any comments and
//!   literals on it kept inside the one token;
//! - string literals, char literals, raw strings `R"delim( ... )delim"` with
//!   any encoding prefix, and numbers with digit separators (`1'000`);
//! - identifiers, and every other character as a one-byte punctuation token
//!   (so `::` is two `:` tokens and `>>` two `>` tokens).
//!
//! A string or char literal that reaches the end of its line unclosed ends
//! there (the compiler would reject it; the drift check need not). A block
//! comment or raw string that is never closed is an error, since everything
//! after it would be misread.

use std::ops::Range;

/// What kind of text a [`Token`] covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// Spaces, tabs and newlines.
    Whitespace,
    /// `// ...` up to (not including) the end of its line.
    LineComment,
    /// `/* ... */`.
    BlockComment,
    /// A whole preprocessor line, continuations included.
    Directive,
    /// A string literal or raw string, prefix included.
    Str,
    /// A char literal.
    Char,
    Ident,
    Number,
    /// Any other single byte.
    Punct,
}

/// One token: its kind and the bytes of the source it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Range<usize>,
}

impl Token {
    /// Whether this token is code (not whitespace or a comment).
    pub fn is_code(&self) -> bool {
        !matches!(
            self.kind,
            TokenKind::Whitespace | TokenKind::LineComment | TokenKind::BlockComment
        )
    }
}

/// Something the lexer cannot get past, at a byte offset of the source.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LexProblem {
    pub at: usize,
    pub message: String,
}

/// Splits `src` into tokens that cover it entirely, in order.
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, LexProblem> {
    let b = src.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    // True while nothing but whitespace has been seen since the last newline:
    // a `#` there starts a preprocessor line.
    let mut at_line_start = true;
    while i < b.len() {
        let start = i;
        let c = b[i];
        let next = b.get(i + 1).copied();
        let kind = if is_space(c) {
            while i < b.len() && is_space(b[i]) {
                if b[i] == b'\n' {
                    at_line_start = true;
                }
                i += 1;
            }
            tokens.push(Token {
                kind: TokenKind::Whitespace,
                span: start..i,
            });
            continue;
        } else if c == b'/' && next == Some(b'/') {
            i = line_comment_end(b, i);
            TokenKind::LineComment
        } else if c == b'/' && next == Some(b'*') {
            i = block_comment_end(b, i)?;
            TokenKind::BlockComment
        } else if c == b'#' && at_line_start {
            i = directive_end(b, i)?;
            TokenKind::Directive
        } else if c == b'"' {
            i = quoted_end(b, i, b'"');
            TokenKind::Str
        } else if c == b'\'' {
            i = quoted_end(b, i, b'\'');
            TokenKind::Char
        } else if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
            i = number_end(b, i);
            TokenKind::Number
        } else if is_ident_start(c) {
            while i < b.len() && is_ident_continue(b[i]) {
                i += 1;
            }
            if is_raw_string_prefix(&src[start..i]) && b.get(i) == Some(&b'"') {
                if let Some(end) = raw_string_end(b, start, i)? {
                    i = end;
                    TokenKind::Str
                } else {
                    TokenKind::Ident
                }
            } else {
                TokenKind::Ident
            }
        } else {
            i += 1;
            TokenKind::Punct
        };
        at_line_start = false;
        tokens.push(Token {
            kind,
            span: start..i,
        });
    }
    Ok(tokens)
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Bytes of a non-ASCII character count as identifier bytes, so a token
/// boundary never falls inside a UTF-8 sequence.
fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

fn is_raw_string_prefix(ident: &str) -> bool {
    matches!(ident, "R" | "LR" | "uR" | "UR" | "u8R")
}

/// End of a `//` comment that starts at `i`: the newline that ends it (not
/// included), skipping newlines escaped by a trailing backslash.
fn line_comment_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j < b.len() {
        if b[j] == b'\n' {
            let before = if j > 0 && b[j - 1] == b'\r' { j - 1 } else { j };
            if before > i + 2 && b[before - 1] == b'\\' {
                j += 1;
                continue;
            }
            return j;
        }
        j += 1;
    }
    b.len()
}

fn block_comment_end(b: &[u8], i: usize) -> Result<usize, LexProblem> {
    let mut j = i + 2;
    while j + 1 < b.len() {
        if b[j] == b'*' && b[j + 1] == b'/' {
            return Ok(j + 2);
        }
        j += 1;
    }
    Err(LexProblem {
        at: i,
        message: "this `/*` comment is never closed; close it with `*/`".to_string(),
    })
}

/// End of a string or char literal opened by `quote` at `i`: just past the
/// closing quote, or at the end of the line when there is none.
fn quoted_end(b: &[u8], i: usize, quote: u8) -> usize {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// A pp-number: digits, letters, `_`, `.`, digit separators and exponent signs.
fn number_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() {
        let c = b[j];
        let separator = c == b'\'' && b.get(j + 1).is_some_and(|n| n.is_ascii_alphanumeric());
        let sign = (c == b'+' || c == b'-') && matches!(b[j - 1], b'e' | b'E' | b'p' | b'P');
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || separator || sign {
            j += 1;
        } else {
            break;
        }
    }
    j
}

/// A raw string whose prefix starts at `start` and whose `"` is at `quote`.
/// `Ok(None)` when what follows the quote is not a valid delimiter (then it
/// is not a raw string after all).
fn raw_string_end(b: &[u8], start: usize, quote: usize) -> Result<Option<usize>, LexProblem> {
    let mut j = quote + 1;
    while j < b.len() && b[j] != b'(' {
        if matches!(b[j], b' ' | b')' | b'\\' | b'\t' | b'\n' | b'"') || j - quote > 16 {
            return Ok(None);
        }
        j += 1;
    }
    if j >= b.len() {
        return Ok(None);
    }
    let delimiter = &b[quote + 1..j];
    let mut k = j + 1;
    while k < b.len() {
        if b[k] == b')'
            && b[k + 1..].starts_with(delimiter)
            && b.get(k + 1 + delimiter.len()) == Some(&b'"')
        {
            return Ok(Some(k + delimiter.len() + 2));
        }
        k += 1;
    }
    Err(LexProblem {
        at: start,
        message: format!(
            "this raw string is never closed; it needs `){}\"`",
            String::from_utf8_lossy(delimiter)
        ),
    })
}

/// End of a preprocessor line starting at `i`: its unescaped newline (not
/// included). Comments and literals on the line stay inside it; a block
/// comment may carry it over several lines.
fn directive_end(b: &[u8], i: usize) -> Result<usize, LexProblem> {
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' if b.get(j + 1) == Some(&b'\n') => j += 2,
            b'\\' if b.get(j + 1) == Some(&b'\r') && b.get(j + 2) == Some(&b'\n') => j += 3,
            b'\n' => return Ok(j),
            b'/' if b.get(j + 1) == Some(&b'/') => return Ok(line_comment_end(b, j)),
            b'/' if b.get(j + 1) == Some(&b'*') => j = block_comment_end(b, j)?,
            b'"' => j = quoted_end(b, j, b'"'),
            _ => j += 1,
        }
    }
    Ok(b.len())
}

/// Line numbers of byte offsets.
pub(crate) struct LineIndex {
    /// Byte offset where each line starts; `starts[0] == 0`.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            src.bytes()
                .enumerate()
                .filter(|&(_, c)| c == b'\n')
                .map(|(i, _)| i + 1),
        );
        // A final newline does not open another line.
        if starts.len() > 1 && *starts.last().unwrap() == src.len() {
            starts.pop();
        }
        LineIndex {
            starts,
            len: src.len(),
        }
    }

    /// The 1-based line that holds byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1)
    }

    /// Byte offset where 1-based `line` starts (the end of the text past the last line).
    pub fn start_of(&self, line: usize) -> usize {
        self.starts.get(line - 1).copied().unwrap_or(self.len)
    }

    pub fn count(&self) -> usize {
        self.starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        tokenize(src)
            .unwrap()
            .into_iter()
            .filter(|t| t.kind != TokenKind::Whitespace)
            .map(|t| (t.kind, &src[t.span]))
            .collect()
    }

    #[test]
    fn tokens_cover_the_source() {
        let src = "int a = 1; // x\n/* y */ \"s\" 'c' R\"(r)\" #z\n#define Q 1\n";
        let tokens = tokenize(src).unwrap();
        let mut at = 0;
        for t in &tokens {
            assert_eq!(t.span.start, at);
            at = t.span.end;
        }
        assert_eq!(at, src.len());
    }

    #[test]
    fn braces_in_literals_and_comments_are_not_punctuation() {
        let src = r#"f("{", '}', '\'', "\"}") /* { */ // }"#;
        let puncts: Vec<&str> = kinds(src)
            .into_iter()
            .filter(|(k, _)| *k == TokenKind::Punct)
            .map(|(_, s)| s)
            .collect();
        assert_eq!(puncts, ["(", ",", ",", ",", ")"]);
    }

    #[test]
    fn raw_strings_with_and_without_delimiters() {
        let src = "auto a = R\"x(})\" { )x\"; auto b = u8R\"(\")\"; c";
        let toks = kinds(src);
        assert!(toks.contains(&(TokenKind::Str, "R\"x(})\" { )x\"")));
        assert!(toks.contains(&(TokenKind::Str, "u8R\"(\")\"")));
        assert_eq!(toks.last(), Some(&(TokenKind::Ident, "c")));
    }

    #[test]
    fn an_unclosed_raw_string_or_block_comment_is_an_error() {
        let err = tokenize("int a;\nauto s = R\"d(never").unwrap_err();
        assert_eq!(err.at, 16);
        assert!(err.message.contains(")d\""), "{}", err.message);
        assert!(tokenize("/* open").is_err());
    }

    #[test]
    fn directives_run_to_the_end_of_the_line_with_continuations() {
        let src = "#define A(x) \\\n  ((x) + 1) // }\nint b;\n  # pragma once\nc # d";
        let toks = kinds(src);
        assert_eq!(
            toks[0],
            (TokenKind::Directive, "#define A(x) \\\n  ((x) + 1) // }")
        );
        assert_eq!(toks[4], (TokenKind::Directive, "# pragma once"));
        // A `#` after code on the same line is punctuation.
        assert!(toks.contains(&(TokenKind::Punct, "#")));
    }

    #[test]
    fn a_line_comment_ending_in_backslash_continues() {
        let toks = kinds("// a \\\n still comment\nx");
        assert_eq!(toks[0], (TokenKind::LineComment, "// a \\\n still comment"));
        assert_eq!(toks[1], (TokenKind::Ident, "x"));
    }

    #[test]
    fn digit_separators_are_not_char_literals() {
        let toks = kinds("int n = 1'000'000; char c = '{';");
        assert!(toks.contains(&(TokenKind::Number, "1'000'000")));
        assert!(toks.contains(&(TokenKind::Char, "'{'")));
    }

    #[test]
    fn line_numbers() {
        let idx = LineIndex::new("a\nbc\n\nd\n");
        assert_eq!(idx.count(), 4);
        assert_eq!(idx.line_of(0), 1);
        assert_eq!(idx.line_of(2), 2);
        assert_eq!(idx.line_of(5), 3);
        assert_eq!(idx.line_of(6), 4);
        assert_eq!(idx.start_of(4), 6);
        assert_eq!(idx.start_of(5), 8);
    }
}
