//! The top-level definitions of a lesson source, each with the exact text
//! the drift check compares, and the parts of the file it must not compare.
//!
//! This is the scanner behind [`crate::drift::compare`]; the tolerance rule
//! names the function a snippet defines with its [`declaration_name`]. It is
//! hand-written on top of [`super::lexer`] rather than a C++ grammar: all it needs is where each
//! top-level definition starts and ends and what it is called, and the rules
//! that decide which comment belongs to which definition are ours, not a
//! grammar's. It does not type-check, expand macros or look inside bodies
//! beyond matching their braces.
//!
//! One file is cut into consecutive pieces, so that every byte outside the
//! header and the exercise region belongs to exactly one compared piece and
//! no edit can fall between two of them:
//!
//! - the header comment: the comment and blank lines before the first line of
//!   code (or the first exercise marker);
//! - top-level definitions, each with its leading comments and blank lines
//!   (everything since the previous piece) and what follows it on its last
//!   line; a run of comment lines right under a definition that is then
//!   followed by a blank line (`// end snippet`) belongs to the definition
//!   above; comments and blank lines just before an exercise marker or the end
//!   of the file belong to the definition above them too;
//! - the exercise markers, and an `(end of file)` piece for comments after the
//!   exercise region when no definition follows it.
//!
//! How a definition is named:
//! - functions and kernels by their name, qualified by their class or
//!   namespace (`ns::f`, `A::f`, `operator==`, `~A`); a same-named macro call
//!   with a body, like `TEST(Suite, Name) { ... }`, by the whole call;
//! - variables and constants by their (first) declarator; types (`struct`,
//!   `class`, `union`, `enum`, `using X =`, `typedef`) by their name;
//!   declarations without a body (`float f(int);`, `struct S;`) are
//!   definitions like any other, named the same way;
//! - `#define NAME` by NAME; `#include <x>` as `#include <x>`, one piece per
//!   line; any other preprocessor line by its own text (`#pragma once`);
//! - a top-level `static_assert` joins the definition just above it (the
//!   constant it checks); one with nothing suitable above it stands alone,
//!   named `static_assert(<its condition>)`;
//! - a namespace or `extern "C"` block contributes two pieces, its opening
//!   line (`namespace a`) and its closing brace (`namespace a (end)`), and
//!   qualifies the definitions inside it;
//! - the second definition with a name already taken gets `#2` (then `#3`).

use std::collections::HashMap;
use std::ops::Range;

use super::lexer::{LineIndex, Token, TokenKind, tokenize};

/// A source file the definition scanner cannot read, at a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct SourceError {
    /// The file as shown to the user, like `starter/testing.cu`.
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// What is wrong and what to do about it.
    pub message: String,
}

/// What a compared piece of source is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DefinitionKind {
    /// A function that is not a kernel (host or `__device__`).
    Function,
    /// A `__global__` function.
    Kernel,
    /// A `const`, `constexpr`, `constinit` or `__constant__` variable.
    Constant,
    /// A variable that is not a constant.
    Variable,
    /// A `#define`.
    Macro,
    /// A `struct`, `class`, `union`, `enum`, `typedef` or `using X =`.
    Type,
    /// A function-like macro call with a body or `;`, like `TEST(S, N) { }`.
    MacroCall,
    /// An `#include` line.
    Include,
    /// Any other preprocessor line.
    Directive,
    /// A `static_assert` with no definition above it to join.
    StaticAssert,
    /// The opening or closing of a namespace or `extern "C"` block.
    Namespace,
    /// `using namespace x;` or `using x::y;`.
    Using,
    /// Comments after the exercise region, at the end of the file.
    Trailer,
    /// Anything the scanner could not name better.
    Other,
}

impl DefinitionKind {
    /// The word for it in a report.
    pub fn describe(self) -> &'static str {
        match self {
            DefinitionKind::Function => "function",
            DefinitionKind::Kernel => "kernel",
            DefinitionKind::Constant => "constant",
            DefinitionKind::Variable => "variable",
            DefinitionKind::Macro => "macro",
            DefinitionKind::Type => "type",
            DefinitionKind::MacroCall => "macro call",
            DefinitionKind::Include => "include",
            DefinitionKind::Directive => "preprocessor line",
            DefinitionKind::StaticAssert => "static_assert",
            DefinitionKind::Namespace => "namespace",
            DefinitionKind::Using => "using",
            DefinitionKind::Trailer => "comments",
            DefinitionKind::Other => "declaration",
        }
    }

    /// Whether a reader of the chapter would call it a definition (a
    /// function, kernel, constant, variable, macro or type), as opposed to an
    /// include, a namespace brace or other plumbing.
    pub fn is_named(self) -> bool {
        matches!(
            self,
            DefinitionKind::Function
                | DefinitionKind::Kernel
                | DefinitionKind::Constant
                | DefinitionKind::Variable
                | DefinitionKind::Macro
                | DefinitionKind::Type
                | DefinitionKind::MacroCall
        )
    }
}

/// Where a definition sits, which decides whether it is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// Outside the exercise region: the starter must mirror it.
    Mirrored,
    /// Inside the exercise region: the solution in a lesson, the placeholder
    /// in a starter.
    Exercise,
    /// The top-level `main`: each file has its own.
    Main,
}

/// One top-level definition and the exact text it is compared by.
#[derive(Clone, Debug)]
pub(crate) struct Definition {
    /// Qualified and, for a repeated name, numbered (`f#2`).
    pub name: String,
    pub kind: DefinitionKind,
    pub place: Place,
    /// The line where its code starts.
    pub line: usize,
    /// The line where its text (leading comments included) starts.
    pub first_line: usize,
    /// Its text, as a byte range of the source.
    pub text: Range<usize>,
}

/// A source cut into definitions.
#[derive(Debug)]
pub(crate) struct ScannedSource {
    /// The lines of `// exercise: begin` and `// exercise: end`.
    pub exercise: Option<(usize, usize)>,
    pub definitions: Vec<Definition>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Begin,
    End,
}

impl Marker {
    fn line_text(self) -> &'static str {
        match self {
            Marker::Begin => "// exercise: begin",
            Marker::End => "// exercise: end",
        }
    }
}

/// What role a top-level piece of code plays.
#[derive(Clone, Debug)]
enum Role {
    Definition,
    /// The opening of a namespace or `extern "C"` block, with its display name.
    Opener(String),
    /// Its closing brace.
    Closer(String),
}

/// A top-level piece of code: its first and last code tokens.
#[derive(Clone, Debug)]
struct Piece {
    first: usize,
    last: usize,
    role: Role,
    /// The qualification of the block it is in, like `a::b::`.
    prefix: String,
}

#[derive(Debug)]
enum Entry {
    Piece {
        piece: Piece,
        name: String,
        kind: DefinitionKind,
        is_main: bool,
    },
    Marker(usize, Marker),
}

/// A namespace or `extern "C"` block being read.
struct Block {
    display: String,
    /// Length of the prefix before this block was entered.
    outer_prefix: usize,
    open_token: usize,
}

/// A definition whose end has not been seen yet.
struct Pending {
    first: usize,
    brace: usize,
    paren: usize,
    /// Its first top-level `{`, which ends its head.
    open_brace: Option<usize>,
    /// The tokens of its `{` still open, innermost last (`brace` of them).
    opens: Vec<usize>,
}

/// Cuts `src` (shown as `file` in errors) into definitions, in six passes:
/// the exercise markers, the header, the top-level pieces of code, their
/// names, the comments and blank lines between them, and each definition's
/// place and number.
pub(crate) fn scan(file: &str, src: &str) -> Result<ScannedSource, SourceError> {
    let lines = LineIndex::new(src.as_bytes());
    let tokens = tokenize(src).map_err(|p| SourceError {
        file: file.to_string(),
        line: p.line,
        message: p.message,
    })?;
    let source = Source {
        file,
        src,
        lines,
        tokens,
    };
    let markers = source.exercise_markers()?;
    let header_end = source.header_end(&markers.at);
    let order = Cutter::new(&source, &markers.at).cut()?;
    let entries = source.name_pieces(order);
    let extents = source.hand_out_gaps(&entries, header_end);
    Ok(ScannedSource {
        exercise: markers
            .region
            .map(|(b, e)| (source.token_line(b), source.token_line(e))),
        definitions: source.place(&entries, extents),
    })
}

/// The source being scanned, with its tokens.
struct Source<'a> {
    file: &'a str,
    src: &'a str,
    lines: LineIndex<'a>,
    tokens: Vec<Token>,
}

/// The exercise markers found in a source.
struct Markers {
    /// By token index.
    at: HashMap<usize, Marker>,
    /// The tokens of `// exercise: begin` and `// exercise: end`.
    region: Option<(usize, usize)>,
}

/// A top-level piece of code or an exercise marker, in source order.
enum Item {
    Piece(Piece),
    Marker(usize, Marker),
}

/// Where each entry's text starts and ends once the gaps between entries
/// are handed out, and the comments after the exercise region at the end of
/// the file, if no definition follows the region.
struct Extents {
    lead: Vec<usize>,
    trail: Vec<usize>,
    trailer: Option<Range<usize>>,
}

