//! The one lexer for C++/CUDA source: it cuts any byte sequence into tokens
//! with exact byte spans, and tells code from comments, literals and
//! preprocessor lines. The drift check's definition scanner, the tolerance
//! rule's constant lookup and the emulator's launch rewriter all read source
//! through it, so they agree on where every comment, string and directive
//! begins and ends.
//!
//! What it recognises, every token carrying its exact byte span:
//! - whitespace, line splices (a backslash ending its line, blanks between
//!   them allowed as g++ allows them) included, and a UTF-8 byte-order mark
//!   at the start of the file;
//! - `//` comments (a splice continues them onto the next line, as in the
//!   compiler) and `/* */` comments;
//! - preprocessor lines: a `#` with nothing but whitespace and comments
//!   before it on its line, up to the next newline that is not spliced, as
//!   one [`TokenKind::Directive`] token; a block comment or raw string on the
//!   line carries it over several lines, as in the compiler.
//!   [`Lexed::code_tokens`] opens directives up into their own tokens;
//! - string literals and raw strings `R"delim( ... )delim"`, and char
//!   literals, with their encoding prefix (`u8`, `u`, `U`, `L`) in the token
//!   (a user-defined literal's suffix is the identifier after it);
//! - numbers with digit separators (`1'000`) and signed exponents (`1e-5`);
//! - identifiers (a byte of a non-ASCII character counts as an identifier
//!   byte, so no token boundary falls inside a UTF-8 sequence), and every
//!   other byte as a one-byte punctuation token (`::` is two `:` tokens,
//!   `>>` two `>` tokens).
//!
//! # The policy for text that does not end
//!
//! The lexer never fails and never panics, on any bytes: its tokens always
//! cover the input in order.
//!
//! - A string or char literal with no closing quote ends at the end of its
//!   line (not included). That is where the compiler stops it too, and it is
//!   legal inside `#if 0`, `#error` or `#warning`, so it is no error here.
//! - A raw string prefix whose delimiter is not valid (over 16 characters, or
//!   holding a space, `(`, `)`, `\`, `"`, a control or a non-ASCII byte) is
//!   read as an ordinary string literal.
//! - A `/*` with no `*/`, and a raw string with no closing `)delim"`, run to
//!   the end of the input, since that is what the compiler reads, and the
//!   lexer records a [`LexError`] with the line and column where they start.
//!   There is at most one: the token runs to the end. Each user decides what
//!   it means and follows the same token extents: the definition scanner
//!   (so the drift check and the tolerance rule) refuses the file, since it
//!   cannot tell what lies after; the launch rewriter rewrites nothing inside
//!   the unterminated token, copies it through and leaves the error to g++,
//!   which names the same line through the rewritten file's `#line`.
//!
//! It works on `&[u8]`: every decision is made on ASCII bytes, so non-UTF-8
//! text inside comments and literals passes through untouched.

use std::fmt;
use std::ops::Range;

/// What kind of text a [`Token`] covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// Spaces, tabs, newlines and line splices.
    Whitespace,
    /// `// ...` up to (not including) the end of its line.
    LineComment,
    /// `/* ... */`.
    BlockComment,
    /// A whole preprocessor line, continuations included.
    Directive,
    /// A string literal or raw string, prefix included.
    Str,
    /// A char literal, prefix included.
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
    pub(crate) fn is_code(&self) -> bool {
        !matches!(
            self.kind,
            TokenKind::Whitespace | TokenKind::LineComment | TokenKind::BlockComment
        )
    }
}

/// A code token with its place, as [`Lexed::code_tokens`] lists them:
/// whitespace and comments dropped, preprocessor lines opened up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CodeToken {
    /// Never whitespace, a comment or a directive.
    pub kind: TokenKind,
    /// Byte offsets into the source.
    pub start: usize,
    pub end: usize,
    /// 1-based line and column (in characters) of the first byte.
    pub line: u32,
    pub column: u32,
    /// Set for tokens on a preprocessor line (its `#` included): the index,
    /// in the same list, of the line's `#` token.
    pub directive: Option<usize>,
}

