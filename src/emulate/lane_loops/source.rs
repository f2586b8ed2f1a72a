//! What a kernel is made of, as far as a lane loop needs to know: the
//! file's functions and macros, a body's statements, a declaration's type and
//! declarators, a warp function's signature. Hand-written on the crate's
//! lexer (see the parent module for why).

use crate::cxx::lexer::{CodeToken, TokenKind};

use super::gate::*;
use super::groups::BlockGroups;

/// Keywords followed by `(` that are not calls.
const NOT_CALLS: &[&str] = &[
    "if",
    "for",
    "while",
    "switch",
    "return",
    "sizeof",
    "alignof",
    "decltype",
    "static_cast",
    "reinterpret_cast",
    "const_cast",
    "dynamic_cast",
    "static_assert",
    "noexcept",
    "__launch_bounds__",
    "defined",
    "typeid",
    "__attribute__",
    "alignas",
    "__align__",
];

/// C++'s built-in type names.
const BUILTIN_TYPES: &[&str] = &[
    "int", "unsigned", "signed", "char", "short", "long", "float", "double", "bool", "void",
];

/// Whether `name` followed by `(` is not a call (a keyword, a cast).
pub(super) fn not_a_call(name: &str) -> bool {
    NOT_CALLS.contains(&name) || BUILTIN_TYPES.contains(&name)
}

/// Whether `name` is a type word a declaration may start with.
pub(super) fn type_word(name: &str) -> bool {
    TYPE_WORDS.contains(&name) || BUILTIN_TYPES.contains(&name)
}

/// Other words a declaration may start with.
const TYPE_WORDS: &[&str] = &[
    "auto",
    "const",
    "size_t",
    "__half",
    "__half2",
    "half",
    "half2",
    "__nv_bfloat16",
    "__nv_bfloat162",
    "typename",
];

/// A `__global__` function: its parameters' names and its body's braces.
pub(super) struct Kernel {
    pub(super) params: Vec<usize>,
    pub(super) open: usize,
    pub(super) close: usize,
}

pub(super) struct File<'a> {
    pub(super) source: &'a str,
    pub(super) tokens: &'a [CodeToken],
    /// What other rewrites replace (bytes, and the text put there). Code
    /// with one inside is not written out (the copy would miss it: a
    /// translated `asm`), but for those on the lines `#if` and the like
    /// between statements, which the copy makes too (a `__CUDA_ARCH__` test
    /// read the device's way).
    pub(super) edited: &'a [(usize, usize, String)],
    /// The file's macros: each name's body (the first definition).
    pub(super) macros: std::collections::HashMap<&'a str, (usize, usize)>,
    /// The file's functions: each name's token and body braces (the first
    /// definition).
    pub(super) functions: std::collections::HashMap<&'a str, Function>,
    /// The functions that hold a warp operation, or call one that does.
    pub(super) warp_functions: std::collections::HashSet<&'a str>,
    /// The bytes of each `[static] __shared__` declaration: the writer
    /// copies one with the rewriter's edits inside (`alignas`), so those are
    /// no reason to keep a kernel on fibers ([`File::edited`]).
    shared_declarations: Vec<(usize, usize)>,
    /// Cooperative groups' blocks the lane loop follows.
    pub(super) groups: BlockGroups,
}

/// A function defined in the file.
#[derive(Clone, Copy)]
pub(super) struct Function {
    pub(super) name: usize,
    pub(super) open: usize,
    pub(super) close: usize,
}