/// A byte range of the source.
struct Span {
    start: usize,
    end: usize,
}

impl Source<'_> {
    fn error(&self, at: usize, message: String) -> SourceError {
        SourceError {
            file: self.file.to_string(),
            line: self.lines.line_of(at),
            message,
        }
    }

    /// Where the line holding byte `at` starts.
    fn line_start(&self, at: usize) -> usize {
        self.lines.start_of(self.lines.line_of(at))
    }

    /// The blanks that open the line holding byte `at` (read from the
    /// line's start, so a long line costs no more than its indentation).
    fn indentation(&self, at: usize) -> &str {
        let start = self.line_start(at);
        let blanks = self.src.as_bytes()[start..]
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        &self.src[start..start + blanks]
    }

    fn token_line(&self, i: usize) -> usize {
        self.lines.line_of(self.tokens[i].span.start)
    }

    fn text(&self, i: usize) -> &str {
        &self.src[self.tokens[i].span.clone()]
    }

    /// Pass 1: the exercise markers, `// exercise: begin|end` alone on
    /// their line, checked to make at most one region.
    fn exercise_markers(&self) -> Result<Markers, SourceError> {
        let mut at: HashMap<usize, Marker> = HashMap::new();
        let mut begin: Option<usize> = None;
        let mut region: Option<(usize, usize)> = None;
        for (i, t) in self.tokens.iter().enumerate() {
            if t.kind != TokenKind::LineComment || !first_on_its_line(self.src, t.span.start) {
                continue;
            }
            let marker = match marker_of(self.text(i)) {
                Ok(Some(m)) => m,
                Ok(None) => continue,
                Err(message) => return Err(self.error(t.span.start, message)),
            };
            match (marker, begin, region) {
                (Marker::Begin, Some(open), _) => {
                    return Err(self.error(
                        t.span.start,
                        format!(
                            "a second `// exercise: begin` while the region opened at line {} is \
                             still open; close that one with `// exercise: end` first",
                            self.token_line(open)
                        ),
                    ));
                }
                (Marker::Begin, None, Some((b, e))) => {
                    return Err(self.error(
                        t.span.start,
                        format!(
                            "a second exercise region; a file has one, and this one's is at lines \
                             {}-{}: merge them into one region",
                            self.token_line(b),
                            self.token_line(e)
                        ),
                    ));
                }
                (Marker::Begin, None, None) => begin = Some(i),
                (Marker::End, Some(open), _) => {
                    region = Some((open, i));
                    begin = None;
                }
                (Marker::End, None, _) => {
                    return Err(self.error(
                        t.span.start,
                        "`// exercise: end` without a `// exercise: begin` above it; add the \
                         begin line where the exercise starts, or remove this one"
                            .to_string(),
                    ));
                }
            }
            at.insert(i, marker);
        }
        if let Some(open) = begin {
            return Err(self.error(
                self.tokens[open].span.start,
                "the exercise region opened here is never closed; add a line `// exercise: end` \
                 after the exercise's last definition"
                    .to_string(),
            ));
        }
        Ok(Markers { at, region })
    }

    /// Pass 2: where the header ends: at the line of the first code or
    /// marker.
    fn header_end(&self, markers: &HashMap<usize, Marker>) -> usize {
        self.tokens
            .iter()
            .enumerate()
            .find(|(i, t)| t.is_code() || markers.contains_key(i))
            .map_or(self.src.len(), |(_, t)| {
                self.lines.start_of(self.lines.line_of(t.span.start))
            })
    }

    /// Pass 4: names each piece; a `static_assert` joins the definition
    /// above it.
    fn name_pieces(&self, order: Vec<Item>) -> Vec<Entry> {
        let mut entries: Vec<Entry> = Vec::new();
        for item in order {
            let piece = match item {
                Item::Marker(at, marker) => {
                    entries.push(Entry::Marker(at, marker));
                    continue;
                }
                Item::Piece(piece) => piece,
            };
            let (name, kind) = self.name_piece(&piece);
            if kind == DefinitionKind::StaticAssert
                && let Some(Entry::Piece {
                    piece: above,
                    kind: above_kind,
                    is_main: false,
                    ..
                }) = entries.last_mut()
                && !matches!(
                    above_kind,
                    DefinitionKind::Namespace | DefinitionKind::Include | DefinitionKind::Directive
                )
            {
                above.last = piece.last;
                continue;
            }
            let is_main = piece.prefix.is_empty()
                && name == "main"
                && matches!(piece.role, Role::Definition)
                && kind == DefinitionKind::Function;
            entries.push(Entry::Piece {
                piece,
                name,
                kind,
                is_main,
            });
        }
        entries
    }

    /// The qualified name and kind of one piece.
    fn name_piece(&self, piece: &Piece) -> (String, DefinitionKind) {
        match &piece.role {
            Role::Opener(display) => (display.clone(), DefinitionKind::Namespace),
            Role::Closer(display) => (format!("{display} (end)"), DefinitionKind::Namespace),
            Role::Definition => {
                let code = code_between(&self.tokens, self.src, piece.first, piece.last + 1);
                let (name, kind) = name_of(&code, self.src);
                let qualified = match kind {
                    DefinitionKind::Macro | DefinitionKind::Include | DefinitionKind::Directive => {
                        name
                    }
                    _ => format!("{}{name}", piece.prefix),
                };
                (qualified, kind)
            }
        }
    }

    /// Each entry's own extent: from a piece's first code token to the end
    /// of its last line, when nothing but comments follows it there; a
    /// marker's whole line.
    fn own_extents(&self, entries: &[Entry]) -> Vec<Span> {
        entries
            .iter()
            .map(|e| match e {
                Entry::Marker(at, _) => {
                    let line = self.token_line(*at);
                    Span {
                        start: self.lines.start_of(line),
                        end: self.lines.start_of(line + 1),
                    }
                }
                Entry::Piece { piece, .. } => Span {
                    start: self.tokens[piece.first].span.start,
                    end: end_of_last_line(&self.tokens, self.src, piece.last),
                },
            })
            .collect()
    }

    /// Which line holds something other than whitespace.
    fn lines_with_content(&self) -> Vec<bool> {
        let mut has_content = vec![false; self.lines.count() + 2];
        for t in self
            .tokens
            .iter()
            .filter(|t| t.kind != TokenKind::Whitespace)
        {
            let first = self.lines.line_of(t.span.start);
            let last = self.lines.line_of(t.span.end - 1);
            has_content[first..=last].fill(true);
        }
        has_content
    }

    /// Pass 5: hands out the comments and blank lines between entries (see
    /// the module doc for who gets what).
    fn hand_out_gaps(&self, entries: &[Entry], header_end: usize) -> Extents {
        let own = self.own_extents(entries);
        let has_content = self.lines_with_content();
        let mut lead: Vec<usize> = own.iter().map(|s| s.start).collect();
        let mut trail: Vec<usize> = own.iter().map(|s| s.end).collect();
        let mut trailer: Option<Range<usize>> = None;
        let is_piece = |k: usize| matches!(entries[k], Entry::Piece { .. });
        for k in 0..=entries.len() {
            let gap_start = if k == 0 { header_end } else { own[k - 1].end };
            let gap_end = if k == entries.len() {
                self.src.len()
            } else {
                own[k].start
            };
            if gap_start >= gap_end {
                continue;
            }
            let before_is_piece = k > 0 && is_piece(k - 1);
            let after_is_piece = k < entries.len() && is_piece(k);
            match (before_is_piece, after_is_piece) {
                (true, true) => {
                    let split = trailing_comment_end(&self.lines, &has_content, gap_start, gap_end);
                    trail[k - 1] = split;
                    lead[k] = split;
                }
                (true, false) => trail[k - 1] = gap_end,
                (false, true) => lead[k] = gap_start,
                (false, false) => {
                    // After the exercise region, before the end of the file.
                    if k == entries.len()
                        && k > 0
                        && matches!(entries[k - 1], Entry::Marker(_, Marker::End))
                    {
                        trailer = Some(gap_start..gap_end);
                    }
                }
            }
        }
        Extents {
            lead,
            trail,
            trailer,
        }
    }

    /// Pass 6: places each definition (mirrored, exercise or `main`) and
    /// numbers repeated names.
    fn place(&self, entries: &[Entry], extents: Extents) -> Vec<Definition> {
        let Extents {
            lead,
            trail,
            trailer,
        } = extents;
        let mut definitions = Vec::new();
        let mut in_exercise = false;
        let mut seen: HashMap<(bool, String), usize> = HashMap::new();
        for (k, entry) in entries.iter().enumerate() {
            let (piece, name, kind, is_main) = match entry {
                Entry::Marker(_, marker) => {
                    in_exercise = *marker == Marker::Begin;
                    continue;
                }
                Entry::Piece {
                    piece,
                    name,
                    kind,
                    is_main,
                } => (piece, name, kind, is_main),
            };
            let place = if *is_main {
                Place::Main
            } else if in_exercise {
                Place::Exercise
            } else {
                Place::Mirrored
            };
            let count = seen.entry((in_exercise, name.clone())).or_insert(0);
            *count += 1;
            let name = if *count == 1 || place == Place::Main {
                name.clone()
            } else {
                format!("{name}#{count}")
            };
            definitions.push(Definition {
                name,
                kind: *kind,
                place,
                line: self.token_line(piece.first),
                first_line: self.lines.line_of(lead[k]),
                text: lead[k]..trail[k],
            });
        }
        if let Some(range) = trailer {
            definitions.push(Definition {
                name: "(end of file)".to_string(),
                kind: DefinitionKind::Trailer,
                place: Place::Mirrored,
                line: self.lines.line_of(range.start),
                first_line: self.lines.line_of(range.start),
                text: range,
            });
        }
        definitions
    }
}