/// What never ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unterminated {
    /// A `/*` with no `*/`.
    BlockComment,
    /// A raw string with no closing `)delim"`.
    RawString,
}

/// A comment or raw string that runs to the end of the input (see the
/// module's policy), where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LexError {
    pub what: Unterminated,
    /// Byte offset of the `/*` or of the raw string's prefix.
    pub at: usize,
    /// 1-based line and column (in characters) of `at`.
    pub line: usize,
    pub column: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// A source cut into tokens.
pub(crate) struct Lexed<'a> {
    src: &'a [u8],
    tokens: Vec<Token>,
    error: Option<LexError>,
    lines: LineIndex<'a>,
}

/// The UTF-8 byte-order mark, which some editors write at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Cuts `src` into tokens that cover it entirely, in order. Never fails; an
/// unterminated comment or raw string is in [`Lexed::error`].
pub(crate) fn lex(src: &[u8]) -> Lexed<'_> {
    let lines = LineIndex::new(src);
    let mut tokens = Vec::new();
    let mut unterminated = None;
    let mut i = 0;
    // True while only whitespace and comments have been seen since the last
    // newline that is not spliced: a `#` there starts a preprocessor line.
    let mut at_line_start = true;
    // A UTF-8 byte-order mark opening the file is whitespace, as g++ reads
    // it: it neither glues onto the first token nor hides a `#` after it.
    if src.starts_with(BOM) {
        tokens.push(Token {
            kind: TokenKind::Whitespace,
            span: 0..BOM.len(),
        });
        i = BOM.len();
    }
    while i < src.len() {
        if src[i] == b'#' && at_line_start {
            let (end, problem) = directive(src, i, &mut |_| {});
            unterminated = unterminated.or(problem);
            tokens.push(Token {
                kind: TokenKind::Directive,
                span: i..end,
            });
            at_line_start = false;
            i = end;
            continue;
        }
        let scanned = scan(src, i, false);
        match scanned.kind {
            TokenKind::Whitespace => at_line_start |= scanned.newline,
            TokenKind::LineComment | TokenKind::BlockComment => {}
            _ => at_line_start = false,
        }
        unterminated = unterminated.or(scanned.unterminated.map(|what| (what, i)));
        tokens.push(Token {
            kind: scanned.kind,
            span: i..scanned.end,
        });
        i = scanned.end;
    }
    let error = unterminated.map(|(what, at)| lex_error(src, &lines, what, at));
    Lexed {
        src,
        tokens,
        error,
        lines,
    }
}

/// The tokens of `src`, or the error when a comment or raw string in it is
/// never closed: for readers that cannot go past one.
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, LexError> {
    let lexed = lex(src.as_bytes());
    match lexed.error {
        Some(error) => Err(error),
        None => Ok(lexed.tokens),
    }
}

impl<'a> Lexed<'a> {
    pub(crate) fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The unterminated comment or raw string, if the source has one.
    pub(crate) fn error(&self) -> Option<&LexError> {
        self.error.as_ref()
    }

    /// The code tokens in order, each with its line and column: whitespace
    /// and comments dropped, and each preprocessor line opened up into its
    /// `#` and the tokens after it, marked with the index of that `#`.
    pub(crate) fn code_tokens(&self) -> Vec<CodeToken> {
        let mut out: Vec<CodeToken> = Vec::new();
        let mut cursor = Cursor::new(&self.lines);
        let mut push = |out: &mut Vec<CodeToken>, kind, span: Range<usize>, directive| {
            let (line, column) = cursor.position(span.start);
            out.push(CodeToken {
                kind,
                start: span.start,
                end: span.end,
                line: line as u32,
                column: column as u32,
                directive,
            });
        };
        for token in &self.tokens {
            match token.kind {
                TokenKind::Directive => {
                    let hash = out.len();
                    push(&mut out, TokenKind::Punct, hash_span(token), Some(hash));
                    let mut inner = Vec::new();
                    directive(self.src, token.span.start, &mut |t| inner.push(t));
                    for t in inner.into_iter().filter(Token::is_code) {
                        push(&mut out, t.kind, t.span, Some(hash));
                    }
                }
                _ if token.is_code() => push(&mut out, token.kind, token.span.clone(), None),
                _ => {}
            }
        }
        out
    }
}

