//! Writes a kernel out a second time as a loop over the lanes of a warp, so
//! that a converged warp's shuffles, votes and matches cost no fiber switch
//! (issue 17; the runtime half is `shim/cuda_emu.cpp`, "Lane loops").
//!
//! Run as written, every thread of a kernel is a fiber, and each warp
//! operation is a meeting of the warp's 32 fibers: 32 switches. The lane-loop
//! form runs the code between two warp operations lane after lane on one
//! fiber, each lane's locals in an array of 32 (bound to their names by a
//! reference inside each loop over the lanes), and turns a statement holding
//! warp operations into one pass per operation in which every live lane
//! records its call (the shim's `warp_call` sees `lane_calls` set), one
//! computation of all results (`lanes_meet`), and a pass that evaluates the
//! statement with each operation replaced by its lane's result. The lanes run
//! in lane order between two warp operations, as their fibers would, so the
//! order of their memory accesses, and so every answer, is the fibers'.
//!
//! Only what can be seen to stay converged is written out (everything else
//! keeps the fibers, decided here, at compile time):
//!
//! - a program that is not built for the warp lock step (no `volatile`, no
//!   `__shared__`, no `__syncthreads` or `__syncwarp`: the caller checks);
//! - a `__global__` function with no preprocessor line in its body but
//!   `#pragma`, no other rewrite inside it, no parameter taken by reference or
//!   pack, no lambda, `goto`, `static` local, inline assembly, cooperative
//!   group or `__activemask`;
//! - whose warp operations stand in expression or declaration statements (not
//!   under `?:`, `&&` or `||`, not nested in one another), themselves inside
//!   blocks, `for` and `while` loops and `if`s whose conditions depend on
//!   nothing that differs between lanes (parameters, `blockIdx`, constants,
//!   locals written only by such values at the warp's level). The lanes
//!   evaluate such a condition each and the loop checks that they agree: a
//!   disagreement stops the kernel with an error naming the line
//!   (`lanes_disagree`), never a silent different answer;
//! - that calls only functions defined in the same file that pass the same
//!   checks and hold no warp operation, and the intrinsics, atomics and math
//!   functions of CUDA (a name this module cannot see into might wait for
//!   another thread: the shim would stop the kernel, so it is not written
//!   out);
//! - with no loop that could poll (an atomic inside a loop that is not the
//!   warp's), and no `break` or `continue` that would leave the lanes' loop.
//!
//! The written-out form sits in the kernel's body, in front of the body as
//! written, on the line of its `{`, and carries `#line` directives, so
//! `__LINE__`, the compiler's messages and the runtime's warnings name the
//! lines of the program; the body as written follows, under a `#line` that
//! puts it back where it was, and runs where the runtime says no (a warp whose
//! lane 0 is not the first to start, `--schedule`, `CUDA_EMU_LANE_LOOPS=0`,
//! the lock step's instrumented build).
//!
//! Hand-written on the crate's lexer, like the rest of the rewriter (see
//! `rewrite.rs` for why no C++ parser): the statement structure it needs is
//! brackets, keywords and `;`, and whatever it does not recognise keeps the
//! kernel on fibers.

use crate::cxx::lexer::{CodeToken, TokenKind};

/// The warp operations a lane loop computes in one pass.
const WARP_OPERATIONS: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__match_any_sync",
    "__match_all_sync",
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
];

/// Names that keep a kernel on fibers wherever they appear in it: what waits
/// for other threads, what the statement structure cannot follow.
const DENIED: &[&str] = &[
    "__syncthreads",
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
    "__syncwarp",
    "__activemask",
    "__nanosleep",
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
    "asm",
    "__asm",
    "__asm__",
    "volatile",
    "__shared__",
    "goto",
    "static",
    "thread_local",
    "extern",
    "try",
    "throw",
    "co_await",
    "co_yield",
    "co_return",
    "cooperative_groups",
    "cg",
    "this_thread_block",
    "this_grid",
    "this_cluster",
    "tiled_partition",
    "coalesced_threads",
    "switch",
    "case",
    "default",
    "operator",
    "__builtin_setjmp",
    "setjmp",
    "longjmp",
];

/// Functions outside the file a lane loop may call: none of them waits for
/// another thread.
const CALLABLE: &[&str] = &[
    "printf", "assert", "min", "max", "abs", "labs", "llabs", "umin", "umax", "llmin", "llmax",
    "ullmin", "ullmax", "memcpy", "memset",
];

/// Math functions (each also with an `f` suffix) a lane loop may call.
const MATH: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp10",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "pow",
    "sqrt",
    "rsqrt",
    "cbrt",
    "rcbrt",
    "hypot",
    "fabs",
    "fmin",
    "fmax",
    "fma",
    "floor",
    "ceil",
    "trunc",
    "round",
    "rint",
    "lrint",
    "llrint",
    "lround",
    "llround",
    "nearbyint",
    "fmod",
    "remainder",
    "copysign",
    "erf",
    "erfc",
    "erfinv",
    "erfcinv",
    "lgamma",
    "tgamma",
    "sincos",
    "sincospi",
    "sinpi",
    "cospi",
    "normcdf",
    "normcdfinv",
    "ldexp",
    "frexp",
    "modf",
    "isnan",
    "isinf",
    "isfinite",
    "signbit",
    "fdim",
    "nextafter",
    "scalbn",
    "ilogb",
    "logb",
    "fdivide",
];

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
    "int",
    "unsigned",
    "signed",
    "char",
    "short",
    "long",
    "float",
    "double",
    "bool",
    "void",
    "__attribute__",
    "alignas",
    "__align__",
];

/// Built-in type words a declaration may start with.
const TYPE_WORDS: &[&str] = &[
    "int",
    "unsigned",
    "signed",
    "char",
    "short",
    "long",
    "float",
    "double",
    "bool",
    "void",
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

/// The lane-loop form of every kernel of a file that can have one: edits
/// `(at, at, text)` that insert it after each such kernel's `{`. `path` is
/// the C string literal of the file's name for `#line`; `edited` the byte
/// ranges other rewrites replace (a kernel with one inside keeps fibers).
pub(super) fn lane_loops(
    source: &str,
    tokens: &[CodeToken],
    path: &str,
    edited: &[(usize, usize)],
) -> Vec<(usize, usize, String)> {
    let file = File::new(source, tokens);
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.directive.is_some() || file.text(k) != "__global__" {
            continue;
        }
        let Some(kernel) = file.kernel_at(k) else {
            continue;
        };
        let (from, to) = (tokens[kernel.open].start, tokens[kernel.close].end);
        if edited.iter().any(|&(s, e)| s < to && e > from) {
            continue;
        }
        if let Some(text) = Writer::write(&file, &kernel, path) {
            let at = tokens[kernel.open].end;
            out.push((at, at, text));
        }
    }
    out
}

/// A `__global__` function: its parameters' names and its body's braces.
struct Kernel {
    params: Vec<usize>,
    open: usize,
    close: usize,
}

struct File<'a> {
    source: &'a str,
    tokens: &'a [CodeToken],
    /// The file's macros: each name's body (the first definition).
    macros: std::collections::HashMap<&'a str, (usize, usize)>,
    /// The file's functions: each name's token and body braces (the first
    /// definition).
    functions: std::collections::HashMap<&'a str, Function>,
    /// The functions that hold a warp operation, or call one that does.
    warp_functions: std::collections::HashSet<&'a str>,
}