/// Pass 3: cuts the code into top-level pieces (definitions, namespace
/// openers and closers, preprocessor lines) and puts the exercise markers
/// between them, in source order.
struct Cutter<'s, 'a> {
    source: &'s Source<'a>,
    markers: &'s HashMap<usize, Marker>,
    /// The namespace and `extern "C"` blocks open around the current token.
    blocks: Vec<Block>,
    /// Their qualification, like `a::b::`.
    prefix: String,
    /// The definition being read.
    pending: Option<Pending>,
    order: Vec<Item>,
    /// The branches of `#if` groups the cut does not read (see
    /// [`conditionals`]), by token.
    inert: Vec<bool>,
    /// The lines of the `#if`s whose branches open and close different
    /// numbers of brackets: the cut reads all their branches.
    uneven: Vec<usize>,
    /// The first `}` (first on its line) that is not indented like the line
    /// of the `{` it closes, and that `{`: where a file whose braces do not
    /// balance most likely lacks a `}`.
    misindented: Option<(usize, usize)>,
}

impl<'s, 'a> Cutter<'s, 'a> {
    fn new(source: &'s Source<'a>, markers: &'s HashMap<usize, Marker>) -> Self {
        let Conditionals { inert, uneven } = conditionals(source);
        Cutter {
            source,
            markers,
            blocks: Vec::new(),
            prefix: String::new(),
            pending: None,
            order: Vec::new(),
            inert,
            uneven,
            misindented: None,
        }
    }

    /// Notes the `}` at token `close` closing the `{` at token `open` when
    /// their lines are indented differently (the first such pair only).
    fn note_indentation(&mut self, open: usize, close: usize) {
        if self.misindented.is_some() {
            return;
        }
        let source = self.source;
        let close_at = source.tokens[close].span.start;
        let close_indent = source.indentation(close_at);
        // First on its line: nothing but its indentation before it.
        if close_indent.len() == close_at - source.line_start(close_at)
            && source.indentation(source.tokens[open].span.start) != close_indent
        {
            self.misindented = Some((open, close));
        }
    }

    /// An error for braces that do not balance, found at `found` (what
    /// happens as the file stands, said after the cause): at the `{` that
    /// most likely lacks its `}` when a misindented `}` after token `after`
    /// points to one, else at `fallback` with `message`; either way naming
    /// the `#if`s whose branches the cut cannot follow.
    fn unbalanced(
        &self,
        after: usize,
        found: &str,
        fallback: usize,
        message: String,
    ) -> SourceError {
        let source = self.source;
        let mut error = match self.misindented {
            Some((open, close)) if close > after => source.error(
                source.tokens[open].span.start,
                format!(
                    "this `{{` is probably never closed: the `}}` that closes it, at line {}, \
                     is indented differently from it, so a `}}` is likely missing between \
                     lines {} and {}; as it stands, {found}",
                    source.token_line(close),
                    source.token_line(open),
                    source.token_line(close),
                ),
            ),
            _ => source.error(source.tokens[fallback].span.start, message),
        };
        if !self.uneven.is_empty() {
            let lines: Vec<String> = self.uneven.iter().map(usize::to_string).collect();
            error.message.push_str(&format!(
                " (the branches of the `#if` at line {} open and close different numbers of \
                 brackets, and the drift check reads them all: make each branch balance, or \
                 open and close the same in each)",
                lines.join(", ")
            ));
        }
        error
    }

    fn cut(mut self) -> Result<Vec<Item>, SourceError> {
        let mut i = 0;
        while i < self.source.tokens.len() {
            i = self.step(i)?;
        }
        self.finish()?;
        Ok(self.order)
    }

    fn piece(&self, first: usize, last: usize, role: Role) -> Item {
        Item::Piece(Piece {
            first,
            last,
            role,
            prefix: self.prefix.clone(),
        })
    }

    /// Reads token `i`; returns the index of the next token to read.
    fn step(&mut self, i: usize) -> Result<usize, SourceError> {
        let source = self.source;
        if let Some(&marker) = self.markers.get(&i) {
            if let Some(p) = &self.pending {
                let message = format!(
                    "`{}` is inside the definition that starts at line {}; put the exercise \
                     markers on their own lines between top-level definitions",
                    marker.line_text(),
                    source.token_line(p.first)
                );
                if p.brace == 0 {
                    return Err(source.error(source.tokens[i].span.start, message));
                }
                let found = format!(
                    "the definition that starts at line {} runs on past `{}` at line {}",
                    source.token_line(p.first),
                    marker.line_text(),
                    source.token_line(i)
                );
                return Err(self.unbalanced(p.first, &found, i, message));
            }
            self.order.push(Item::Marker(i, marker));
            return Ok(i + 1);
        }
        if !source.tokens[i].is_code() || self.inert[i] {
            return Ok(i + 1);
        }
        if self.pending.is_none() {
            if let Some(next) = self.between_definitions(i)? {
                return Ok(next);
            }
            self.pending = Some(Pending {
                first: i,
                brace: 0,
                paren: 0,
                open_brace: None,
                opens: Vec::new(),
            });
        }
        self.in_definition(i)
    }

    /// A code token outside any definition: a preprocessor line and a `}`
    /// that closes a block are pieces of their own; anything else starts a
    /// definition (`None`).
    fn between_definitions(&mut self, i: usize) -> Result<Option<usize>, SourceError> {
        let source = self.source;
        if source.tokens[i].kind == TokenKind::Directive {
            let item = self.piece(i, i, Role::Definition);
            self.order.push(item);
            return Ok(Some(i + 1));
        }
        if source.text(i) != "}" {
            return Ok(None);
        }
        let Some(block) = self.blocks.pop() else {
            return Err(source.error(
                source.tokens[i].span.start,
                "this `}` closes nothing: look for a missing `{` above it, or remove it"
                    .to_string(),
            ));
        };
        self.prefix.truncate(block.outer_prefix);
        self.note_indentation(block.open_token, i);
        let item = self.piece(i, i, Role::Closer(block.display));
        self.order.push(item);
        Ok(Some(i + 1))
    }

    /// A code token inside the pending definition: tracks its brackets and
    /// ends it at its `;` or closing `}`.
    fn in_definition(&mut self, i: usize) -> Result<usize, SourceError> {
        let source = self.source;
        let tokens = &source.tokens;
        let p = self.pending.as_mut().expect("a pending definition");
        match source.text(i) {
            "(" | "[" => p.paren += 1,
            ")" | "]" => p.paren = p.paren.saturating_sub(1),
            "{" => {
                if p.brace == 0 && p.paren == 0 && p.open_brace.is_none() {
                    p.open_brace = Some(i);
                    let first = p.first;
                    if self.open_block(first, i) {
                        return Ok(i + 1);
                    }
                }
                let p = self.pending.as_mut().expect("pending");
                p.brace += 1;
                p.opens.push(i);
            }
            "}" if p.brace == 0 => {
                // A `}` closing a block around an unfinished definition: end
                // the definition here and let the `}` close the block.
                let first = p.first;
                let last = previous_code(tokens, i).unwrap_or(first);
                self.end_definition(first, last);
                return Ok(i);
            }
            "}" => {
                p.brace -= 1;
                let open = p.opens.pop().expect("an open brace per count");
                self.note_indentation(open, i);
                let p = self.pending.as_mut().expect("pending");
                if p.brace == 0 && p.paren == 0 {
                    let (first, head_end) = (p.first, p.open_brace.unwrap_or(i));
                    let head = code_between(tokens, source.src, first, head_end);
                    if !runs_to_semicolon(&head, source.src) {
                        let mut last = i;
                        if let Some(n) = next_code(tokens, i)
                            && source.text(n) == ";"
                            && !self.markers.contains_key(&n)
                        {
                            last = n;
                        }
                        self.end_definition(first, last);
                        return Ok(last + 1);
                    }
                }
            }
            ";" if p.brace == 0 && p.paren == 0 => {
                let first = p.first;
                self.end_definition(first, i);
            }
            _ => {}
        }
        Ok(i + 1)
    }