fn hash_span(directive: &Token) -> Range<usize> {
    directive.span.start..directive.span.start + 1
}

fn lex_error(src: &[u8], lines: &LineIndex, what: Unterminated, at: usize) -> LexError {
    let message = match what {
        Unterminated::BlockComment => {
            "this `/*` comment is never closed; close it with `*/`".to_string()
        }
        Unterminated::RawString => {
            let delimiter = raw_delimiter(src, at).unwrap_or_default();
            format!(
                "this raw string is never closed; it needs `){}\"`",
                String::from_utf8_lossy(delimiter)
            )
        }
    };
    let (line, column) = lines.position(at);
    LexError {
        what,
        at,
        line,
        column,
        message,
    }
}

/// The delimiter of the raw string whose prefix starts at `at`.
fn raw_delimiter(src: &[u8], at: usize) -> Option<&[u8]> {
    let quote = at + src[at..].iter().position(|&c| c == b'"')?;
    let paren = quote + src[quote..].iter().position(|&c| c == b'(')?;
    Some(&src[quote + 1..paren])
}

/// What [`scan`] found at one position.
struct Scanned {
    kind: TokenKind,
    end: usize,
    /// For whitespace: it holds a newline that is not spliced.
    newline: bool,
    unterminated: Option<Unterminated>,
}

/// The token that starts at `i`. On a preprocessor line (`in_directive`),
/// whitespace stops before a newline that is not spliced, which ends the
/// line; everything else is read the same way everywhere.
fn scan(b: &[u8], i: usize, in_directive: bool) -> Scanned {
    let c = b[i];
    let next = b.get(i + 1).copied();
    let token = |kind, end| Scanned {
        kind,
        end,
        newline: false,
        unterminated: None,
    };
    if is_space(c) || (c == b'\\' && splice_end(b, i).is_some()) {
        let (end, newline) = whitespace_end(b, i, in_directive);
        return Scanned {
            kind: TokenKind::Whitespace,
            end,
            newline,
            unterminated: None,
        };
    }
    if c == b'/' && next == Some(b'/') {
        return token(TokenKind::LineComment, line_comment_end(b, i));
    }
    if c == b'/' && next == Some(b'*') {
        return match find(b, i + 2, b"*/") {
            Some(at) => token(TokenKind::BlockComment, at + 2),
            None => Scanned {
                unterminated: Some(Unterminated::BlockComment),
                ..token(TokenKind::BlockComment, b.len())
            },
        };
    }
    if c == b'"' {
        return token(TokenKind::Str, quoted_end(b, i, b'"'));
    }
    if c == b'\'' {
        return token(TokenKind::Char, quoted_end(b, i, b'\''));
    }
    if c.is_ascii_digit() || (c == b'.' && next.is_some_and(|n| n.is_ascii_digit())) {
        return token(TokenKind::Number, number_end(b, i));
    }
    if is_ident_start(c) {
        let mut end = i + 1;
        while end < b.len() && is_ident_continue(b[end]) {
            end += 1;
        }
        let word = &b[i..end];
        return match b.get(end) {
            Some(b'"') if matches!(word, b"R" | b"LR" | b"uR" | b"UR" | b"u8R") => {
                match raw_string_end(b, end) {
                    Some(Some(close)) => token(TokenKind::Str, close),
                    Some(None) => Scanned {
                        unterminated: Some(Unterminated::RawString),
                        ..token(TokenKind::Str, b.len())
                    },
                    None => token(TokenKind::Str, quoted_end(b, end, b'"')),
                }
            }
            Some(b'"') if matches!(word, b"u8" | b"u" | b"U" | b"L") => {
                token(TokenKind::Str, quoted_end(b, end, b'"'))
            }
            Some(b'\'') if matches!(word, b"u8" | b"u" | b"U" | b"L") => {
                token(TokenKind::Char, quoted_end(b, end, b'\''))
            }
            _ => token(TokenKind::Ident, end),
        };
    }
    token(TokenKind::Punct, i + 1)
}