/// A function defined in the file.
#[derive(Clone, Copy)]
struct Function {
    name: usize,
    open: usize,
    close: usize,
}

impl<'a> File<'a> {
    fn new(source: &'a str, tokens: &'a [CodeToken]) -> Self {
        let mut f = File {
            source,
            tokens,
            macros: Default::default(),
            functions: Default::default(),
            warp_functions: Default::default(),
        };
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
    fn function_at(&self, k: usize) -> Option<Function> {
        if self.tokens[k].directive.is_some()
            || !self.ident(k)
            || !self.is(k + 1, "(")
            || NOT_CALLS.contains(&self.text(k))
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

    /// Whether token `k` calls a warp operation or a warp function.
    fn warp_call(&self, k: usize) -> bool {
        self.ident(k)
            && self.is(k + 1, "(")
            && (WARP_OPERATIONS.contains(&self.text(k))
                || self.warp_functions.contains(self.text(k)))
            && !(k > 0 && (self.is(k - 1, ".") || self.is(k - 1, ">")))
    }

    fn text(&self, k: usize) -> &str {
        let t = &self.tokens[k];
        &self.source[t.start..t.end]
    }

    fn is(&self, k: usize, s: &str) -> bool {
        k < self.tokens.len() && self.text(k) == s
    }

    fn ident(&self, k: usize) -> bool {
        k < self.tokens.len() && self.tokens[k].kind == TokenKind::Ident
    }

    /// The token that closes the bracket opened at `open`.
    fn closing(&self, open: usize) -> Option<usize> {
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
    fn kernel_at(&self, k: usize) -> Option<Kernel> {
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
                        .filter(|&j| self.ident(j) && !TYPE_WORDS.contains(&self.text(j)))
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
    fn macro_body(&self, name: &str) -> Option<(usize, usize)> {
        self.macros.get(name).copied()
    }

    /// The body of the macro whose name is token `k` of a `#define` line
    /// (after its parameters for a function-like one).
    fn macro_body_at(&self, k: usize) -> Option<(usize, usize)> {
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

    /// Where the function `name` is defined in the file: its body's braces.
    fn definition(&self, name: &str) -> Option<(usize, usize)> {
        self.functions.get(name).map(|g| (g.open, g.close))
    }
}

/// One statement of a body, as far as the lane loop needs to know.
#[derive(Debug)]
enum Stmt {
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
}

impl Stmt {
    fn range(&self) -> (usize, usize) {
        match self {
            Stmt::Simple(a, b) | Stmt::Block(a, b, _) | Stmt::Do(a, b) => (*a, *b),
            Stmt::For(open, _, body) | Stmt::While(open, _, body) => (open - 1, body.range().1),
            Stmt::If(open, _, then, other) => (
                open - 1,
                other.as_ref().map_or(then.range().1, |o| o.range().1),
            ),
        }
    }
}

/// Parses the statements of `from..to` (exclusive), skipping `#pragma`
/// lines; None for anything else it does not follow.
fn statements(f: &File, from: usize, to: usize) -> Option<Vec<Stmt>> {
    let mut out = Vec::new();
    let mut k = from;
    while k < to {
        if let Some(hash) = f.tokens[k].directive {
            if !f.is(hash + 1, "pragma") {
                return None;
            }
            k += 1;
            continue;
        }
        let (stmt, next) = statement(f, k, to)?;
        out.push(stmt);
        k = next;
    }
    Some(out)
}

fn statement(f: &File, k: usize, to: usize) -> Option<(Stmt, usize)> {
    let skip_pragmas = |mut j: usize| {
        while j < to && f.tokens[j].directive.is_some() {
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
        "do" => {
            let (_, next) = statement(f, skip_pragmas(k + 1), to)?;
            let w = skip_pragmas(next);
            if !f.is(w, "while") || !f.is(w + 1, "(") {
                return None;
            }
            let semi = f.closing(w + 1)? + 1;
            f.is(semi, ";").then_some((Stmt::Do(k, semi), semi + 1))
        }
        "else" | "if" | "for" | "while" => None,
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
fn statement_end(f: &File, k: usize, b: usize) -> Option<usize> {
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

/// Whether tokens `a..=b` hold a warp operation's call.
fn has_warp_operation(f: &File, a: usize, b: usize) -> bool {
    (a..=b).any(|k| f.warp_call(k))
}

/// The checks on everything a lane loop runs, whatever its place: the names
/// it may not use, the functions it may call, loops that could poll. `seen`
/// holds the file's functions already checked.
fn runnable(f: &File, a: usize, b: usize, seen: &mut Vec<String>) -> bool {
    // Code skips its `#pragma` lines; a macro's body is all one line.
    let in_macro = f.tokens[a].directive.is_some();
    for k in a..=b.min(f.tokens.len() - 1) {
        if f.tokens[k].directive.is_some() && !in_macro {
            continue;
        }
        let s = f.text(k);
        if DENIED.contains(&s) {
            return false;
        }
        // A macro of the file: what it expands to is checked as if written here
        // (a warp operation in one would not be seen as one).
        if let Some((ma, mb)) = f.macro_body(s)
            && ma <= mb
            && !seen.iter().any(|n| n == s)
            && (has_warp_operation(f, ma, mb) || {
                seen.push(s.to_string());
                !runnable(f, ma, mb, seen)
            })
        {
            return false;
        }
        // A lambda: `[` where an operand starts, `]` then `(` or `{`.
        if s == "[" && k > 0 && matches!(f.text(k - 1), "(" | "," | "=" | "{" | ";" | "return") {
            return false;
        }
        if matches!(s, "for" | "while" | "do") && loop_polls(f, k, b) {
            return false;
        }
        // A declarator with a direct initializer (`unsigned x(seed)`, `T y(a, b)`)
        // follows its type; a call never follows a name but a keyword's.
        let declarator = k > 0
            && f.ident(k - 1)
            && !matches!(
                f.text(k - 1),
                "return" | "else" | "new" | "throw" | "case" | "do"
            );
        if f.ident(k)
            && (f.is(k + 1, "(") || f.is(k + 1, "<"))
            && !NOT_CALLS.contains(&s)
            && !declarator
        {
            if k > 0 && (f.is(k - 1, ".") || f.is(k - 1, ">") && f.is(k - 2, "-")) {
                return false; // a member function
            }
            if f.is(k + 1, "<") && !template_call(f, k + 1) {
                continue; // a comparison
            }
            if !callable(f, s, seen) {
                return false;
            }
        }
    }
    true
}

/// Whether the `<` at `k` opens template arguments followed by a call.
fn template_call(f: &File, k: usize) -> bool {
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

/// Whether the loop whose keyword is `k` holds an atomic (which a lane
/// could poll, waiting for another).
fn loop_polls(f: &File, k: usize, end: usize) -> bool {
    let stop = if f.text(k) == "do" {
        statement(f, k, end + 1).map_or(end, |(s, _)| s.range().1)
    } else if let Some(close) = f.closing(k + 1) {
        statement(f, close + 1, end + 1).map_or(end, |(s, _)| s.range().1)
    } else {
        end
    };
    // A loop of the warp's (holding a warp operation) is no lane's: its
    // condition is checked apart (Uniform::expression).
    let stop = stop.min(end);
    !has_warp_operation(f, k, stop) && (k..=stop).any(|j| atomic(f.text(j)))
}

fn atomic(name: &str) -> bool {
    name.starts_with("atomic") || name.starts_with("__nv_atomic") || name.starts_with("__atomic")
}

fn callable(f: &File, name: &str, seen: &mut Vec<String>) -> bool {
    if WARP_OPERATIONS.contains(&name) || seen.iter().any(|s| s == name) {
        return true;
    }
    if f.macro_body(name).is_some() {
        return true; // runnable() looks into it
    }
    if let Some((open, close)) = f.definition(name) {
        seen.push(name.to_string());
        return runnable(f, open, close, seen);
    }
    let base = name.strip_suffix('f').unwrap_or(name);
    CALLABLE.contains(&name)
        || MATH.contains(&name)
        || MATH.contains(&base)
        || name.starts_with("atomic")
        || name.starts_with("make_")
        || name.starts_with("curand")
        || (name.starts_with("__") && !DENIED.contains(&name))
}

/// A local a lane loop keeps per lane: its name and the array it lives in.
struct LaneLocal {
    name: String,
    array: String,
}

/// A declaration statement, taken apart.
struct Declaration {
    /// Tokens of the type written before the declarators.
    ty: (usize, usize),
    auto: bool,
    declarators: Vec<Declarator>,
}

struct Declarator {
    /// `*` and cv words between the type and the name.
    pointer: Option<(usize, usize)>,
    name: usize,
    /// `[N]...` after the name.
    dims: Option<(usize, usize)>,
    init: Init,
}

enum Init {
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
fn declaration(f: &File, a: usize, semi: usize) -> Result<Option<Declaration>, ()> {
    let mut k = a;
    let (mut auto, mut builtin, mut named) = (false, false, false);
    while k < semi {
        let s = f.text(k);
        if TYPE_WORDS.contains(&s) {
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
        if !f.ident(k) || TYPE_WORDS.contains(&f.text(k)) || NOT_TYPES.contains(&f.text(k)) {
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
const NOT_TYPES: &[&str] = &[
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
fn template_arguments_end(f: &File, k: usize, semi: usize) -> Option<usize> {
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

/// What differs between lanes, for the conditions of the warp's loops and
/// branches: every local the kernel declares or parameter it has, except
/// those written only with values that are the same for every lane, at the
/// warp's level (their declaration, a warp-level `for`'s clauses, a
/// warp-level statement that assigns them).
struct Uniform {
    varying: Vec<String>,
}

impl Uniform {
    /// Whether tokens `a..=b` are the same for every lane: no `threadIdx`,
    /// no varying name, no warp operation or atomic, no call but of a math
    /// function or intrinsic (a function of the file could read `threadIdx`;
    /// the clocks differ between lanes), and no macro of the file whose text
    /// has any of those.
    fn expression(&self, f: &File, a: usize, b: usize) -> bool {
        self.tokens_uniform(f, a, b, 0)
    }

    fn tokens_uniform(&self, f: &File, a: usize, b: usize, depth: usize) -> bool {
        (a..=b).all(|k| {
            if !f.ident(k) || (k > a && f.is(k - 1, ".")) {
                return true;
            }
            let s = f.text(k);
            if s == "threadIdx"
                || WARP_OPERATIONS.contains(&s)
                || atomic(s)
                || s.contains("clock")
                || s.contains("globaltimer")
                || self.varying.iter().any(|v| v == s)
            {
                return false;
            }
            if f.is(k + 1, "(") && !NOT_CALLS.contains(&s) && f.definition(s).is_some() {
                return false;
            }
            match f.macro_body(s) {
                Some((ma, mb)) if ma <= mb => {
                    depth < 8 && self.tokens_uniform(f, ma, mb, depth + 1)
                }
                _ => true,
            }
        })
    }
}

/// Builds the lane-loop text of one kernel.
struct Writer<'a> {
    f: &'a File<'a>,
    path: &'a str,
    out: String,
    /// The lane locals visible, innermost scope last (a scope's start index).
    locals: Vec<LaneLocal>,
    scopes: Vec<usize>,
    uniform: Uniform,
    next_id: usize,
    /// The kernel's parameters' names (shared by the lanes unless the kernel
    /// changes them: then they are lane locals too).
    params: Vec<String>,
    /// Inside a warp function written out in place of its call: where a
    /// `return` puts the lane's value (None for a `void` function).
    function: Option<Option<String>>,
    /// How many warp functions deep.
    depth: usize,
}

impl<'a> Writer<'a> {
    fn write(f: &'a File<'a>, kernel: &Kernel, path: &'a str) -> Option<String> {
        let items = statements(f, kernel.open + 1, kernel.close)?;
        if !has_warp_operation(f, kernel.open, kernel.close)
            || !runnable(f, kernel.open + 1, kernel.close - 1, &mut Vec::new())
        {
            return None;
        }
        let uniform = uniform_names(f, kernel, &items)?;

        let mut w = Writer {
            f,
            path,
            out: String::new(),
            locals: Vec::new(),
            scopes: vec![0],
            uniform,
            next_id: 0,
            params: kernel
                .params
                .iter()
                .map(|&p| f.text(p).to_string())
                .collect(),
            function: None,
            depth: 0,
        };
        w.out.push_str(
            " if (const int cuda_emu_mode_ = ::cuda_emu::lane_loop_start()) { \
             if (cuda_emu_mode_ == 1) { [&]() { \
             unsigned cuda_emu_live_ = ::cuda_emu::lane_loop_live();",
        );
        // A parameter the kernel changes is each thread's own: one per lane.
        for &p in &kernel.params {
            let name = f.text(p).to_string();
            let changed = (kernel.open + 1..kernel.close)
                .any(|k| f.text(k) == name && (writes(f, k) || f.is(k + 1, ".")));
            if !changed {
                continue;
            }
            let array = format!("cuda_emu_lv_{name}_");
            w.out.push_str(&format!(
                " std::remove_cv_t<decltype({name})> {array}[32]; \
                 for (int cuda_emu_l_ = 0; cuda_emu_l_ < 32; ++cuda_emu_l_) {array}[cuda_emu_l_] = {name};"
            ));
            w.bind_at_warp_level(&name, &array);
        }
        for item in &items {
            w.item(item)?;
        }
        let brace = &f.tokens[kernel.open];
        w.out.push_str(&format!(
            " }}(); ::cuda_emu::lane_loop_end(); }} return; }}\n#line {} {}\n{}",
            brace.line,
            path,
            " ".repeat(brace.column as usize)
        ));
        Some(w.out)
    }

    fn bind_at_warp_level(&mut self, name: &str, array: &str) {
        self.out.push_str(&format!(
            " auto& {name} __attribute__((unused)) = {array}[0];"
        ));
        self.locals.push(LaneLocal {
            name: name.to_string(),
            array: array.to_string(),
        });
    }

    /// Source text `a..=b` under a `#line` naming its place.
    fn source(&mut self, a: usize, b: usize, returns: Option<usize>) -> Option<()> {
        let (first, last) = (&self.f.tokens[a], &self.f.tokens[b]);
        self.out.push_str(&format!(
            "\n#line {} {}\n{}",
            first.line,
            self.path,
            " ".repeat(first.column.saturating_sub(1) as usize)
        ));
        let mut at = first.start;
        let mut k = a;
        while k <= b {
            if self.f.text(k) != "return" {
                k += 1;
                continue;
            }
            let label = returns?;
            let semi = statement_end(self.f, k, b)?;
            let t = &self.f.tokens[k];
            self.out.push_str(&self.f.source[at..t.start]);
            let leave = format!(
                "cuda_emu_live_ &= ~(1u << cuda_emu_lane_); goto cuda_emu_next{label}_; }}"
            );
            match &self.function {
                None if semi == k + 1 => self.out.push_str(&format!(
                    "{{ ::cuda_emu::lane_return(cuda_emu_lane_); {leave}"
                )),
                Some(None) if semi == k + 1 => self.out.push_str(&format!("{{ {leave}")),
                Some(Some(result)) if semi > k + 1 => {
                    let value = self.span_text(k + 1, semi - 1, &[]);
                    self.out
                        .push_str(&format!("{{ {result}[cuda_emu_lane_] = ({value}); {leave}"));
                }
                _ => return None,
            }
            at = self.f.tokens[semi].end;
            k = semi + 1;
        }
        self.out.push_str(&self.f.source[at..last.end]);
        Some(())
    }

    /// Opens a loop over the live lanes, with every lane local bound; each
    /// lane is made the running thread (threadIdx, the runtime's records)
    /// where `thread` says the code may ask which thread runs.
    fn lanes_open(&mut self, thread: bool) -> usize {
        let id = self.next_id;
        self.next_id += 1;
        self.out.push_str(
            " for (unsigned cuda_emu_left_ = cuda_emu_live_; cuda_emu_left_; cuda_emu_left_ &= cuda_emu_left_ - 1) { \
             const int cuda_emu_lane_ = __builtin_ctz(cuda_emu_left_);",
        );
        if thread {
            self.out
                .push_str(" ::cuda_emu::lane_enter(cuda_emu_lane_);");
        }
        // The innermost local of each name (an inner scope's hides an outer's).
        let mut bound: Vec<&str> = Vec::new();
        let mut text = String::new();
        for l in self.locals.iter().rev() {
            if !bound.contains(&l.name.as_str()) {
                bound.push(&l.name);
                text.push_str(&format!(
                    " auto& {} __attribute__((unused)) = {}[cuda_emu_lane_];",
                    l.name, l.array
                ));
            }
        }
        self.out.push_str(&text);
        self.out.push_str(" {");
        id
    }

    /// Whether code `a..=b` (but the `skip`ped ranges) may ask which thread
    /// runs: it names something other than the lane's locals, the
    /// parameters, the block's coordinates and keywords (a function, a macro,
    /// a global, `threadIdx`).
    fn needs_thread(&self, a: usize, b: usize, skip: &[Replacement]) -> bool {
        let f = self.f;
        (a..=b).any(|k| {
            if !f.ident(k) || skip.iter().any(|r| (r.first..=r.last).contains(&k)) {
                return false;
            }
            if k > 0 && (f.is(k - 1, ".") || (f.is(k - 1, ">") && f.is(k - 2, "-"))) {
                return false; // a member
            }
            let s = f.text(k);
            s == "threadIdx"
                || !(self.locals.iter().any(|l| l.name == s)
                    || self.params.iter().any(|p| p == s)
                    || TYPE_WORDS.contains(&s)
                    || NOT_TYPES.contains(&s)
                    || matches!(s, "blockIdx" | "blockDim" | "gridDim" | "warpSize"))
        })
    }

    fn lanes_close(&mut self, id: usize) {
        self.out.push_str(&format!(" }} cuda_emu_next{id}_:; }}"));
    }

    fn scope_open(&mut self) {
        self.out.push_str(" {");
        self.scopes.push(self.locals.len());
    }

    fn scope_close(&mut self) {
        let n = self.scopes.pop().unwrap_or(0);
        self.locals.truncate(n);
        self.out.push_str(" }");
    }

    /// One statement at the warp's level.
    fn item(&mut self, s: &Stmt) -> Option<()> {
        let f = self.f;
        let (a, b) = s.range();
        if !has_warp_operation(f, a, b) {
            return self.plain(s);
        }
        match s {
            Stmt::Block(_, _, items) => {
                self.scope_open();
                for i in items {
                    self.item(i)?;
                }
                self.scope_close();
                Some(())
            }
            Stmt::For(open, close, body) => self.warp_for(*open, *close, body),
            Stmt::While(open, close, body) => {
                self.scope_open();
                self.out.push_str(" for (;;) {");
                self.agree(open + 1, close - 1, "a loop's condition", " break;")?;
                self.body(body)?;
                self.out.push_str(" }");
                self.scope_close();
                Some(())
            }
            Stmt::If(open, close, then, other) => {
                self.scope_open();
                let id = self.condition(open + 1, close - 1, "a branch's condition")?;
                self.out
                    .push_str(&format!(" if (cuda_emu_agree{id}_ == 1)"));
                self.body(then)?;
                if let Some(other) = other {
                    self.out
                        .push_str(&format!(" else if (cuda_emu_agree{id}_ == 0)"));
                    self.body(other)?;
                }
                self.scope_close();
                Some(())
            }
            Stmt::Do(..) => None,
            Stmt::Simple(a, semi) => self.warp_statement(*a, *semi, false),
        }
    }

    /// A statement with no warp operation: one loop over the lanes (a
    /// declaration at the warp's level is kept per lane).
    fn plain(&mut self, s: &Stmt) -> Option<()> {
        let f = self.f;
        let (a, b) = s.range();
        if let Stmt::Simple(a, semi) = *s {
            match f.text(a) {
                "break" if f.is(a + 1, ";") => {
                    self.out.push_str(" break;");
                    return Some(());
                }
                "return" if f.is(a + 1, ";") && self.function.is_none() => {
                    self.out.push_str(" return;");
                    return Some(());
                }
                "continue" | "break" | "return" => return None,
                "typedef" | "using" | "static_assert" | "constexpr" => {
                    return self.source(a, semi, None);
                }
                ";" => return Some(()),
                _ => {}
            }
            if let Some(d) = declaration(f, a, semi).ok()? {
                return self.declare(&d, &[]);
            }
        }
        if escapes(f, s, false, false) {
            return None;
        }
        let id = self.lanes_open(self.needs_thread(a, b, &[]));
        self.source(a, b, Some(id))?;
        self.lanes_close(id);
        Some(())
    }

    /// A declaration at the warp's level: an array per declarator, then one
    /// loop over the lanes that gives each its value. `warp` lists the
    /// replacements of warp operations in the initializers.
    fn declare(&mut self, d: &Declaration, warp: &[Replacement]) -> Option<()> {
        let f = self.f;
        let ty = self.span_text(d.ty.0, d.ty.1, &[]);
        let mut inits = Vec::new();
        for decl in &d.declarators {
            let name = f.text(decl.name).to_string();
            let array = format!("cuda_emu_lv_{name}_{}", self.next_id);
            self.next_id += 1;
            let pointer = decl
                .pointer
                .map_or(String::new(), |(a, b)| self.span_text(a, b, &[]));
            let dims = decl
                .dims
                .map_or(String::new(), |(a, b)| self.span_text(a, b, &[]));
            let element = if d.auto {
                let Init::Copy(a, b) = decl.init else {
                    return None;
                };
                format!("std::decay_t<decltype({})>", self.span_text(a, b, &[]))
            } else {
                format!("std::remove_cv_t<{ty} {pointer}>")
            };
            self.out.push_str(&format!(" {element} {array}[32]{dims};"));
            self.bind_at_warp_level(&name, &array);
            match decl.init {
                Init::None => {}
                Init::Copy(a, b) => {
                    inits.push((decl.name, format!("{name} = "), a, b, String::new()))
                }
                Init::Direct(open, close) => inits.push((
                    decl.name,
                    format!("{name} = std::remove_cv_t<{ty} {pointer}>"),
                    open,
                    close,
                    String::new(),
                )),
            }
        }
        if inits.is_empty() {
            return Some(());
        }
        let thread = inits
            .iter()
            .any(|&(_, _, a, b, _)| self.needs_thread(a, b, warp));
        let id = self.lanes_open(thread);
        for (name_tok, lead, a, b, _) in inits {
            let t = &f.tokens[name_tok];
            self.out.push_str(&format!(
                "\n#line {} {}\n{}{lead}",
                t.line,
                self.path,
                " ".repeat(t.column.saturating_sub(1) as usize)
            ));
            let text = self.span_text(a, b, warp);
            self.out.push_str(&text);
            self.out.push(';');
        }
        self.lanes_close(id);
        Some(())
    }

    /// Tokens `a..=b` as written (comments and line breaks included), with
    /// the replacements whose ranges fall inside.
    fn span_text(&self, a: usize, b: usize, replacements: &[Replacement]) -> String {
        let f = self.f;
        let mut out = String::new();
        let mut at = f.tokens[a].start;
        for r in replacements {
            let (s, e) = (f.tokens[r.first].start, f.tokens[r.last].end);
            if s >= at && e <= f.tokens[b].end {
                out.push_str(&f.source[at..s]);
                out.push_str(&r.text);
                at = e;
            }
        }
        out.push_str(&f.source[at..f.tokens[b].end]);
        out
    }

    /// The lanes evaluate a condition; they must agree. Leaves its value in
    /// `cuda_emu_agree{id}_` (1 true, 0 false, -1 no live lane).
    fn condition(&mut self, a: usize, b: usize, what: &str) -> Option<usize> {
        if a > b || !self.uniform.expression(self.f, a, b) {
            return None;
        }
        let id = self.next_id;
        self.next_id += 1;
        self.out
            .push_str(&format!(" int cuda_emu_agree{id}_ = -1;"));
        let lanes = self.lanes_open(self.needs_thread(a, b, &[]));
        self.out
            .push_str(" const bool cuda_emu_c_ = static_cast<bool>(");
        self.source(a, b, None)?;
        self.out.push_str(&format!(
            "); if (cuda_emu_agree{id}_ < 0) cuda_emu_agree{id}_ = cuda_emu_c_; \
             else if (cuda_emu_agree{id}_ != cuda_emu_c_) ::cuda_emu::lanes_disagree(__FILE__, __LINE__, \"{what}\");"
        ));
        self.lanes_close(lanes);
        Some(id)
    }

    fn agree(&mut self, a: usize, b: usize, what: &str, otherwise: &str) -> Option<()> {
        let id = self.condition(a, b, what)?;
        self.out
            .push_str(&format!(" if (cuda_emu_agree{id}_ != 1){otherwise}"));
        Some(())
    }

    /// A loop or branch body at the warp's level.
    fn body(&mut self, s: &Stmt) -> Option<()> {
        self.scope_open();
        match s {
            Stmt::Block(_, _, items) => {
                for i in items {
                    self.item(i)?;
                }
            }
            other => self.item(other)?,
        }
        self.scope_close();
        Some(())
    }

    fn warp_for(&mut self, open: usize, close: usize, body: &Stmt) -> Option<()> {
        let f = self.f;
        let semis: Vec<usize> = {
            let mut v = Vec::new();
            let mut k = open + 1;
            while k < close {
                match f.text(k) {
                    ";" => v.push(k),
                    "(" | "[" | "{" => k = f.closing(k)?,
                    _ => {}
                }
                k += 1;
            }
            v
        };
        let [s1, s2] = semis[..] else {
            return None; // a range-for
        };
        if has_warp_operation(f, open, close) {
            return None;
        }
        self.scope_open();
        if s1 > open + 1 {
            let init = Stmt::Simple(open + 1, s1);
            self.plain(&init)?;
        }
        self.out.push_str(" for (;;) {");
        if s2 > s1 + 1 {
            self.agree(s1 + 1, s2 - 1, "a loop's condition", " break;")?;
        }
        self.body(body)?;
        if close > s2 + 1 {
            let id = self.lanes_open(self.needs_thread(s2 + 1, close - 1, &[]));
            self.source(s2 + 1, close - 1, None)?;
            self.out.push(';');
            self.lanes_close(id);
        }
        self.out.push_str(" }");
        self.scope_close();
        Some(())
    }

    /// An expression or declaration statement holding warp operations (or,
    /// `returning`, a warp function's last statement `return e;`): for each
    /// warp intrinsic, a pass in which every live lane records its call and
    /// the computation of their results; for each warp function, its body
    /// written out in place; then the statement's pass, each call replaced by
    /// the lane's result.
    fn warp_statement(&mut self, a: usize, semi: usize, returning: bool) -> Option<()> {
        let f = self.f;
        let from = if returning { a + 1 } else { a };
        let conditional = |k: usize| {
            f.is(k, "?")
                || (f.is(k, "&") && f.is(k + 1, "&"))
                || (f.is(k, "|") && f.is(k + 1, "|"))
                || matches!(f.text(k), "return" | "break" | "continue")
        };
        if from >= semi || (from..semi).any(conditional) {
            return None;
        }
        let mut replacements = Vec::new();
        let mut k = from;
        while k < semi {
            if !f.warp_call(k) {
                k += 1;
                continue;
            }
            let close = f.closing(k + 1)?;
            if has_warp_operation(f, k + 2, close) {
                return None; // one inside another's arguments
            }
            let text = if WARP_OPERATIONS.contains(&f.text(k)) {
                self.intrinsic(k, close)?
            } else {
                let value = self.inline_call(k, close)?;
                match value {
                    Some(v) => v,
                    // A void function: the statement is the call alone.
                    None if !returning && k == a && close + 1 == semi => return Some(()),
                    None => return None,
                }
            };
            replacements.push(Replacement {
                first: k,
                last: close,
                text,
            });
            k = close + 1;
        }
        if returning {
            let result = self.function.clone()??;
            let lanes = self.lanes_open(self.needs_thread(from, semi, &replacements));
            self.line_of(from);
            let value = self.span_text(from, semi - 1, &replacements);
            self.out
                .push_str(&format!("{result}[cuda_emu_lane_] = ({value});"));
            self.lanes_close(lanes);
            return Some(());
        }
        if let Some(d) = declaration(f, a, semi).ok()? {
            return self.declare(&d, &replacements);
        }
        let lanes = self.lanes_open(self.needs_thread(a, semi, &replacements));
        self.line_of(a);
        let text = self.span_text(a, semi, &replacements);
        self.out.push_str(&text);
        self.lanes_close(lanes);
        Some(())
    }

    /// A `#line` for token `k`, and spaces up to its column.
    fn line_of(&mut self, k: usize) {
        let t = &self.f.tokens[k];
        self.out.push_str(&format!(
            "\n#line {} {}\n{}",
            t.line,
            self.path,
            " ".repeat(t.column.saturating_sub(1) as usize)
        ));
    }

    /// A warp intrinsic's call `k..=close`: every live lane records its call,
    /// then the results are computed. What the statement's pass reads instead.
    fn intrinsic(&mut self, k: usize, close: usize) -> Option<String> {
        let id = self.next_id;
        self.next_id += 1;
        let call = self.span_text(k, close, &[]);
        self.out.push_str(&format!(
            " unsigned long long cuda_emu_r{id}_[32]; ::cuda_emu::lane_calls_begin();"
        ));
        let lanes = self.lanes_open(true);
        self.out.push_str(" (void)(");
        self.source(k, close, None)?;
        self.out.push_str(");");
        self.lanes_close(lanes);
        self.out.push_str(&format!(
            " ::cuda_emu::lanes_meet(cuda_emu_live_, cuda_emu_r{id}_);"
        ));
        Some(format!(
            "::cuda_emu::lane_result<decltype({call})>(cuda_emu_r{id}_, cuda_emu_lane_)"
        ))
    }

    /// A call `k..=close` of a warp function of the file, written out in
    /// place: each lane's arguments into arrays of the parameters, then the
    /// function's body as a lane loop of its own (its lanes' `return`s leave
    /// it, not the kernel). What the statement's pass reads instead: Some(the
    /// lane's result), None for a `void` function. None (outer) where the
    /// function is not one this module writes out.
    fn inline_call(&mut self, k: usize, close: usize) -> Option<Option<String>> {
        let f = self.f;
        let function = *f.functions.get(f.text(k))?;
        if self.depth >= 4 {
            return None;
        }
        let signature = signature(f, function)?;
        let args = arguments(f, k + 1, close)?;
        if args.len() != signature.params.len() {
            return None;
        }
        let items = statements(f, function.open + 1, function.close)?;
        let param_tokens: Vec<usize> = signature.params.iter().map(|p| p.name).collect();
        let (uniform, declared) = names_of(
            f,
            &param_tokens,
            function.open,
            function.close,
            &items,
            true,
        )?;
        // A name of the function's that the kernel's locals would hide here.
        let hidden = (function.open..function.close).any(|j| {
            let s = f.text(j);
            f.ident(j)
                && !(j > 0 && (f.is(j - 1, ".") || f.is(j - 1, ">")))
                && !declared.iter().any(|d| d == s)
                && (self.locals.iter().any(|l| l.name == s) || self.params.iter().any(|p| p == s))
        });
        if hidden {
            return None;
        }
        let id = self.next_id;
        self.next_id += 1;
        // The arguments, lane by lane, into the parameters' arrays.
        let arrays: Vec<String> = signature
            .params
            .iter()
            .map(|p| format!("cuda_emu_lv_{}_{id}", f.text(p.name)))
            .collect();
        for (p, array) in signature.params.iter().zip(&arrays) {
            let ty = self.span_text(p.ty.0, p.ty.1, &[]);
            self.out
                .push_str(&format!(" std::remove_cv_t<{ty}> {array}[32];"));
        }
        let lanes = self.lanes_open(true);
        for (&(a, b), array) in args.iter().zip(&arrays) {
            self.line_of(a);
            let value = self.span_text(a, b, &[]);
            self.out
                .push_str(&format!("{array}[cuda_emu_lane_] = ({value});"));
        }
        self.lanes_close(lanes);
        let result = signature.returns.map(|(a, b)| {
            let ty = self.span_text(a, b, &[]);
            let array = format!("cuda_emu_fr{id}_");
            self.out
                .push_str(&format!(" std::remove_cv_t<{ty}> {array}[32];"));
            array
        });
        // The body: a live mask of its own (a lane that returns leaves it).
        self.out.push_str(&format!(
            " {{ const unsigned cuda_emu_outer{id}_ = cuda_emu_live_; \
             {{ unsigned cuda_emu_live_ = cuda_emu_outer{id}_;"
        ));
        self.scopes.push(self.locals.len());
        for (p, array) in signature.params.iter().zip(&arrays) {
            let name = f.text(p.name).to_string();
            self.bind_at_warp_level(&name, array);
        }
        let saved_uniform = std::mem::replace(&mut self.uniform, uniform);
        let saved_function = self.function.replace(result.clone());
        self.depth += 1;
        let mut written = Some(());
        for (n, item) in items.iter().enumerate() {
            let last = n + 1 == items.len();
            written = match *item {
                Stmt::Simple(a, semi) if f.is(a, "return") && last => {
                    if has_warp_operation(f, a, semi) {
                        self.warp_statement(a, semi, true)
                    } else {
                        self.returned(a, semi)
                    }
                }
                _ => self.item(item),
            };
            if written.is_none() {
                break;
            }
        }
        self.depth -= 1;
        self.function = saved_function;
        self.uniform = saved_uniform;
        let n = self.scopes.pop().unwrap_or(0);
        self.locals.truncate(n);
        written?;
        self.out.push_str(" } }");
        Some(result.map(|array| format!("{array}[cuda_emu_lane_]")))
    }

    /// A warp function's last statement `return e;` with no warp operation.
    fn returned(&mut self, a: usize, semi: usize) -> Option<()> {
        let result = self.function.clone()??;
        if semi == a + 1 {
            return None;
        }
        let lanes = self.lanes_open(self.needs_thread(a + 1, semi - 1, &[]));
        self.line_of(a + 1);
        let value = self.span_text(a + 1, semi - 1, &[]);
        self.out
            .push_str(&format!("{result}[cuda_emu_lane_] = ({value});"));
        self.lanes_close(lanes);
        Some(())
    }
}

/// A warp function's return type (None: `void`) and parameters.
struct Signature {
    returns: Option<(usize, usize)>,
    params: Vec<Param>,
}

struct Param {
    ty: (usize, usize),
    name: usize,
}

/// The signature of a function of the file, if the lane loop can write out
/// its calls: no template, no reference or array parameter, no default
/// argument, no pack.
fn signature(f: &File, g: Function) -> Option<Signature> {
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
            if !f.ident(b) || TYPE_WORDS.contains(&f.text(b)) {
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
fn arguments(f: &File, open: usize, close: usize) -> Option<Vec<(usize, usize)>> {
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

/// A warp operation's call and what the statement's pass reads instead.
struct Replacement {
    first: usize,
    last: usize,
    text: String,
}

/// Whether a statement run inside the lanes' loop has a `break` or
/// `continue` that would leave it.
fn escapes(f: &File, s: &Stmt, in_loop: bool, in_switch: bool) -> bool {
    match s {
        Stmt::Simple(a, b) => (*a..=*b).any(|k| {
            (f.is(k, "break") && !in_loop && !in_switch) || (f.is(k, "continue") && !in_loop)
        }),
        Stmt::Block(_, _, items) => items.iter().any(|i| escapes(f, i, in_loop, in_switch)),
        Stmt::For(_, _, _) | Stmt::While(_, _, _) | Stmt::Do(..) => false,
        Stmt::If(_, _, then, other) => {
            escapes(f, then, in_loop, in_switch)
                || other
                    .as_ref()
                    .is_some_and(|o| escapes(f, o, in_loop, in_switch))
        }
    }
}

/// The kernel's names whose value may differ between lanes (see
/// [`Uniform`]); None where the kernel writes names in ways this module does
/// not follow.
fn uniform_names(f: &File, kernel: &Kernel, items: &[Stmt]) -> Option<Uniform> {
    Some(names_of(f, &kernel.params, kernel.open, kernel.close, items, false)?.0)
}

/// What [`uniform_names`] finds for a body `open..close` with parameters
/// `params` (which vary between lanes where `params_vary`: a function's
/// arguments), and every name the body declares at the warp's level.
fn names_of(
    f: &File,
    params: &[usize],
    open: usize,
    close: usize,
    items: &[Stmt],
    params_vary: bool,
) -> Option<(Uniform, Vec<String>)> {
    let mut names: Vec<String> = params.iter().map(|&p| f.text(p).to_string()).collect();
    let mut uniform_writes: Vec<(String, usize, usize)> = Vec::new(); // name, value tokens
    let mut warp_level_writes: Vec<usize> = Vec::new(); // token of the written name
    collect_warp_level(
        f,
        items,
        &mut names,
        &mut uniform_writes,
        &mut warp_level_writes,
    )?;
    // Any other write of a name makes it vary: assignments, increments, `&`.
    let mut varying: Vec<String> = if params_vary {
        params.iter().map(|&p| f.text(p).to_string()).collect()
    } else {
        Vec::new()
    };
    for k in open + 1..close {
        if !f.ident(k) {
            continue;
        }
        let s = f.text(k);
        if s == "threadIdx" {
            continue;
        }
        let written = writes(f, k) && !warp_level_writes.contains(&k);
        if written && !varying.iter().any(|v| v == s) {
            varying.push(s.to_string());
        }
    }
    // Names declared inside lane code vary; so does anything a varying value
    // reaches at the warp's level (to a fixed point).
    let mut u = Uniform { varying };
    loop {
        let before = u.varying.len();
        for (name, a, b) in &uniform_writes {
            if !u.varying.contains(name) && (*a > *b || !u.expression(f, *a, *b)) {
                u.varying.push(name.clone());
            }
        }
        if u.varying.len() == before {
            break;
        }
    }
    Some((u, names))
}

/// Whether the name at `k` is written there: assigned, incremented,
/// decremented, or its address taken.
fn writes(f: &File, k: usize) -> bool {
    assigns(f, k)
        || (f.is(k + 1, "+") && f.is(k + 2, "+"))
        || (f.is(k + 1, "-") && f.is(k + 2, "-"))
        || (k >= 2
            && ((f.is(k - 1, "+") && f.is(k - 2, "+")) || (f.is(k - 1, "-") && f.is(k - 2, "-"))))
        || (k >= 1
            && f.is(k - 1, "&")
            && !(k >= 2 && f.is(k - 2, "&"))
            && !operand_before(f, k - 1))
}

/// Whether the name at `k` is assigned (`=`, `+=`, `<<=`, ... but not
/// `==`). Through a subscript or a member (`a[i] = `), memory is written,
/// not the name (a local array is kept per lane either way).
fn assigns(f: &File, k: usize) -> bool {
    let j = k + 1;
    if matches!(f.text(j), "+" | "-" | "*" | "/" | "%" | "&" | "|" | "^") && f.is(j + 1, "=") {
        return true;
    }
    if ((f.is(j, "<") && f.is(j + 1, "<")) || (f.is(j, ">") && f.is(j + 1, ">")))
        && f.is(j + 2, "=")
    {
        return true;
    }
    f.is(j, "=") && !f.is(j + 1, "=")
}

/// Whether the token before the `&` at `k` ends an operand (so the `&` is
/// binary).
fn operand_before(f: &File, k: usize) -> bool {
    k > 0
        && (matches!(f.tokens[k - 1].kind, TokenKind::Ident | TokenKind::Number)
            && !matches!(f.text(k - 1), "return" | "case")
            || matches!(f.text(k - 1), ")" | "]"))
}

/// Walks the warp's level: names declared there, their values, and the
/// warp-level statements that assign them.
fn collect_warp_level(
    f: &File,
    items: &[Stmt],
    names: &mut Vec<String>,
    writes: &mut Vec<(String, usize, usize)>,
    at_warp_level: &mut Vec<usize>,
) -> Option<()> {
    for s in items {
        let (a, b) = s.range();
        if !has_warp_operation(f, a, b) {
            if let Stmt::Simple(a, semi) = *s {
                simple_writes(f, a, semi, names, writes, at_warp_level);
            }
            continue;
        }
        match s {
            Stmt::Block(_, _, inner) => collect_warp_level(f, inner, names, writes, at_warp_level)?,
            Stmt::For(open, close, body) => {
                let mut k = open + 1;
                let mut clauses = Vec::new();
                let mut start = k;
                while k < *close {
                    match f.text(k) {
                        ";" => {
                            clauses.push((start, k));
                            start = k + 1;
                        }
                        "(" | "[" | "{" => k = f.closing(k)?,
                        _ => {}
                    }
                    k += 1;
                }
                clauses.push((start, *close));
                if clauses.len() == 3 {
                    let (i0, i1) = clauses[0];
                    if i1 > i0 {
                        simple_writes(f, i0, i1, names, writes, at_warp_level);
                    }
                    let (s0, s1) = clauses[2];
                    if s1 > s0 {
                        simple_writes(f, s0, s1, names, writes, at_warp_level);
                    }
                }
                collect_warp_level(f, std::slice::from_ref(body), names, writes, at_warp_level)?;
            }
            Stmt::While(_, _, body) => {
                collect_warp_level(f, std::slice::from_ref(body), names, writes, at_warp_level)?
            }
            Stmt::If(_, _, then, other) => {
                collect_warp_level(f, std::slice::from_ref(then), names, writes, at_warp_level)?;
                if let Some(o) = other {
                    collect_warp_level(f, std::slice::from_ref(o), names, writes, at_warp_level)?;
                }
            }
            Stmt::Do(..) => return None,
            Stmt::Simple(a, semi) => {
                // A warp statement: what it assigns holds a warp operation's
                // result, which may differ between lanes.
                if let Ok(Some(d)) = declaration(f, *a, *semi) {
                    for decl in &d.declarators {
                        names.push(f.text(decl.name).to_string());
                        writes.push((f.text(decl.name).to_string(), 1, 0));
                        at_warp_level.push(decl.name);
                    }
                } else if f.ident(*a) && assigns(f, *a) {
                    writes.push((f.text(*a).to_string(), 1, 0));
                    at_warp_level.push(*a);
                }
            }
        }
    }
    Some(())
}

/// The writes of a statement `a..semi` (exclusive of `semi`) at the warp's
/// level: a declaration's declarators, `x = e`, `x op= e`, `++x`, `x++`.
fn simple_writes(
    f: &File,
    a: usize,
    semi: usize,
    names: &mut Vec<String>,
    writes: &mut Vec<(String, usize, usize)>,
    at_warp_level: &mut Vec<usize>,
) {
    if let Ok(Some(d)) = declaration(f, a, semi) {
        for decl in &d.declarators {
            let name = f.text(decl.name).to_string();
            names.push(name.clone());
            at_warp_level.push(decl.name);
            match decl.init {
                Init::Copy(x, y) => writes.push((name, x, y)),
                Init::Direct(o, c) => writes.push((name, o, c)),
                Init::None => {}
            }
        }
        return;
    }
    // `x op= e` or `x = e` as the whole statement; `++x`, `x++`.
    let end = semi.saturating_sub(1);
    if f.ident(a) && assigns(f, a) {
        let mut v = a + 1;
        while !f.is(v, "=") {
            v += 1;
        }
        writes.push((f.text(a).to_string(), a, end));
        let _ = v;
        at_warp_level.push(a);
    } else if f.ident(a) && end == a + 2 && (f.is(a + 1, "+") || f.is(a + 1, "-")) {
        writes.push((f.text(a).to_string(), a, a));
        at_warp_level.push(a);
    } else if end >= a + 2 && f.ident(end) && (f.is(a, "+") || f.is(a, "-")) && end == a + 2 {
        writes.push((f.text(end).to_string(), end, end));
        at_warp_level.push(end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cxx::lexer::lex;

    /// The lane-loop texts of a source's kernels.
    fn written(source: &str) -> Vec<String> {
        let tokens = lex(source.as_bytes()).code_tokens();
        lane_loops(source, &tokens, "\"k.cu\"", &[])
            .into_iter()
            .map(|(_, _, text)| text)
            .collect()
    }

    /// A kernel around `body`, with `head` above it.
    fn kernel(head: &str, body: &str) -> String {
        format!("{head}\n__global__ void k(unsigned* out, int n) {{\n{body}\n}}\n")
    }

    #[test]
    fn a_loop_of_shuffles_is_written_out_with_the_lines_of_the_program() {
        let source = kernel(
            "",
            "  unsigned v = threadIdx.x;\n  for (int i = 0; i < n; ++i)\n    v += __shfl_xor_sync(0xffffffffu, v, 1);\n  out[threadIdx.x] = v;",
        );
        let texts = written(&source);
        assert_eq!(texts.len(), 1, "{source}");
        let text = &texts[0];
        // The call, on its line and column, then its result in the statement.
        assert!(
            text.contains("\n#line 5 \"k.cu\"\n         __shfl_xor_sync(0xffffffffu, v, 1));"),
            "{text}"
        );
        assert!(
            text.contains("::cuda_emu::lanes_meet(cuda_emu_live_,"),
            "{text}"
        );
        assert!(
            text.contains(
                "v += ::cuda_emu::lane_result<decltype(__shfl_xor_sync(0xffffffffu, v, 1))>("
            ),
            "{text}"
        );
        // The loop's condition is checked for agreement; the kernel as written follows
        // on the `{`'s line, at the column after it.
        assert!(
            text.contains("lanes_disagree(__FILE__, __LINE__, \"a loop's condition\")"),
            "{text}"
        );
        assert!(
            text.ends_with(&format!("\n#line 2 \"k.cu\"\n{}", " ".repeat(41))),
            "{text:?}"
        );
    }

    #[test]
    fn kernels_that_could_wait_or_diverge_keep_their_fibers() {
        let shfl = "v += __shfl_xor_sync(0xffffffffu, v, 1);";
        for (head, body) in [
            // A warp operation under a branch the lanes may take apart.
            ("", format!("unsigned v = 1; if (threadIdx.x < 16) {shfl}")),
            (
                "",
                format!("unsigned v = 1; for (int i = 0; i < threadIdx.x; ++i) {shfl}"),
            ),
            (
                "",
                format!(
                    "unsigned v = 1; int m = n; if (v) m = 2; for (int i = 0; i < m; ++i) {shfl}"
                ),
            ),
            (
                "",
                "unsigned v = 1; v = v ? __shfl_xor_sync(0xffffffffu, v, 1) : 0;".to_string(),
            ),
            // Something that waits, or that the module cannot follow.
            ("", format!("unsigned v = __activemask(); {shfl}")),
            (
                "",
                format!("unsigned v = 1; switch (n) {{ case 1: {shfl} }}"),
            ),
            ("", format!("unsigned v = 1; unknown(v); {shfl}")),
            (
                "",
                format!("unsigned v = 1; while (atomicCAS(out, 0, 1)) {{}} {shfl}"),
            ),
            ("", format!("unsigned v = 1; unsigned& r = v; {shfl}")),
            (
                "",
                format!("unsigned v = 1; auto f = [&](int x) {{ return x; }}; {shfl}"),
            ),
            (
                "",
                format!("unsigned v = 1; for (int i = 0; i < n; ++i) {{ {shfl} if (v) break; }}"),
            ),
            ("", format!("unsigned v = 1; float big[1000]; {shfl}")),
            // Macros: one that hides a warp operation, one that reads threadIdx.
            (
                "#define SHFL(x) __shfl_xor_sync(0xffffffffu, x, 1)",
                format!("unsigned v = 1; if (n) v = SHFL(v); {shfl}"),
            ),
            (
                "#define LIMIT (threadIdx.x % 3)",
                format!("unsigned v = 1; for (int i = 0; i < LIMIT; ++i) {shfl}"),
            ),
            // A function of the file that reads threadIdx, in a condition.
            (
                "__device__ int lanes() { return threadIdx.x; }",
                format!("unsigned v = 1; for (int i = 0; i < lanes(); ++i) {shfl}"),
            ),
        ] {
            let source = kernel(head, &body);
            assert!(written(&source).is_empty(), "written out:\n{source}");
        }
    }

    #[test]
    fn kernels_of_the_shapes_it_knows_are_written_out() {
        let shfl = "v += __shfl_xor_sync(0xffffffffu, v, 1);";
        for (head, body) in [
            (
                "",
                format!("unsigned v = 1; if (threadIdx.x >= n) return; {shfl} out[0] = v;"),
            ),
            (
                "#define ROUNDS 4",
                format!("unsigned v = 1; int r = 0; while (r < ROUNDS * n) {{ {shfl} ++r; }}"),
            ),
            (
                "",
                format!("unsigned v = 1; if (blockIdx.x == 0) {{ {shfl} }} else {{ v = 2; }}"),
            ),
            (
                "",
                format!(
                    "auto v = threadIdx.x; float a[4], b = 2; unsigned x(v); #pragma unroll\n for (int i = 0; i < 4; ++i) {shfl}"
                ),
            ),
            (
                "__device__ unsigned mix(unsigned x) { return x * 3u; }",
                format!("unsigned v = mix(threadIdx.x); {shfl} n += v; out[n] = v;"),
            ),
        ] {
            let source = kernel(head, &body);
            assert_eq!(written(&source).len(), 1, "not written out:\n{source}");
        }
    }

    #[test]
    fn a_warp_function_is_written_out_where_it_is_called() {
        let head = "__device__ unsigned sum(unsigned v) {\n  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);\n  return v;\n}";
        let source = kernel(
            head,
            "  unsigned t = sum(threadIdx.x);\n  out[threadIdx.x] = t;",
        );
        let texts = written(&source);
        assert_eq!(texts.len(), 1, "{source}");
        // The argument into the parameter's array, the result out of the function's.
        assert!(texts[0].contains("cuda_emu_lv_v_"), "{}", texts[0]);
        assert!(texts[0].contains("t = cuda_emu_fr"), "{}", texts[0]);
        // A name of the function's that a local of the kernel would hide there.
        let head = "__device__ unsigned scale = 3;\n__device__ unsigned f(unsigned v) { return __shfl_down_sync(0xffffffffu, v, 1) * scale; }";
        let source = kernel(head, "  unsigned scale = 2;\n  out[0] = f(scale);");
        assert!(written(&source).is_empty(), "{source}");
    }

    #[test]
    fn a_kernel_another_rewrite_edits_is_left_alone() {
        let source = kernel(
            "",
            "unsigned v = 1; v += __shfl_xor_sync(0xffffffffu, v, 1);",
        );
        let tokens = lex(source.as_bytes()).code_tokens();
        let at = source.find("v += ").unwrap();
        assert!(lane_loops(&source, &tokens, "\"k.cu\"", &[(at, at + 1)]).is_empty());
        assert_eq!(lane_loops(&source, &tokens, "\"k.cu\"", &[]).len(), 1);
    }
}