    /// When the head from `first` to the `{` at `brace` opens a namespace or
    /// `extern "C"` block: records its opener and enters it.
    fn open_block(&mut self, first: usize, brace: usize) -> bool {
        let head = code_between(&self.source.tokens, self.source.src, first, brace);
        let Some((display, qualifier)) = block_head(&head, &self.prefix) else {
            return false;
        };
        let item = self.piece(first, brace, Role::Opener(display.clone()));
        self.order.push(item);
        self.blocks.push(Block {
            display,
            outer_prefix: self.prefix.len(),
            open_token: brace,
        });
        self.prefix.push_str(&qualifier);
        self.pending = None;
        true
    }

    fn end_definition(&mut self, first: usize, last: usize) {
        let item = self.piece(first, last, Role::Definition);
        self.order.push(item);
        self.pending = None;
    }

    /// At the end of the file: a definition still open is one if its braces
    /// are balanced, and every block must be closed.
    fn finish(&mut self) -> Result<(), SourceError> {
        let source = self.source;
        if let Some(p) = self.pending.take() {
            if p.brace > 0 {
                let open = p.open_brace.unwrap_or(p.first);
                let found = format!(
                    "the definition that starts at line {} runs to the end of the file",
                    source.token_line(p.first)
                );
                return Err(self.unbalanced(
                    p.first,
                    &found,
                    open,
                    "this `{` is never closed; look for a missing `}` in the definition that \
                     starts here"
                        .to_string(),
                ));
            }
            let last = previous_code(&source.tokens, source.tokens.len()).unwrap_or(p.first);
            self.end_definition(p.first, last);
        }
        if let Some(block) = self.blocks.pop() {
            let found = format!(
                "`{}` opened at line {} is never closed",
                block.display,
                source.token_line(block.open_token)
            );
            return Err(self.unbalanced(
                block.open_token,
                &found,
                block.open_token,
                format!(
                    "`{}` opened here is never closed; add its `}}`",
                    block.display
                ),
            ));
        }
        Ok(())
    }
}

/// `// exercise: begin` or `// exercise: end`; an error for
/// `// exercise: <one other word>`, which is most likely a typo.
fn marker_of(comment: &str) -> Result<Option<Marker>, String> {
    let Some(body) = comment.strip_prefix("//") else {
        return Ok(None);
    };
    let Some(rest) = body.trim().strip_prefix("exercise:") else {
        return Ok(None);
    };
    match rest.trim() {
        "begin" => Ok(Some(Marker::Begin)),
        "end" => Ok(Some(Marker::End)),
        word if !word.is_empty() && !word.contains(char::is_whitespace) => Err(format!(
            "`{}` is not an exercise marker; write `// exercise: begin` or `// exercise: end`",
            comment.trim()
        )),
        _ => Ok(None),
    }
}

/// What the cut makes of the `#if` groups of a source (pass 0).
struct Conditionals {
    /// By token: inside a branch the cut does not read.
    inert: Vec<bool>,
    /// The lines of the `#if`s whose branches differ in their brackets.
    uneven: Vec<usize>,
}

/// An `#if` group being read: where each branch starts and what each opens.
struct Group {
    /// The token of each branch's directive (`#if`, `#elif`, `#else`).
    starts: Vec<usize>,
    /// Each finished branch's brackets: `{` minus `}`, `(` and `[` minus
    /// `)` and `]`.
    nets: Vec<(i64, i64)>,
    current: (i64, i64),
}

/// Pass 0: the `#if` groups whose branches each open the same brackets
/// without closing them (`#if FAST` / `int f() {` / `#else` / `int f(int) {`
/// / `#endif`, then one body): only the first branch is read for the cut,
/// the others are inert there (their text still belongs to the definition
/// around them, so an edit in them is still a difference). Groups whose
/// branches each balance are read whole, as plain code. Groups whose
/// branches differ are read whole too and listed, for the error the cut
/// gives if the file then does not balance.
fn conditionals(source: &Source) -> Conditionals {
    let tokens = &source.tokens;
    let mut inert = vec![false; tokens.len()];
    let mut uneven = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if !t.is_code() {
            continue;
        }
        let text = source.text(i);
        if t.kind == TokenKind::Directive {
            let word = text[1..]
                .trim_start_matches([' ', '\t'])
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .next()
                .unwrap_or("");
            match word {
                "if" | "ifdef" | "ifndef" => groups.push(Group {
                    starts: vec![i],
                    nets: Vec::new(),
                    current: (0, 0),
                }),
                "elif" | "elifdef" | "elifndef" | "else" => {
                    if let Some(g) = groups.last_mut() {
                        g.nets.push(g.current);
                        g.current = (0, 0);
                        g.starts.push(i);
                    }
                }
                "endif" => {
                    let Some(mut g) = groups.pop() else { continue };
                    g.nets.push(g.current);
                    let first = g.nets[0];
                    let net = if g.nets.iter().all(|&n| n == first) {
                        if first != (0, 0) && g.starts.len() > 1 {
                            inert[g.starts[1]..i].fill(true);
                        }
                        first
                    } else {
                        uneven.push(source.token_line(g.starts[0]));
                        g.nets
                            .iter()
                            .fold((0, 0), |(b, p), &(nb, np)| (b + nb, p + np))
                    };
                    if let Some(outer) = groups.last_mut() {
                        outer.current.0 += net.0;
                        outer.current.1 += net.1;
                    }
                }
                _ => {}
            }
            continue;
        }
        let Some(g) = groups.last_mut() else { continue };
        match text {
            "{" => g.current.0 += 1,
            "}" => g.current.0 -= 1,
            "(" | "[" => g.current.1 += 1,
            ")" | "]" => g.current.1 -= 1,
            _ => {}
        }
    }
    uneven.sort_unstable();
    Conditionals { inert, uneven }
}

fn first_on_its_line(src: &str, at: usize) -> bool {
    src[..at]
        .bytes()
        .rev()
        .take_while(|&c| c != b'\n')
        .all(|c| c == b' ' || c == b'\t')
}

/// Where the comment lines directly under a definition end, when a blank
/// line follows them (they then belong to it, like `// end snippet`);
/// otherwise `gap_start`, and the whole gap goes to the next definition.
fn trailing_comment_end(
    lines: &LineIndex,
    has_content: &[bool],
    gap_start: usize,
    gap_end: usize,
) -> usize {
    let first = lines.line_of(gap_start);
    if lines.start_of(first) != gap_start {
        return gap_start; // two pieces on one line
    }
    let next_piece_line = lines.line_of(gap_end);
    let mut line = first;
    while line < next_piece_line && has_content[line] {
        line += 1;
    }
    if line > first && line < next_piece_line {
        lines.start_of(line)
    } else {
        gap_start
    }
}

/// The end of a piece whose last code token is `last`: past the newline of
/// its line when only whitespace and comments follow on that line.
fn end_of_last_line(tokens: &[Token], src: &str, last: usize) -> usize {
    let mut end = tokens[last].span.end;
    for t in &tokens[last + 1..] {
        match t.kind {
            TokenKind::Whitespace => {
                if let Some(nl) = src[t.span.clone()].find('\n') {
                    return t.span.start + nl + 1;
                }
            }
            TokenKind::LineComment | TokenKind::BlockComment => end = t.span.end,
            _ => return end,
        }
    }
    src.len()
}

fn next_code(tokens: &[Token], i: usize) -> Option<usize> {
    (i + 1..tokens.len()).find(|&j| tokens[j].is_code())
}

fn previous_code(tokens: &[Token], i: usize) -> Option<usize> {
    (0..i).rev().find(|&j| tokens[j].is_code())
}

/// A code token with its text.
#[derive(Clone, Copy, Debug)]
struct Code<'a> {
    kind: TokenKind,
    text: &'a str,
    span: (usize, usize),
}

fn code_between<'a>(tokens: &[Token], src: &'a str, from: usize, to: usize) -> Vec<Code<'a>> {
    tokens[from..to]
        .iter()
        .filter(|t| t.is_code())
        .map(|t| Code {
            kind: t.kind,
            text: &src[t.span.clone()],
            span: (t.span.start, t.span.end),
        })
        .collect()
}