/// Reads the preprocessor line whose `#` is at `hash`, handing each of its
/// tokens after the `#` to `each`; returns where it ends (its newline, not
/// included) and what in it never ends, with where that starts.
fn directive(
    b: &[u8],
    hash: usize,
    each: &mut dyn FnMut(Token),
) -> (usize, Option<(Unterminated, usize)>) {
    let mut unterminated = None;
    let mut j = hash + 1;
    while j < b.len() && b[j] != b'\n' {
        let scanned = scan(b, j, true);
        unterminated = unterminated.or(scanned.unterminated.map(|what| (what, j)));
        each(Token {
            kind: scanned.kind,
            span: j..scanned.end,
        });
        j = scanned.end;
    }
    (j, unterminated)
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Bytes of a non-ASCII character count as identifier bytes, so a token
/// boundary never falls inside a UTF-8 sequence.
pub(crate) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

pub(crate) fn is_ident_continue(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// If `b[at]` is a backslash that ends its line (trailing blanks allowed,
/// as g++ allows them), the offset just past the newline.
fn splice_end(b: &[u8], at: usize) -> Option<usize> {
    let mut end = at + 1;
    while end < b.len() && matches!(b[end], b' ' | b'\t' | b'\r') {
        end += 1;
    }
    (end < b.len() && b[end] == b'\n').then_some(end + 1)
}

/// End of the whitespace and splices from `i`, and whether they hold a
/// newline that is not spliced. On a preprocessor line such a newline ends
/// the line, so it stops the whitespace.
fn whitespace_end(b: &[u8], i: usize, in_directive: bool) -> (usize, bool) {
    let mut j = i;
    let mut newline = false;
    while j < b.len() {
        match b[j] {
            b'\n' if in_directive => break,
            b'\n' => {
                newline = true;
                j += 1;
            }
            c if is_space(c) => j += 1,
            b'\\' => match splice_end(b, j) {
                Some(end) => j = end,
                None => break,
            },
            _ => break,
        }
    }
    (j, newline)
}

/// End of a `//` comment that starts at `i`: the newline that ends it (not
/// included), going on past spliced newlines.
fn line_comment_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j < b.len() && b[j] != b'\n' {
        match (b[j], splice_end(b, j)) {
            (b'\\', Some(end)) => j = end,
            _ => j += 1,
        }
    }
    j
}

/// End of a string or char literal opened by `quote` at `open`: just past
/// the closing quote, or at the end of the line when there is none.
fn quoted_end(b: &[u8], open: usize, quote: u8) -> usize {
    let mut j = open + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j = splice_end(b, j).unwrap_or(j + 2),
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
        let separator = c == b'\''
            && b.get(j + 1)
                .is_some_and(|&n| n.is_ascii_alphanumeric() || n == b'_');
        let sign = (c == b'+' || c == b'-') && matches!(b[j - 1], b'e' | b'E' | b'p' | b'P');
        if separator {
            j += 2;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || sign {
            j += 1;
        } else {
            break;
        }
    }
    j
}

/// A raw string whose opening `"` is at `quote`: `Some(Some(end))` just past
/// its closing `)delim"`, `Some(None)` when it is never closed, `None` when
/// what follows the quote is no valid delimiter and `(` (then it is read as
/// an ordinary string).
fn raw_string_end(b: &[u8], quote: usize) -> Option<Option<usize>> {
    let mut j = quote + 1;
    while j < b.len() && b[j] != b'(' {
        let valid = b[j].is_ascii_graphic() && !matches!(b[j], b')' | b'\\' | b'"');
        if !valid || j - quote > 16 {
            return None;
        }
        j += 1;
    }
    if j >= b.len() {
        return None;
    }
    let mut closing = Vec::with_capacity(j - quote + 1);
    closing.push(b')');
    closing.extend_from_slice(&b[quote + 1..j]);
    closing.push(b'"');
    Some(find(b, j + 1, &closing).map(|at| at + closing.len()))
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|at| from + at)
}