impl<'a> File<'a> {
    pub(super) fn new(
        source: &'a str,
        tokens: &'a [CodeToken],
        edited: &'a [(usize, usize, String)],
    ) -> Self {
        let mut f = File {
            source,
            tokens,
            edited,
            macros: Default::default(),
            functions: Default::default(),
            warp_functions: Default::default(),
            shared_declarations: Vec::new(),
            groups: BlockGroups::default(),
        };
        f.groups = BlockGroups::new(&f);
        for k in 0..tokens.len() {
            if tokens[k].directive.is_some() || f.text(k) != "__shared__" {
                continue;
            }
            // From the statement's first token: `static`, `extern`, an
            // `alignas(16)` may come before `__shared__`.
            let mut first = k;
            while first > 0
                && !matches!(f.text(first - 1), ";" | "{" | "}")
                && tokens[first - 1].directive.is_none()
            {
                first -= 1;
            }
            if let Some(semi) = statement_end(&f, k, tokens.len() - 1) {
                f.shared_declarations
                    .push((tokens[first].start, tokens[semi].end));
            }
        }
        for k in 0..tokens.len() {
            let Some(hash) = tokens[k].directive else {
                continue;
            };
            if k == hash + 2 && f.is(hash + 1, "define") && f.ident(k) {
                let name = &source[tokens[k].start..tokens[k].end];
                if let Some(body) = f.macro_body_at(k) {
                    f.macros.entry(name).or_insert(body);
                }
            }
        }
        for k in 0..tokens.len() {
            if let Some(function) = f.function_at(k) {
                let name = &source[tokens[k].start..tokens[k].end];
                f.functions.entry(name).or_insert(function);
            }
        }
        // Warp functions: those with a warp operation, then their callers.
        loop {
            let found: Vec<&'a str> = f
                .functions
                .iter()
                .filter(|(name, g)| {
                    !f.warp_functions.contains(*name) && has_warp_operation(&f, g.open, g.close)
                })
                .map(|(name, _)| *name)
                .collect();
            if found.is_empty() {
                break;
            }
            f.warp_functions.extend(found);
        }
        f
    }

    /// The function whose definition's name is token `k`.
    pub(super) fn function_at(&self, k: usize) -> Option<Function> {
        if self.tokens[k].directive.is_some()
            || !self.ident(k)
            || !self.is(k + 1, "(")
            || not_a_call(self.text(k))
            || matches!(self.text(k), "catch" | "while")
            || (k > 0 && (self.is(k - 1, ".") || self.is(k - 1, ">") || self.is(k - 1, "~")))
        {
            return None;
        }
        let close = self.closing(k + 1)?;
        let mut j = close + 1;
        // Qualifiers between the parameters and the body.
        while j < self.tokens.len() && (self.ident(j) || self.is(j, "&")) {
            j += 1;
        }
        if !self.is(j, "{") {
            return None;
        }
        Some(Function {
            name: k,
            open: j,
            close: self.closing(j)?,
        })
    }

    /// Whether token `k` calls a warp operation, the block's barrier (a
    /// block group's `sync` too) or a warp function.
    pub(super) fn warp_call(&self, k: usize) -> bool {
        self.groups.is_sync(k)
            || (self.ident(k)
                && self.is(k + 1, "(")
                && (WARP_OPERATIONS.contains(&self.text(k))
                    || self.text(k) == BARRIER
                    || self.text(k) == WARP_SYNC
                    || self.warp_functions.contains(self.text(k)))
                && !(k > 0 && (self.is(k - 1, ".") || self.is(k - 1, ">"))))
    }

    pub(super) fn text(&self, k: usize) -> &str {
        let t = &self.tokens[k];
        &self.source[t.start..t.end]
    }

    pub(super) fn is(&self, k: usize, s: &str) -> bool {
        k < self.tokens.len() && self.text(k) == s
    }

    pub(super) fn ident(&self, k: usize) -> bool {
        k < self.tokens.len() && self.tokens[k].kind == TokenKind::Ident
    }