/// Source text from the start of `from` to the end of `to`, on one line.
fn collapsed(src: &str, from: Code, to: Code) -> String {
    src[from.span.0..to.span.1]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A namespace or `extern "C"` head: its display name and the qualification
/// it adds to the names inside.
fn block_head(head: &[Code], prefix: &str) -> Option<(String, String)> {
    let texts: Vec<&str> = head.iter().map(|c| c.text).collect();
    match texts.as_slice() {
        ["extern", s] if head[1].kind == TokenKind::Str => {
            Some((format!("{prefix}extern {s}"), String::new()))
        }
        ["namespace", rest @ ..] | ["inline", "namespace", rest @ ..] => {
            if rest
                .iter()
                .any(|t| !(t.chars().all(|c| c.is_alphanumeric() || c == '_') || *t == ":"))
            {
                return None;
            }
            let name = rest.concat();
            let name = if name.is_empty() {
                "(anonymous)".to_string()
            } else {
                name
            };
            Some((format!("namespace {prefix}{name}"), format!("{name}::")))
        }
        _ => None,
    }
}

/// Keywords that can stand right before a `(` without naming anything.
const NOT_A_NAME: &[&str] = &[
    "void",
    "int",
    "char",
    "short",
    "long",
    "float",
    "double",
    "bool",
    "unsigned",
    "signed",
    "auto",
    "const",
    "volatile",
    "static",
    "inline",
    "extern",
    "constexpr",
    "consteval",
    "constinit",
    "__device__",
    "__host__",
    "__global__",
    "__forceinline__",
    "__noinline__",
    "__constant__",
    "__shared__",
    "__managed__",
    "return",
    "typename",
    "struct",
    "class",
    "union",
    "enum",
    "register",
    "thread_local",
    "mutable",
    "virtual",
    "explicit",
    "friend",
];

/// Identifiers followed by a parenthesised argument that are part of a
/// declaration, never its name.
const ATTRIBUTE_LIKE: &[&str] = &[
    "__attribute__",
    "__declspec",
    "alignas",
    "__align__",
    "__launch_bounds__",
    "__maxnreg__",
    "__cluster_dims__",
    "decltype",
    "noexcept",
    "throw",
    "sizeof",
    "alignof",
    "requires",
];

/// Index just past the group that opens at `open` (`(`, `[`, `{` or `<`).
fn skip_group(s: &[Code], open: usize) -> usize {
    let close = match s[open].text {
        "(" => ")",
        "[" => "]",
        "{" => "}",
        "<" => ">",
        _ => return open + 1,
    };
    let mut i = open + 1;
    while i < s.len() {
        let t = s[i].text;
        if t == close {
            return i + 1;
        }
        if matches!(t, "(" | "[" | "{") || (t == "<" && close == ">") {
            i = skip_group(s, i);
            continue;
        }
        i += 1;
    }
    s.len()
}

/// Skips `template <...>` heads and attributes at the start of a declaration.
fn skip_prelude(s: &[Code]) -> usize {
    let mut i = 0;
    loop {
        match (s.get(i).map(|c| c.text), s.get(i + 1).map(|c| c.text)) {
            (Some("template"), Some("<")) => i = skip_group(s, i + 1),
            (Some("extern"), Some("template")) => i += 1,
            (Some("["), Some("[")) => i = skip_group(s, i),
            (Some(t), Some("(")) if ATTRIBUTE_LIKE.contains(&t) => i = skip_group(s, i + 1),
            _ => return i,
        }
    }
}

/// The `A::B::` written just before the name at `name_at`.
fn qualifier_before(s: &[Code], name_at: usize) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let mut j = name_at;
    while j >= 2 && s[j - 1].text == ":" && s[j - 2].text == ":" {
        if j == 2 {
            break; // a leading `::`: the global namespace
        }
        let mut p = j - 3;
        if s[p].text == ">" {
            // Skip template arguments backwards: `A<T>::f`.
            let mut depth = 0usize;
            loop {
                match s[p].text {
                    ">" => depth += 1,
                    "<" => depth -= 1,
                    _ => {}
                }
                if depth == 0 || p == 0 {
                    break;
                }
                p -= 1;
            }
            if p == 0 {
                break;
            }
            p -= 1;
        }
        if s[p].kind != TokenKind::Ident {
            break;
        }
        parts.push(s[p].text);
        j = p;
    }
    parts.reverse();
    parts.iter().map(|p| format!("{p}::")).collect()
}

/// The name written at `at`, with its qualifier and a destructor's `~`.
fn qualified_name(s: &[Code], at: usize) -> String {
    if at >= 1 && s[at - 1].text == "~" {
        format!("{}~{}", qualifier_before(s, at - 1), s[at].text)
    } else {
        format!("{}{}", qualifier_before(s, at), s[at].text)
    }
}

/// The name and kind of the declaration whose tokens are `tokens` (a head
/// like `float f(int x)`, or a whole declaration), named as [`scan`] names
/// definitions, qualifiers written in it included.
pub(crate) fn declaration_name(src: &str, tokens: &[Token]) -> (String, DefinitionKind) {
    name_of(&code_between(tokens, src, 0, tokens.len()), src)
}

/// The name and kind of the declaration made of the code tokens `s`.
fn name_of(s: &[Code], src: &str) -> (String, DefinitionKind) {
    if s.is_empty() {
        return (String::new(), DefinitionKind::Other);
    }
    if s[0].kind == TokenKind::Directive {
        return directive_name(s[0].text);
    }
    let start = skip_prelude(s);
    let head = &s[start.min(s.len())..];
    let Some(first) = head.first() else {
        return (collapsed(src, s[0], s[s.len() - 1]), DefinitionKind::Other);
    };
    match first.text {
        "static_assert" => {
            // The condition runs to the first `,` or `)` outside brackets.
            let mut depth = 0usize;
            let mut condition_end = head.len() - 1;
            for (i, c) in head.iter().enumerate().skip(2) {
                match c.text {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "," if depth == 0 => {
                        condition_end = i;
                        break;
                    }
                    ")" | "]" | "}" => depth -= 1,
                    _ => {}
                }
            }
            let condition = if condition_end > 2 {
                collapsed(src, head[2], head[condition_end - 1])
            } else {
                String::new()
            };
            (
                format!("static_assert({condition})"),
                DefinitionKind::StaticAssert,
            )
        }
        "using" => match head.get(1).map(|c| c.text) {
            Some(name) if head.get(2).map(|c| c.text) == Some("=") => {
                (name.to_string(), DefinitionKind::Type)
            }
            _ => {
                let end = head.len() - usize::from(head[head.len() - 1].text == ";");
                (
                    collapsed(src, head[0], head[end.max(1) - 1]),
                    DefinitionKind::Using,
                )
            }
        },
        "typedef" => (typedef_name(head), DefinitionKind::Type),
        "namespace" => {
            let end = head.len() - usize::from(head[head.len() - 1].text == ";");
            (
                collapsed(src, head[0], head[end.max(1) - 1]),
                DefinitionKind::Namespace,
            )
        }
        "struct" | "class" | "union" | "enum" => match type_head(head, src) {
            TypeHead::Named(name) => (name, DefinitionKind::Type),
            TypeHead::Anonymous(body) => {
                let after = skip_group(head, body);
                let rest = &head[after..];
                if rest.iter().any(|c| c.kind == TokenKind::Ident) {
                    declarator_name(rest, src)
                } else {
                    (format!("(anonymous {})", first.text), DefinitionKind::Type)
                }
            }
            TypeHead::NotADefinition => declarator_name(head, src),
        },
        _ => declarator_name(head, src),
    }
}

enum TypeHead {
    Named(String),
    /// `struct { ... }`, with the index of its `{`.
    Anonymous(usize),
    /// `struct S* f()` and the like: a declaration that mentions a type.
    NotADefinition,
}

/// `struct|class|union|enum [class] [attributes] Name [<args>] [final]`
/// followed by `{`, `:`, `;` or nothing.
fn type_head(s: &[Code], src: &str) -> TypeHead {
    let mut j = 1;
    if s[0].text == "enum" && matches!(s.get(1).map(|c| c.text), Some("class" | "struct")) {
        j = 2;
    }
    loop {
        match (s.get(j).map(|c| c.text), s.get(j + 1).map(|c| c.text)) {
            (Some("["), Some("[")) => j = skip_group(s, j),
            (Some(t), Some("(")) if ATTRIBUTE_LIKE.contains(&t) => j = skip_group(s, j + 1),
            _ => break,
        }
    }
    match s.get(j) {
        Some(c) if c.text == "{" => return TypeHead::Anonymous(j),
        Some(c) if c.kind == TokenKind::Ident && c.text != "final" => {}
        _ => return TypeHead::NotADefinition,
    }
    let name_start = j;
    j += 1;
    while j + 2 < s.len() + 1
        && s.get(j).map(|c| c.text) == Some(":")
        && s.get(j + 1).map(|c| c.text) == Some(":")
        && s.get(j + 2).is_some_and(|c| c.kind == TokenKind::Ident)
    {
        j += 3;
    }
    if s.get(j).map(|c| c.text) == Some("<") {
        j = skip_group(s, j);
    }
    let name = collapsed(src, s[name_start], s[j - 1]);
    if s.get(j).map(|c| c.text) == Some("final") {
        j += 1;
    }
    match s.get(j).map(|c| c.text) {
        None | Some("{" | ";") => TypeHead::Named(name),
        Some(":") if s.get(j + 1).map(|c| c.text) != Some(":") => TypeHead::Named(name),
        _ => TypeHead::NotADefinition,
    }
}