/// Line numbers and columns of byte offsets.
pub(crate) struct LineIndex<'a> {
    src: &'a [u8],
    /// Byte offset where each line starts; `starts[0] == 0`.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(src: &'a [u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            src.iter()
                .enumerate()
                .filter(|&(_, &c)| c == b'\n')
                .map(|(i, _)| i + 1),
        );
        // A final newline does not open another line.
        if starts.len() > 1 && *starts.last().unwrap() == src.len() {
            starts.pop();
        }
        LineIndex { src, starts }
    }

    /// The 1-based line that holds byte `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).max(1)
    }

    /// Byte offset where 1-based `line` starts (the end of the text past the last line).
    pub(crate) fn start_of(&self, line: usize) -> usize {
        self.starts.get(line - 1).copied().unwrap_or(self.src.len())
    }

    pub(crate) fn count(&self) -> usize {
        self.starts.len()
    }

    /// The 1-based line and column of byte `offset`. The column counts
    /// characters: every byte but a UTF-8 continuation byte starts one, so
    /// it is defined on any bytes. A byte-order mark opening the file takes
    /// no column, as in g++'s messages.
    pub(crate) fn position(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let mut start = self.start_of(line).min(offset);
        if start == 0 && offset >= BOM.len() && self.src.starts_with(BOM) {
            start = BOM.len();
        }
        let end = offset.min(self.src.len());
        let column = self.src[start..end]
            .iter()
            .filter(|&&c| (c & 0xc0) != 0x80)
            .count();
        (line, column + 1)
    }
}

/// [`LineIndex::position`] for offsets asked in increasing order (the
/// tokens of a file): the column is counted on from the last offset of the
/// same line instead of from the line's start, so a long line costs its
/// length once, not once per token. An offset before the last one is
/// answered by [`LineIndex::position`] itself.
struct Cursor<'i, 'a> {
    lines: &'i LineIndex<'a>,
    /// The last offset asked, its line (0 before the first) and its column.
    offset: usize,
    line: usize,
    column: usize,
}

impl<'i, 'a> Cursor<'i, 'a> {
    fn new(lines: &'i LineIndex<'a>) -> Self {
        Cursor {
            lines,
            offset: 0,
            line: 0,
            column: 0,
        }
    }