    /// The token that closes the bracket opened at `open`.
    pub(super) fn closing(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for k in open..self.tokens.len() {
            match self.text(k) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The kernel whose `__global__` is token `k`, if it has a body.
    pub(super) fn kernel_at(&self, k: usize) -> Option<Kernel> {
        let mut params_open = None;
        let mut j = k + 1;
        while j < self.tokens.len() {
            if self.tokens[j].directive.is_some() {
                return None;
            }
            match self.text(j) {
                ";" | "}" => return None,
                "{" => break,
                "(" => {
                    if j > 0 && self.ident(j - 1) && !self.is(j - 1, "__launch_bounds__") {
                        params_open = Some(j);
                    }
                    j = self.closing(j)?;
                }
                _ => {}
            }
            j += 1;
        }
        let open = j;
        let close = self.closing(open)?;
        let params_open = params_open?;
        let params_close = self.closing(params_open)?;
        // Each parameter's name: its last name at depth 0, before a default.
        let mut params = Vec::new();
        let mut start = params_open + 1;
        let mut p = start;
        while p <= params_close {
            match self.text(p) {
                "(" | "[" | "{" if p < params_close => p = self.closing(p)?,
                "&" | "." => return None, // a reference or a pack
                "," | ")" if p == params_close || self.is(p, ",") => {
                    let end = (start..p).find(|&j| self.is(j, "=")).unwrap_or(p);
                    let names: Vec<usize> = (start..end)
                        .filter(|&j| self.ident(j) && !type_word(self.text(j)))
                        .filter(|&j| !self.is(j - 1, "<") && !self.is(j + 1, ">"))
                        .collect();
                    if let Some(&name) = names.last()
                        && end - start > 1
                        && !self.is(name + 1, "<")
                    {
                        params.push(name);
                    }
                    start = p + 1;
                }
                _ => {}
            }
            p += 1;
        }
        Some(Kernel {
            params,
            open,
            close,
        })
    }

    /// The tokens of the body of the macro `name` defined in the file, if
    /// it is one (empty: `a > b`).
    pub(super) fn macro_body(&self, name: &str) -> Option<(usize, usize)> {
        self.macros.get(name).copied()
    }

    /// The body of the macro whose name is token `k` of a `#define` line
    /// (after its parameters for a function-like one).
    pub(super) fn macro_body_at(&self, k: usize) -> Option<(usize, usize)> {
        let hash = self.tokens[k].directive?;
        let in_line = |j: usize| j < self.tokens.len() && self.tokens[j].directive == Some(hash);
        let mut first = k + 1;
        // A parameter list touches the name.
        if in_line(first) && self.is(first, "(") && self.tokens[first].start == self.tokens[k].end {
            first = self.closing(first)? + 1;
        }
        let mut end = first;
        while in_line(end) {
            end += 1;
        }
        Some((first, end.wrapping_sub(1).max(first.wrapping_sub(1))))
    }

    /// Whether another rewrite edits tokens `a..=b` (but on a conditional
    /// directive's line or in a `__shared__` declaration, which a copy
    /// carries over: [`File::with_edits`]).
    pub(super) fn edited(&self, a: usize, b: usize) -> bool {
        let (from, to) = (self.tokens[a].start, self.tokens[b].end);
        self.edited.iter().any(|(s, e, _)| {
            (*s < to && (*e > from || (s == e && *s >= from)))
                && !self.on_conditional(*s, *e)
                && !self
                    .shared_declarations
                    .iter()
                    .any(|&(d0, d1)| d0 <= *s && *e <= d1)
        })
    }

    /// Whether bytes `s..e` lie on one line `#if`, `#elif`, `#ifdef` or
    /// `#ifndef`.
    fn on_conditional(&self, s: usize, e: usize) -> bool {
        let Ok(k) = self.tokens.binary_search_by(|t| t.start.cmp(&s)) else {
            return false;
        };
        let Some(hash) = self.tokens[k].directive else {
            return false;
        };
        let last = (k..self.tokens.len())
            .take_while(|&j| self.tokens[j].directive == Some(hash))
            .last()
            .unwrap_or(k);
        matches!(self.text(hash + 1), "if" | "elif" | "ifdef" | "ifndef")
            && e <= self.tokens[last].end
    }

    /// The source of tokens `a..=b`, with the other rewrites' edits inside.
    pub(super) fn with_edits(&self, a: usize, b: usize) -> String {
        let (from, to) = (self.tokens[a].start, self.tokens[b].end);
        let mut inside: Vec<&(usize, usize, String)> = self
            .edited
            .iter()
            .filter(|(s, e, _)| *s >= from && *e <= to)
            .collect();
        inside.sort_by_key(|(s, _, _)| *s);
        let mut out = String::new();
        let mut at = from;
        for (s, e, text) in inside {
            out.push_str(&self.source[at..*s]);
            out.push_str(text);
            at = *e;
        }
        out.push_str(&self.source[at..to]);
        out
    }

    /// Where the function `name` is defined in the file: its body's braces.
    pub(super) fn definition(&self, name: &str) -> Option<(usize, usize)> {
        self.functions.get(name).map(|g| (g.open, g.close))
    }
}

/// One statement of a body, as far as the lane loop needs to know.
#[derive(Debug)]
pub(super) enum Stmt {
    /// An expression, a declaration, `return`, `break`, ...: tokens up to
    /// and including its `;`.
    Simple(usize, usize),
    /// `{ ... }`.
    Block(usize, usize, Vec<Stmt>),
    /// `for (init; cond; step) body`: the parentheses and the body.
    For(usize, usize, Box<Stmt>),
    /// `while (cond) body`.
    While(usize, usize, Box<Stmt>),
    /// `do body while (cond);`: the `do` and the `;`.
    Do(usize, usize),
    /// `if (cond) then [else other]`: the parentheses.
    If(usize, usize, Box<Stmt>, Option<Box<Stmt>>),
    /// A line `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` or `#endif`
    /// between statements: its `#` and last token.
    Directive(usize, usize),
    /// `switch (x) { ... }`: the parentheses and the body's `}` (a lane's
    /// code only: its labels are not taken apart).
    Switch(usize, usize, usize),
}

impl Stmt {
    pub(super) fn range(&self) -> (usize, usize) {
        match self {
            Stmt::Simple(a, b) | Stmt::Block(a, b, _) | Stmt::Do(a, b) | Stmt::Directive(a, b) => {
                (*a, *b)
            }
            Stmt::For(open, _, body) | Stmt::While(open, _, body) => (open - 1, body.range().1),
            Stmt::Switch(open, _, end) => (open - 1, *end),
            Stmt::If(open, _, then, other) => (
                open - 1,
                other.as_ref().map_or(then.range().1, |o| o.range().1),
            ),
        }
    }
}

/// Parses the statements of `from..to` (exclusive), skipping `#pragma`
/// lines; None for anything else it does not follow.
pub(super) fn statements(f: &File, from: usize, to: usize) -> Option<Vec<Stmt>> {
    let mut out = Vec::new();
    let mut k = from;
    while k < to {
        if let Some(hash) = f.tokens[k].directive {
            // A line `#if`, `#else`, ... between statements is kept where it
            // stands; a `#pragma` is dropped; anything else is not followed.
            let mut last = k;
            while last + 1 < to && f.tokens[last + 1].directive == Some(hash) {
                last += 1;
            }
            match f.text(hash + 1) {
                "pragma" => {}
                "if" | "ifdef" | "ifndef" | "elif" | "else" | "endif" => {
                    out.push(Stmt::Directive(hash, last));
                }
                _ => return None,
            }
            k = last + 1;
            continue;
        }
        let (stmt, next) = statement(f, k, to)?;
        let (a, b) = stmt.range();
        // A line of the preprocessor inside a statement: not followed (but the
        // statements of a block, parsed on their own).
        if !matches!(stmt, Stmt::Block(..)) && {
            let header = match &stmt {
                Stmt::For(open, close, _)
                | Stmt::While(open, close, _)
                | Stmt::If(open, close, ..) => (*open, *close),
                _ => (a, b),
            };
            (header.0..=header.1).any(|j| f.tokens[j].directive.is_some())
        } {
            return None;
        }
        out.push(stmt);
        k = next;
    }
    Some(out)
}

/// Whether token `k` is on a `#pragma` line.
fn pragma(f: &File, k: usize) -> bool {
    f.tokens[k]
        .directive
        .is_some_and(|hash| f.is(hash + 1, "pragma"))
}

pub(super) fn statement(f: &File, k: usize, to: usize) -> Option<(Stmt, usize)> {
    let skip_pragmas = |mut j: usize| {
        while j < to && pragma(f, j) {
            j += 1;
        }
        j
    };
    match f.text(k) {
        "{" => {
            let close = f.closing(k)?;
            let items = statements(f, k + 1, close)?;
            Some((Stmt::Block(k, close, items), close + 1))
        }
        "for" | "while" | "if" if f.is(k + 1, "(") => {
            let open = k + 1;
            let close = f.closing(open)?;
            let body_at = skip_pragmas(close + 1);
            if body_at >= to {
                return None;
            }
            let (body, next) = statement(f, body_at, to)?;
            let body = Box::new(body);
            Some(match f.text(k) {
                "for" => (Stmt::For(open, close, body), next),
                "while" => (Stmt::While(open, close, body), next),
                _ => {
                    let else_at = skip_pragmas(next);
                    if else_at < to && f.is(else_at, "else") {
                        let (other, after) = statement(f, skip_pragmas(else_at + 1), to)?;
                        (Stmt::If(open, close, body, Some(Box::new(other))), after)
                    } else {
                        (Stmt::If(open, close, body, None), next)
                    }
                }
            })
        }
        "switch" if f.is(k + 1, "(") => {
            let close = f.closing(k + 1)?;
            if !f.is(close + 1, "{") {
                return None;
            }
            let end = f.closing(close + 1)?;
            Some((Stmt::Switch(k + 1, close, end), end + 1))
        }
        "do" => {
            let (_, next) = statement(f, skip_pragmas(k + 1), to)?;
            let w = skip_pragmas(next);
            if !f.is(w, "while") || !f.is(w + 1, "(") {
                return None;
            }
            let semi = f.closing(w + 1)? + 1;
            f.is(semi, ";").then_some((Stmt::Do(k, semi), semi + 1))
        }
        "else" | "if" | "for" | "while" | "switch" | "case" | "default" => None,
        _ => {
            let mut j = k;
            while j < to {
                match f.text(j) {
                    ";" => return Some((Stmt::Simple(k, j), j + 1)),
                    "(" | "[" | "{" => j = f.closing(j)? + 1,
                    _ => j += 1,
                }
            }
            None
        }
    }
}

/// The `;` that ends the statement starting at `k`, at most `b`.
pub(super) fn statement_end(f: &File, k: usize, b: usize) -> Option<usize> {
    let mut j = k;
    while j <= b {
        match f.text(j) {
            ";" => return Some(j),
            "(" | "[" | "{" => j = f.closing(j)? + 1,
            _ => j += 1,
        }
    }
    None
}

/// Whether the `<` at `k` opens template arguments followed by a call.
pub(super) fn template_call(f: &File, k: usize) -> bool {
    let mut depth = 0usize;
    for j in k..f.tokens.len().min(k + 64) {
        match f.text(j) {
            "<" => depth += 1,
            ">" => {
                depth -= 1;
                if depth == 0 {
                    return f.is(j + 1, "(");
                }
            }
            ";" | "{" | "}" | "&" | "|" => return false,
            _ => {}
        }
    }
    false
}

/// A declaration statement, taken apart.
pub(super) struct Declaration {
    /// Tokens of the type written before the declarators.
    pub(super) ty: (usize, usize),
    pub(super) auto: bool,
    pub(super) declarators: Vec<Declarator>,
}

pub(super) struct Declarator {
    /// `*` and cv words between the type and the name.
    pub(super) pointer: Option<(usize, usize)>,
    pub(super) name: usize,
    /// `[N]...` after the name.
    pub(super) dims: Option<(usize, usize)>,
    pub(super) init: Init,
}

pub(super) enum Init {
    None,
    /// `= expr`: the expression's tokens.
    Copy(usize, usize),
    /// `(args)` or `{args}`: the brackets.
    Direct(usize, usize),
}

/// Takes a simple statement `a..=semi` apart as a declaration: Ok(None)
/// for a statement that is none (an expression), Err(()) for a declaration
/// the lane loop cannot keep per lane (a reference, an initialized array, a
/// large array, `auto` but `auto x = e`, a class definition).
pub(super) fn declaration(f: &File, a: usize, semi: usize) -> Result<Option<Declaration>, ()> {
    let mut k = a;
    let (mut auto, mut builtin, mut named) = (false, false, false);
    while k < semi {
        let s = f.text(k);
        if type_word(s) {
            auto |= s == "auto";
            builtin |= s != "const";
            k += 1;
        } else if matches!(
            s,
            "struct" | "class" | "union" | "enum" | "register" | "template"
        ) {
            return Err(());
        } else if f.ident(k) && !named && !builtin && !NOT_TYPES.contains(&s) {
            named = true;
            k += 1;
            loop {
                if f.is(k, "<") {
                    k = template_arguments_end(f, k, semi).ok_or(())? + 1;
                }
                if f.is(k, ":") && f.is(k + 1, ":") && f.ident(k + 2) {
                    k += 3;
                } else {
                    break;
                }
            }
        } else {
            break;
        }
    }
    if !named && !builtin {
        return Ok(None);
    }
    let ty = (a, k - 1);
    let mut declarators = Vec::new();
    loop {
        let p0 = k;
        while f.is(k, "*") || f.is(k, "const") || f.is(k, "__restrict__") {
            k += 1;
        }
        if !f.ident(k) || type_word(f.text(k)) || NOT_TYPES.contains(&f.text(k)) {
            // `x = 1;`, `f(x);`, `a[i] = 2;`, `x++;`: an expression.
            return if declarators.is_empty() && named && !builtin && p0 == k {
                Ok(None)
            } else {
                Err(())
            };
        }
        let pointer = (k > p0).then_some((p0, k - 1));
        let name = k;
        k += 1;
        let dims_start = k;
        let mut elements: u64 = 1;
        while f.is(k, "[") {
            let close = f.closing(k).ok_or(())?;
            // Literal sizes only, a few hundred elements at most: 32 copies
            // live on the fiber's stack.
            let n: u64 = if close == k + 2 && f.tokens[k + 1].kind == TokenKind::Number {
                f.text(k + 1)
                    .trim_end_matches(['u', 'U', 'l', 'L'])
                    .parse()
                    .map_err(|_| ())?
            } else {
                return Err(());
            };
            elements = elements.saturating_mul(n);
            k = close + 1;
        }
        if elements > 256 {
            return Err(());
        }
        let dims = (k > dims_start).then_some((dims_start, k - 1));
        let init = match f.text(k) {
            "=" => {
                let start = k + 1;
                let mut j = start;
                while j < semi && !f.is(j, ",") {
                    if matches!(f.text(j), "(" | "[" | "{") {
                        j = f.closing(j).ok_or(())?;
                    }
                    j += 1;
                }
                if j == start || f.is(start, "{") && auto {
                    return Err(());
                }
                k = j;
                Init::Copy(start, j - 1)
            }
            "(" | "{" => {
                let close = f.closing(k).ok_or(())?;
                let open = k;
                k = close + 1;
                Init::Direct(open, close)
            }
            "," | ";" => Init::None,
            _ => return Err(()),
        };
        if dims.is_some() && !matches!(init, Init::None)
            || auto && (!matches!(init, Init::Copy(..)) || pointer.is_some() || dims.is_some())
        {
            return Err(());
        }
        declarators.push(Declarator {
            pointer,
            name,
            dims,
            init,
        });
        match f.text(k) {
            "," => k += 1,
            ";" if k == semi => break,
            _ => return Err(()),
        }
    }
    Ok(Some(Declaration {
        ty,
        auto,
        declarators,
    }))
}

/// Words that start a statement but never a type.
pub(super) const NOT_TYPES: &[&str] = &[
    "return",
    "break",
    "continue",
    "delete",
    "new",
    "if",
    "else",
    "for",
    "while",
    "do",
    "sizeof",
    "typedef",
    "using",
    "static_assert",
    "constexpr",
    "true",
    "false",
    "nullptr",
    "this",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
];

/// The `>` that closes the template arguments opened at `k`, before `semi`.
pub(super) fn template_arguments_end(f: &File, k: usize, semi: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = k;
    while j < semi {
        match f.text(j) {
            "<" => depth += 1,
            ">" => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            "(" | "[" => j = f.closing(j)?,
            ";" | "{" | "}" => return None,
            _ => {}
        }
        j += 1;
    }
    None
}

/// A warp function's return type (None: `void`) and parameters.
pub(super) struct Signature {
    pub(super) returns: Option<(usize, usize)>,
    pub(super) params: Vec<Param>,
}

pub(super) struct Param {
    pub(super) ty: (usize, usize),
    pub(super) name: usize,
}

/// The signature of a function of the file, if the lane loop can write out
/// its calls: no template, no reference or array parameter, no default
/// argument, no pack.
pub(super) fn signature(f: &File, g: Function) -> Option<Signature> {
    // The head: back to the end of the previous declaration.
    let mut start = g.name;
    while start > 0
        && !matches!(f.text(start - 1), ";" | "}" | "{")
        && f.tokens[start - 1].directive.is_none()
    {
        start -= 1;
    }
    const SPECIFIERS: &[&str] = &[
        "__device__",
        "__forceinline__",
        "__inline__",
        "inline",
        "static",
        "__noinline__",
        "constexpr",
    ];
    let mut first = start;
    while first < g.name && SPECIFIERS.contains(&f.text(first)) {
        first += 1;
    }
    if (start..g.name).any(|j| matches!(f.text(j), "template" | "__host__" | "__global__" | "<"))
        || first >= g.name
        || (first..g.name).any(|j| SPECIFIERS.contains(&f.text(j)) || f.is(j, "&"))
    {
        return None;
    }
    let returns = if first + 1 == g.name && f.is(first, "void") {
        None
    } else {
        Some((first, g.name - 1))
    };
    let open = g.name + 1;
    let close = f.closing(open)?;
    let mut params = Vec::new();
    if !(close == open + 1 || (close == open + 2 && f.is(open + 1, "void"))) {
        for (a, b) in arguments(f, open, close)? {
            if (a..=b).any(|j| matches!(f.text(j), "&" | "=" | "[" | "." | "(")) || b == a {
                return None;
            }
            if !f.ident(b) || type_word(f.text(b)) {
                return None;
            }
            params.push(Param {
                ty: (a, b - 1),
                name: b,
            });
        }
    }
    Some(Signature { returns, params })
}

/// The comma-separated parts (first and last token) between the brackets
/// `open` and `close`.
pub(super) fn arguments(f: &File, open: usize, close: usize) -> Option<Vec<(usize, usize)>> {
    let mut out = Vec::new();
    if close == open + 1 {
        return Some(out);
    }
    let mut start = open + 1;
    let mut j = open + 1;
    while j < close {
        match f.text(j) {
            "," => {
                if j == start {
                    return None;
                }
                out.push((start, j - 1));
                start = j + 1;
            }
            "(" | "[" | "{" => j = f.closing(j)?,
            "<" if j > start && f.ident(j - 1) && template_call(f, j) => {
                j = template_arguments_end(f, j, close)?;
            }
            _ => {}
        }
        j += 1;
    }
    if start >= close {
        return None;
    }
    out.push((start, close - 1));
    Some(out)
}