/// `typedef float (*SumFn)(...)` names SumFn; otherwise the last identifier
/// outside any brackets, as in `typedef struct { ... } Name;`.
fn typedef_name(s: &[Code]) -> String {
    for w in s.windows(4) {
        if w[0].text == "(" && w[1].text == "*" && w[2].kind == TokenKind::Ident && w[3].text == ")"
        {
            return w[2].text.to_string();
        }
    }
    let mut name = "";
    let mut i = 1;
    while i < s.len() {
        match s[i].text {
            "(" | "[" | "{" => {
                i = skip_group(s, i);
                continue;
            }
            "<" if s[i - 1].kind == TokenKind::Ident => {
                i = skip_group(s, i);
                continue;
            }
            t if s[i].kind == TokenKind::Ident => name = t,
            _ => {}
        }
        i += 1;
    }
    name.to_string()
}

/// The name of a function, variable or macro call.
fn declarator_name(s: &[Code], src: &str) -> (String, DefinitionKind) {
    let before = |k: usize, words: &[&str]| s[..k].iter().any(|c| words.contains(&c.text));
    let mut templated_name: Option<usize> = None;
    let mut k = 0;
    while k < s.len() {
        let t = s[k].text;
        match t {
            "operator" if s[k].kind == TokenKind::Ident => {
                return (
                    format!("{}{}", qualifier_before(s, k), operator_name(&s[k..])),
                    DefinitionKind::Function,
                );
            }
            "<" if k > 0 && s[k - 1].kind == TokenKind::Ident => {
                templated_name = Some(k - 1);
                k = skip_group(s, k);
                continue;
            }
            "[" if s.get(k + 1).map(|c| c.text) == Some("[") => {
                k = skip_group(s, k);
                continue;
            }
            "(" => {
                let prev = k.checked_sub(1).map(|p| s[p]);
                match prev {
                    Some(p) if p.kind == TokenKind::Ident && ATTRIBUTE_LIKE.contains(&p.text) => {
                        k = skip_group(s, k);
                        continue;
                    }
                    Some(p) if p.kind == TokenKind::Ident && !NOT_A_NAME.contains(&p.text) => {
                        if k == 1 {
                            let end = skip_group(s, k);
                            return (collapsed(src, s[0], s[end - 1]), DefinitionKind::MacroCall);
                        }
                        let kind = if before(k, &["__global__"]) {
                            DefinitionKind::Kernel
                        } else {
                            DefinitionKind::Function
                        };
                        return (qualified_name(s, k - 1), kind);
                    }
                    Some(p) if p.text == ">" && templated_name.is_some() => {
                        let at = templated_name.expect("checked");
                        let kind = if before(k, &["__global__"]) {
                            DefinitionKind::Kernel
                        } else {
                            DefinitionKind::Function
                        };
                        return (qualified_name(s, at), kind);
                    }
                    _ => {
                        // A parenthesised declarator: `int (*fp)(int) = ...;`.
                        let end = skip_group(s, k);
                        // An unclosed `(` runs to the end of `s`.
                        if let Some(id) = s[k + 1..(end - 1).max(k + 1)]
                            .iter()
                            .find(|c| c.kind == TokenKind::Ident && !NOT_A_NAME.contains(&c.text))
                        {
                            return (id.text.to_string(), variable_kind(&s[..k]));
                        }
                        k = end;
                        continue;
                    }
                }
            }
            "=" | ";" | "[" | "{" | "," => {
                let name = match k.checked_sub(1).map(|p| s[p]) {
                    Some(p) if p.kind == TokenKind::Ident => Some(qualified_name(s, k - 1)),
                    Some(p) if p.text == ">" => templated_name.map(|at| qualified_name(s, at)),
                    _ => None,
                };
                if let Some(name) = name {
                    return (name, variable_kind(&s[..k]));
                }
            }
            _ => {}
        }
        k += 1;
    }
    let last = s.len().min(8);
    (collapsed(src, s[0], s[last - 1]), DefinitionKind::Other)
}

fn variable_kind(head: &[Code]) -> DefinitionKind {
    if head
        .iter()
        .any(|c| matches!(c.text, "const" | "constexpr" | "constinit" | "__constant__"))
    {
        DefinitionKind::Constant
    } else {
        DefinitionKind::Variable
    }
}

/// `operator==`, `operator()`, `operator new[]`, `operator float`: the
/// tokens from `operator` to the parameter list.
fn operator_name(s: &[Code]) -> String {
    let mut name = String::from("operator");
    let mut i = 1;
    if s.get(1).map(|c| c.text) == Some("(") && s.get(2).map(|c| c.text) == Some(")") {
        return "operator()".to_string();
    }
    while i < s.len() && s[i].text != "(" {
        let ident_like = s[i].kind == TokenKind::Ident;
        let after_ident = name
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if ident_like && after_ident {
            name.push(' ');
        }
        name.push_str(s[i].text);
        i += 1;
    }
    name
}