    fn position(&mut self, offset: usize) -> (usize, usize) {
        if offset < self.offset {
            return self.lines.position(offset);
        }
        let line = self.lines.line_of(offset);
        // Inside a byte-order mark columns do not count on (it takes none).
        let in_mark = line == 1 && self.offset < BOM.len();
        if line == self.line && !in_mark {
            let end = offset.min(self.lines.src.len());
            let from = self.offset.min(end);
            self.column += self.lines.src[from..end]
                .iter()
                .filter(|&&c| (c & 0xc0) != 0x80)
                .count();
        } else {
            let (found, column) = self.lines.position(offset);
            self.line = found;
            self.column = column;
        }
        self.offset = offset;
        (self.line, self.column)
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

    /// Code tokens as (text, line, column, on a directive line).
    fn code(src: &str) -> Vec<(&str, u32, u32, bool)> {
        lex(src.as_bytes())
            .code_tokens()
            .into_iter()
            .map(|t| {
                (
                    &src[t.start..t.end],
                    t.line,
                    t.column,
                    t.directive.is_some(),
                )
            })
            .collect()
    }

    fn covers(src: &[u8]) {
        let lexed = lex(src);
        let mut at = 0;
        for t in lexed.tokens() {
            assert_eq!(t.span.start, at);
            assert!(t.span.end > t.span.start);
            at = t.span.end;
        }
        assert_eq!(at, src.len());
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
    fn a_raw_string_may_hold_a_comment_end_and_quotes() {
        let src = "const char* s = R\"(a */ \" b)\"; /* c */ int d;";
        let toks = kinds(src);
        assert!(toks.contains(&(TokenKind::Str, "R\"(a */ \" b)\"")));
        assert!(toks.contains(&(TokenKind::BlockComment, "/* c */")));
        assert_eq!(toks.last(), Some(&(TokenKind::Punct, ";")));
        // And one on a directive line carries it over its newlines.
        let src = "#define S R\"(\n*/ \" \n)\"\nint e;";
        assert_eq!(
            kinds(src)[0],
            (TokenKind::Directive, "#define S R\"(\n*/ \" \n)\"")
        );
    }

    #[test]
    fn an_invalid_raw_string_delimiter_makes_an_ordinary_string() {
        let toks = kinds("auto s = R\"a b(x)a b\";\nint c;");
        assert!(toks.contains(&(TokenKind::Str, "R\"a b(x)a b\"")));
        assert_eq!(kinds("R\"abc")[0], (TokenKind::Str, "R\"abc"));
    }

    #[test]
    fn an_unclosed_raw_string_or_block_comment_is_an_error() {
        let err = tokenize("int a;\nauto s = R\"d(never").unwrap_err();
        assert_eq!(err.at, 16);
        assert!(err.message.contains(")d\""), "{}", err.message);
        assert!(tokenize("/* open").is_err());
    }

    #[test]
    fn unterminated_text_runs_to_the_end_and_is_reported_with_line_and_column() {
        // The policy: the token runs to the end of the input, for every user,
        // and the error says where it starts.
        let src = "int a;\n  /* open\nk<<<1, 1>>>();\n";
        let lexed = lex(src.as_bytes());
        let last = lexed.tokens().last().unwrap();
        assert_eq!(last.kind, TokenKind::BlockComment);
        assert_eq!(last.span, 9..src.len());
        let error = lexed.error().unwrap();
        assert_eq!(
            (error.what, error.line, error.column),
            (Unterminated::BlockComment, 2, 3)
        );
        assert_eq!(
            error.to_string(),
            "2:3: this `/*` comment is never closed; close it with `*/`"
        );
        // No code token is read inside it.
        assert_eq!(code(src).len(), 3);

        let lexed = lex(b"#define X /* open\nint a;");
        assert_eq!(lexed.tokens().len(), 1);
        assert_eq!(lexed.error().unwrap().what, Unterminated::BlockComment);

        let lexed = lex("// é\nauto s = u8R\"x(\n".as_bytes());
        let error = lexed.error().unwrap();
        assert_eq!(
            (error.what, error.line, error.column),
            (Unterminated::RawString, 2, 10)
        );
        assert_eq!(lexed.tokens().last().unwrap().kind, TokenKind::Str);
    }

    #[test]
    fn an_unclosed_string_or_char_ends_at_its_line_without_error() {
        let lexed = lex(b"#error don't\nchar c = '\nint a;");
        assert!(lexed.error().is_none());
        let toks = kinds("#error don't\nchar c = '\nint a;");
        assert_eq!(toks[0], (TokenKind::Directive, "#error don't"));
        assert!(toks.contains(&(TokenKind::Char, "'")));
        assert_eq!(toks.last(), Some(&(TokenKind::Punct, ";")));
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
    fn a_directive_may_follow_a_comment_on_its_line() {
        let toks = kinds("/* c */ #define A 1\n/* d\n */ #undef A\nx /* e */ #y\n");
        assert_eq!(toks[1], (TokenKind::Directive, "#define A 1"));
        assert_eq!(toks[3], (TokenKind::Directive, "#undef A"));
        assert!(toks.contains(&(TokenKind::Punct, "#")));
    }

    #[test]
    fn a_line_comment_ending_in_backslash_continues() {
        let toks = kinds("// a \\\n still comment\nx");
        assert_eq!(toks[0], (TokenKind::LineComment, "// a \\\n still comment"));
        assert_eq!(toks[1], (TokenKind::Ident, "x"));
        // Blanks after the backslash still splice, as in g++.
        let toks = kinds("// a \\  \n still comment\nx");
        assert_eq!(toks[1], (TokenKind::Ident, "x"));
    }

    #[test]
    fn digit_separators_are_not_char_literals() {
        let toks = kinds("int n = 1'000'000; char c = '{'; double e = 1e-5; int h = 0x1'f;");
        assert!(toks.contains(&(TokenKind::Number, "1'000'000")));
        assert!(toks.contains(&(TokenKind::Char, "'{'")));
        assert!(toks.contains(&(TokenKind::Number, "1e-5")));
        assert!(toks.contains(&(TokenKind::Number, "0x1'f")));
    }

    #[test]
    fn encoding_prefixes_belong_to_their_literal() {
        let toks = kinds("auto a = u8\"x\"; auto b = L'y'; auto c = U\"z\"_s; u8 d;");
        assert!(toks.contains(&(TokenKind::Str, "u8\"x\"")));
        assert!(toks.contains(&(TokenKind::Char, "L'y'")));
        assert!(toks.contains(&(TokenKind::Str, "U\"z\"")));
        assert!(toks.contains(&(TokenKind::Ident, "_s")));
        assert!(toks.contains(&(TokenKind::Ident, "u8")));
    }

    #[test]
    fn code_tokens_open_up_directives_and_carry_positions() {
        let src = "#include \"a.h\"\n/* ü */ int x; // c\n  #define K k<<<1, 1>>>() \\\n  + 1\n";
        let tokens = code(src);
        assert_eq!(tokens[0], ("#", 1, 1, true));
        assert_eq!(tokens[1], ("include", 1, 2, true));
        assert_eq!(tokens[2], ("\"a.h\"", 1, 10, true));
        assert_eq!(tokens[3], ("int", 2, 9, false));
        assert_eq!(tokens[6], ("#", 3, 3, true));
        assert_eq!(tokens.last(), Some(&("1", 4, 5, true)));
        let lexed = lex(src.as_bytes());
        let all = lexed.code_tokens();
        assert!(all[6..].iter().all(|t| t.directive == Some(6)));
        assert!(all[..3].iter().all(|t| t.directive == Some(0)));
    }

    #[test]
    fn any_bytes_are_covered_without_panicking() {
        covers(b"int \xff\xfe = 1; // \xc3\n/* \x80 */ \"\xff\" '\xfe' R\"\xff(x)\xff\"\n");
        covers(b"\\");
        covers(b"\"\\");
        covers(b"'\\");
        covers(b"#\\");
        covers(b"R\"");
        covers(b"u8R\"(");
        covers(b"1'");
        covers(b"/");
        covers(b"#define A \\\r\n 1\r\n");
        let bytes: Vec<u8> = (0..=255u8).collect();
        covers(&bytes);
        for cut in 0..bytes.len() {
            covers(&bytes[cut..]);
        }
        let lexed = lex(b"\xff\n\xfe<<<");
        assert_eq!(lexed.code_tokens()[2].column, 2);
    }

    #[test]
    fn positions_counted_on_are_positions_counted_afresh() {
        let sources: [&[u8]; 4] = [
            b"\xef\xbb\xbfint \xc3\xbc = 1; // c\n  #define K k<<<1, 1>>>() \\\n  + 1\nx",
            b"a\n\nbc d\n",
            b"\xff\xfe<<< \x80 x\n",
            b"",
        ];
        for src in sources {
            let lines = LineIndex::new(src);
            let mut cursor = Cursor::new(&lines);
            for offset in (0..=src.len() + 1).chain([3, 1, 2, src.len() + 4]) {
                assert_eq!(
                    cursor.position(offset),
                    lines.position(offset),
                    "offset {offset} of {src:?}"
                );
            }
        }
    }

    #[test]
    fn line_numbers() {
        let idx = LineIndex::new(b"a\nbc\n\nd\n");
        assert_eq!(idx.count(), 4);
        assert_eq!(idx.line_of(0), 1);
        assert_eq!(idx.line_of(2), 2);
        assert_eq!(idx.line_of(5), 3);
        assert_eq!(idx.line_of(6), 4);
        assert_eq!(idx.start_of(4), 6);
        assert_eq!(idx.start_of(5), 8);
        assert_eq!(idx.position(3), (2, 2));
    }

    #[test]
    fn columns_count_characters() {
        let idx = LineIndex::new("é\nüa b".as_bytes());
        assert_eq!(idx.position(0), (1, 1));
        assert_eq!(idx.position(3), (2, 1));
        assert_eq!(idx.position(6), (2, 3));
    }
}