/// Whether a definition whose head is `head` ends at a `;` after its braces
/// rather than at the closing brace: types, aliases and initialisers.
fn runs_to_semicolon(head: &[Code], src: &str) -> bool {
    let start = skip_prelude(head);
    let head = &head[start.min(head.len())..];
    let Some(first) = head.first() else {
        return false;
    };
    match first.text {
        "typedef" | "using" => return true,
        "struct" | "class" | "union" | "enum" => {
            // The head stops at the body's `{`, so a definition ends there.
            // It stands where the head ends, so text collapsed up to it
            // (an unclosed `<` runs to it) stays in order.
            let end = head[head.len() - 1].span.1;
            let mut with_brace: Vec<Code> = head.to_vec();
            with_brace.push(Code {
                kind: TokenKind::Punct,
                text: "{",
                span: (end, end),
            });
            if !matches!(type_head(&with_brace, src), TypeHead::NotADefinition) {
                return true;
            }
        }
        _ => {}
    }
    if head.iter().any(|c| c.text == "operator") {
        return false;
    }
    let mut depth = 0usize;
    for c in head {
        match c.text {
            "(" | "[" => depth += 1,
            ")" | "]" => depth = depth.saturating_sub(1),
            "=" if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// `#define NAME ...` is NAME; `#include <x>` is `#include <x>`; any other
/// preprocessor line is its own text without comments.
fn directive_name(line: &str) -> (String, DefinitionKind) {
    let unspliced = line.replace("\\\r\n", " ").replace("\\\n", " ");
    let body = unspliced.trim_start_matches('#').trim_start();
    let word_end = body
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let (word, rest) = body.split_at(word_end);
    let rest = rest.trim_start();
    match word {
        "define" => {
            let name_end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (rest[..name_end].to_string(), DefinitionKind::Macro)
        }
        "include" | "include_next" | "import" => {
            let target = match rest.chars().next() {
                Some('<') => rest.find('>').map_or(rest, |e| &rest[..=e]),
                Some('"') => rest[1..].find('"').map_or(rest, |e| &rest[..e + 2]),
                _ => rest.split_whitespace().next().unwrap_or(""),
            };
            (format!("#{word} {target}"), DefinitionKind::Include)
        }
        _ => {
            let without_comment = rest
                .find("//")
                .into_iter()
                .chain(rest.find("/*"))
                .min()
                .map_or(rest, |c| &rest[..c]);
            let text = without_comment
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let name = if text.is_empty() {
                format!("#{word}")
            } else {
                format!("#{word} {text}")
            };
            (name, DefinitionKind::Directive)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<(String, DefinitionKind, Place)> {
        scan("t.cu", src)
            .unwrap()
            .definitions
            .into_iter()
            .map(|d| (d.name, d.kind, d.place))
            .collect()
    }

    fn named(src: &str) -> Vec<String> {
        names(src).into_iter().map(|(n, _, _)| n).collect()
    }

    fn texts(src: &str) -> Vec<(String, String)> {
        scan("t.cu", src)
            .unwrap()
            .definitions
            .into_iter()
            .map(|d| (d.name, src[d.text].to_string()))
            .collect()
    }

    fn error(src: &str) -> String {
        scan("t.cu", src).unwrap_err().to_string()
    }

    #[test]
    fn braces_inside_strings_chars_and_comments_do_not_end_a_definition() {
        let src = r#"
void a() {
  const char* s = "}{";
  char c = '}';
  char d = '\'';  // }
  /* } } */
}
void b() {}
"#;
        assert_eq!(named(src), ["a", "b"]);
    }

    #[test]
    fn raw_strings_may_hold_anything() {
        let src = "const char* kText = R\"x(\n}\n\" ; { )\" )x\";\nint after() { return 1; }\n";
        assert_eq!(named(src), ["kText", "after"]);
        assert_eq!(names(src)[0].1, DefinitionKind::Constant);
    }

    #[test]
    fn templates_with_comparisons_in_default_arguments() {
        let src = "template <typename T, int N = (3 > 2)>\nT scaled(T x) { return x * N; }\n\
                   template <typename T, typename U = std::vector<std::vector<T>>>\nstruct Box { U u; };\n\
                   template <> float scaled<float, 1>(float x) { return x; }\n";
        assert_eq!(
            names(src),
            [
                (
                    "scaled".to_string(),
                    DefinitionKind::Function,
                    Place::Mirrored
                ),
                ("Box".to_string(), DefinitionKind::Type, Place::Mirrored),
                (
                    "scaled#2".to_string(),
                    DefinitionKind::Function,
                    Place::Mirrored
                ),
            ]
        );
    }

    #[test]
    fn a_struct_with_methods_is_one_definition_and_out_of_class_methods_are_qualified() {
        let src = "struct Acc {\n  float total = 0;\n  void add(float x) { total += x; }\n  \
                   bool operator==(const Acc& o) const { return total == o.total; }\n};\n\
                   float Acc::get() const { return total; }\nAcc::~Acc() {}\n\
                   bool operator<(const Acc& a, const Acc& b) { return a.total < b.total; }\n";
        assert_eq!(named(src), ["Acc", "Acc::get", "Acc::~Acc", "operator<"]);
    }

    #[test]
    fn definitions_in_nested_namespaces_are_qualified() {
        let src = "namespace outer {\nnamespace inner {\nint f() { return 1; }\n}  // namespace inner\n\
                   constexpr int kN = 3;\n}\nnamespace a::b { void g(); }\nnamespace { int hidden; }\n\
                   extern \"C\" { void c_api(); }\n";
        assert_eq!(
            named(src),
            [
                "namespace outer",
                "namespace outer::inner",
                "outer::inner::f",
                "namespace outer::inner (end)",
                "outer::kN",
                "namespace outer (end)",
                "namespace a::b",
                "a::b::g",
                "namespace a::b (end)",
                "namespace (anonymous)",
                "(anonymous)::hidden",
                "namespace (anonymous) (end)",
                "extern \"C\"",
                "c_api",
                "extern \"C\" (end)",
            ]
        );
    }

    #[test]
    fn kernels_are_named_past_launch_bounds() {
        let src = "__global__ void __launch_bounds__(256) blockSum(const float* x) {\n  \
                   if (x) { x[0]; }\n}\n__device__ float twice(float v) { return 2 * v; }\n";
        let n = names(src);
        assert_eq!(n[0].0, "blockSum");
        assert_eq!(n[0].1, DefinitionKind::Kernel);
        assert_eq!(
            n[1],
            (
                "twice".to_string(),
                DefinitionKind::Function,
                Place::Mirrored
            )
        );
    }

    #[test]
    fn multi_line_and_function_like_macros() {
        let src = "#define CHECK(call) \\\n  do { \\\n    if (!(call)) { \\\n      abort(); \\\n    } \\\n  } while (0)\n\
                   #define MAX(a, b) ((a) > (b) ? (a) : (b))\n#define kTile 16\n#include <cstdio>\n\
                   #include \"local.h\"  // ours\n#pragma once\nint after;\n";
        let n = names(src);
        let got: Vec<(&str, DefinitionKind)> = n.iter().map(|(a, k, _)| (a.as_str(), *k)).collect();
        assert_eq!(
            got,
            [
                ("CHECK", DefinitionKind::Macro),
                ("MAX", DefinitionKind::Macro),
                ("kTile", DefinitionKind::Macro),
                ("#include <cstdio>", DefinitionKind::Include),
                ("#include \"local.h\"", DefinitionKind::Include),
                ("#pragma once", DefinitionKind::Directive),
                ("after", DefinitionKind::Variable),
            ]
        );
        assert!(texts(src)[0].1.ends_with("while (0)\n"));
    }

    #[test]
    fn declarations_without_bodies_are_definitions_too() {
        let src =
            "float f(int);\nstruct S;\nfloat f(int) { return 0; }\nextern __device__ int g;\n";
        assert_eq!(named(src), ["f", "S", "f#2", "g"]);
    }

    #[test]
    fn variables_types_and_aliases() {
        let src = "using SumFn = float (*)(const float*);\ntypedef float (*OldFn)(int);\n\
                   typedef struct { int a; } Pair;\nenum class Mode : int { A, B };\n\
                   static const int kArr[] = {1, 2};\nint counter{0};\n\
                   auto twice = [](int x) { return 2 * x; };\nstruct { int x; } point;\n\
                   struct Outcome* make();\nstd::map<int, int> table;\nint (*fp)(int) = nullptr;\n\
                   using namespace std;\nTEST(Suite, Name) { EXPECT(1); }\n";
        let n = names(src);
        let got: Vec<(&str, DefinitionKind)> = n.iter().map(|(a, k, _)| (a.as_str(), *k)).collect();
        assert_eq!(
            got,
            [
                ("SumFn", DefinitionKind::Type),
                ("OldFn", DefinitionKind::Type),
                ("Pair", DefinitionKind::Type),
                ("Mode", DefinitionKind::Type),
                ("kArr", DefinitionKind::Constant),
                ("counter", DefinitionKind::Variable),
                ("twice", DefinitionKind::Variable),
                ("point", DefinitionKind::Variable),
                ("make", DefinitionKind::Function),
                ("table", DefinitionKind::Variable),
                ("fp", DefinitionKind::Variable),
                ("using namespace std", DefinitionKind::Using),
                ("TEST(Suite, Name)", DefinitionKind::MacroCall),
            ]
        );
    }

    #[test]
    fn static_asserts_join_the_constant_above() {
        let src = "// header\n\n#include <x>\nstatic_assert(sizeof(int) == 4, \"int\");\n\
                   constexpr int kBlock = 256;\nstatic_assert(kBlock % 32 == 0, \"warps\");\n\
                   static_assert((kBlock & (kBlock - 1)) == 0);\nint next;\n";
        let t = texts(src);
        let got: Vec<&str> = t.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            got,
            [
                "#include <x>",
                "static_assert(sizeof(int) == 4)",
                "kBlock",
                "next"
            ]
        );
        assert!(t[2].1.contains("(kBlock & (kBlock - 1)) == 0"));
    }

    #[test]
    fn comments_belong_to_the_definition_below_and_end_markers_to_the_one_above() {
        let src = "// Header line.\n//\n// More header.\n\nint a;  // about a\n\
                   // snippet: b\n// says b\nint b() {\n  return 1;\n}\n// end snippet\n\n\
                   // ---- Section\n\n// says c\nint c;\n// says d\nint d;\n";
        let t = texts(src);
        assert_eq!(t[0], ("a".to_string(), "int a;  // about a\n".to_string()));
        assert_eq!(
            t[1].1,
            "// snippet: b\n// says b\nint b() {\n  return 1;\n}\n// end snippet\n"
        );
        assert_eq!(t[2].1, "\n// ---- Section\n\n// says c\nint c;\n");
        assert_eq!(t[3].1, "// says d\nint d;\n");
        // The header, up to the first code, is no definition's.
        assert_eq!(scan("t.cu", src).unwrap().definitions[0].first_line, 5);
    }

    #[test]
    fn the_exercise_region_and_main_are_set_apart() {
        let src = "int a;\n\n// exercise: begin\n// Write g here.\nint g() { return 0; }\n\
                   // exercise: end\n\n// Claims.\nint main() { return g(); }\n";
        let scanned = scan("t.cu", src).unwrap();
        assert_eq!(scanned.exercise, Some((3, 6)));
        let got: Vec<(&str, Place)> = scanned
            .definitions
            .iter()
            .map(|d| (d.name.as_str(), d.place))
            .collect();
        assert_eq!(
            got,
            [
                ("a", Place::Mirrored),
                ("g", Place::Exercise),
                ("main", Place::Main)
            ]
        );
        // The blank line before the region belongs to `a`.
        assert_eq!(&src[scanned.definitions[0].text.clone()], "int a;\n\n");
    }

    #[test]
    fn comments_after_the_region_at_the_end_of_the_file_are_compared() {
        let src = "int a;\n// exercise: begin\n// exercise: end\n// the end\n";
        let t = texts(src);
        assert_eq!(
            t[1],
            ("(end of file)".to_string(), "// the end\n".to_string())
        );
    }

    #[test]
    fn region_errors_name_the_line_and_say_what_to_do() {
        let unterminated = error("int a;\n// exercise: begin\nint b;\n");
        assert!(unterminated.starts_with("t.cu:2: "), "{unterminated}");
        assert!(unterminated.contains("// exercise: end"), "{unterminated}");

        let second = error(
            "// exercise: begin\n// exercise: end\nint a;\n// exercise: begin\n// exercise: end\n",
        );
        assert!(
            second.starts_with("t.cu:4: a second exercise region"),
            "{second}"
        );

        let nested = error("// exercise: begin\n// exercise: begin\n// exercise: end\n");
        assert!(nested.starts_with("t.cu:2: "), "{nested}");

        let stray = error("int a;\n// exercise: end\n");
        assert!(
            stray.starts_with("t.cu:2: `// exercise: end` without"),
            "{stray}"
        );

        let inside = error("void f() {\n  // exercise: begin\n}\n// exercise: end\n");
        assert!(inside.starts_with("t.cu:2: "), "{inside}");
        assert!(inside.contains("starts at line 1"), "{inside}");

        let typo = error("// exercise: start\n");
        assert!(typo.contains("not an exercise marker"), "{typo}");
    }

    #[test]
    fn a_marker_in_a_string_or_block_comment_or_after_code_is_not_a_marker() {
        let src = "const char* s = \"// exercise: begin\";\n/*\n// exercise: begin\n*/\nint a; // exercise: end\n";
        let scanned = scan("t.cu", src).unwrap();
        assert_eq!(scanned.exercise, None);
    }

    #[test]
    fn unbalanced_braces_are_errors_with_lines() {
        // Indented consistently: nothing points inside, the definition's
        // own `{` is named.
        let open = error("int a;\nvoid f() {\n  if (1) {\n  }\n");
        assert!(
            open.starts_with("t.cu:2: this `{` is never closed"),
            "{open}"
        );
        // The `}` at line 4 is indented like `f`, not like the `if` it closes.
        let open = error("int a;\nvoid f() {\n  if (1) {\n}\n");
        assert!(
            open.starts_with("t.cu:3: this `{` is probably never closed"),
            "{open}"
        );
        let close = error("int a;\n}\n");
        assert!(
            close.starts_with("t.cu:2: this `}` closes nothing"),
            "{close}"
        );
        let comment = error("int a;\n/* never closed\n");
        assert!(comment.starts_with("t.cu:2: "), "{comment}");
    }

    #[test]
    fn pieces_cover_everything_outside_the_header() {
        let src = "// h\n\n#include <a>\nint x; int y;\n/* c */ int z() {\n}\n\n";
        let scanned = scan("t.cu", src).unwrap();
        let mut at = "// h\n\n".len();
        for d in &scanned.definitions {
            assert_eq!(d.text.start, at, "{}", d.name);
            at = d.text.end;
        }
        assert_eq!(at, src.len());
        assert_eq!(named(src), ["#include <a>", "x", "y", "z"]);
    }

    /// A small lesson with one of each construct the scanner reads, to damage.
    const DAMAGE_ME: &str = r#"// Header: what the lesson shows.
//
// More header.

#include <cstdio>
#include "common.cuh"  // ours
#define CHECK(call) \
  do { if (!(call)) { std::abort(); } } while (0)

namespace lesson {
constexpr int kBlock = 256;  // threads
static_assert(kBlock % 32 == 0, "whole warps");
const char* kBanner = R"x(a "raw" } { string */ )x";
char kQuote = '\'';
}  // namespace lesson

template <typename T, int N = (3 > 2)>
struct Box {
  T items[N];
  bool operator==(const Box& o) const { return items[0] == o.items[0]; }
};

// snippet: kernel
__global__ void __launch_bounds__(256) scale(float* x, int n) {
  /* a } in a comment */
  if (threadIdx.x < n) { x[threadIdx.x] *= 2.0f; }
}
// end snippet

extern "C" { int c_api(int); }

// exercise: begin
// Write sum here.
float sum(const float* x, int n) { return x[0] + n; }
// exercise: end

// Claims.
int main() {
  scale<<<1, 256>>>(nullptr, 0);
  return 0;
}
"#;

    #[test]
    fn the_damage_fixture_scans() {
        assert_eq!(
            named(DAMAGE_ME),
            [
                "#include <cstdio>",
                "#include \"common.cuh\"",
                "CHECK",
                "namespace lesson",
                "lesson::kBlock",
                "lesson::kBanner",
                "lesson::kQuote",
                "namespace lesson (end)",
                "Box",
                "scale",
                "extern \"C\"",
                "c_api",
                "extern \"C\" (end)",
                "sum",
                "main",
            ]
        );
    }

    #[test]
    fn damaged_sources_give_errors_or_definitions_never_panics() {
        let lesson = DAMAGE_ME;
        let inserts = [
            "{",
            "}",
            "\"",
            "'",
            "/*",
            "*/",
            "R\"x(",
            "#",
            "\\\n",
            "<",
            ">",
            "(",
            ")",
            ";",
            "::",
            "// exercise: end\n",
            "static_assert(",
            "template <",
            "namespace n {",
            "\u{e9}",
        ];
        for at in (0..lesson.len()).step_by(7) {
            for insert in inserts {
                let damaged = format!("{}{insert}{}", &lesson[..at], &lesson[at..]);
                if let Ok(scanned) = scan("t.cu", &damaged) {
                    for d in &scanned.definitions {
                        assert!(d.text.start <= d.text.end && d.text.end <= damaged.len());
                        assert!(
                            damaged.is_char_boundary(d.text.start)
                                && damaged.is_char_boundary(d.text.end)
                        );
                    }
                }
            }
            let _ = scan("t.cu", &lesson[..at]);
        }
    }

    /// Issue 16: a definition whose head is written once per `#if` branch,
    /// each opening the one body after `#endif`.
    const BRANCHED_HEAD: &str = "#include <cstdio>\n\
        \n\
        #if FAST\n\
        int f(int x) {\n\
          return x;\n\
        #else\n\
        int f(int x) {\n\
          return x + 1;\n\
        #endif\n\
        }\n\
        \n\
        int g() { return 2; }\n\
        \n\
        int main() { return f(1); }\n";

    #[test]
    fn branches_that_each_open_the_same_braces_are_read_once() {
        // Before the fix: "t.cu:4: this `{` is never closed".
        let scanned = scan("t.cu", BRANCHED_HEAD).unwrap();
        let found: Vec<(&str, usize)> = scanned
            .definitions
            .iter()
            .map(|d| (d.name.as_str(), d.line))
            .collect();
        assert_eq!(
            found,
            [
                ("#include <cstdio>", 1),
                ("#if FAST", 3),
                ("f", 4),
                ("g", 12),
                ("main", 14)
            ]
        );
        // The second branch is still part of f's text: an edit there is a
        // difference of f.
        let f = &scanned.definitions[2];
        assert!(BRANCHED_HEAD[f.text.clone()].contains("return x + 1;"));
        assert!(BRANCHED_HEAD[f.text.clone()].ends_with("#endif\n}\n"));
    }

    #[test]
    fn branches_that_balance_are_still_read_whole() {
        let src = "#if A\nint f() { return 1; }\n#else\nint f() { return 2; }\n#endif\n";
        assert_eq!(named(src), ["#if A", "f", "#else", "f#2", "#endif"]);
    }

    #[test]
    fn branches_that_differ_are_named_when_the_file_does_not_balance() {
        let src = "#if A\nint f() {\n#else\nint f() { if (1) {\n#endif\n  return 1;\n}\n";
        let message = error(src);
        assert!(
            message.contains("the branches of the `#if` at line 1 open and close different"),
            "{message}"
        );
    }

    #[test]
    fn a_byte_order_mark_belongs_to_the_header() {
        // Before the fix the mark was code: the header comment and the
        // include were glued onto the first definition, at line 1.
        let plain = "// header\n#include <cstdio>\n\nint g() { return 2; }\n";
        let marked = format!("\u{feff}{plain}");
        let found = |src: &str| -> Vec<(String, usize, usize)> {
            scan("t.cu", src)
                .unwrap()
                .definitions
                .into_iter()
                .map(|d| (d.name, d.line, d.first_line))
                .collect()
        };
        assert_eq!(found(&marked), found(plain));
        assert_eq!(found(plain)[1], ("g".to_string(), 4, 3));
    }

    #[test]
    fn a_missing_brace_is_reported_where_the_indentation_shows_it() {
        // The `}` of the `for` is missing (it was at line 6): the function's
        // `}` at line 8 closes the `for` instead, and the function swallows
        // everything after it, here the exercise marker.
        let src = "// header\n\
            #include <cstdio>\n\
            \n\
            void f(int* x) {\n\
            \x20 for (int i = 0; i < 4; ++i) {\n\
            \x20   x[i] = i;\n\
            \x20 x[0] = 1;\n\
            }\n\
            \n\
            // exercise: begin\n\
            int g() { return 1; }\n\
            // exercise: end\n\
            int main() {}\n";
        assert_eq!(
            error(src),
            "t.cu:5: this `{` is probably never closed: the `}` that closes it, at line 8, is \
             indented differently from it, so a `}` is likely missing between lines 5 and 8; as \
             it stands, the definition that starts at line 4 runs on past `// exercise: begin` \
             at line 10"
        );
        // Without a marker the definition runs to the end of the file.
        let end = src.find("\n// exercise: begin").unwrap();
        let message = error(&src[..end + 1]);
        assert!(
            message.starts_with("t.cu:5: this `{` is probably never closed")
                && message
                    .ends_with("the definition that starts at line 4 runs to the end of the file"),
            "{message}"
        );
        // A namespace left open by a function inside it.
        let nested = "namespace a {\nvoid f() {\n  if (1) {\n  return;\n}\n}\n";
        let message = error(nested);
        assert!(
            message.starts_with("t.cu:3: this `{` is probably never closed")
                && message.ends_with("`namespace a` opened at line 1 is never closed"),
            "{message}"
        );
    }

    #[test]
    fn a_marker_inside_a_balanced_definition_keeps_its_message() {
        let src = "void f() {\n// exercise: begin\n}\n// exercise: end\n";
        assert_eq!(
            error(src),
            "t.cu:2: `// exercise: begin` is inside the definition that starts at line 1; put \
             the exercise markers on their own lines between top-level definitions"
        );
    }
}
