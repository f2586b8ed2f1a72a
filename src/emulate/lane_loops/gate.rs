//! What may run as a lane loop: the names that keep a kernel on fibers, the
//! functions a lane may call, loops that could poll, and which names differ
//! between lanes (for the conditions of the warp's loops and branches).

use crate::cxx::lexer::TokenKind;

use super::source::*;

/// The warp operations a lane loop computes in one pass.
pub(super) const WARP_OPERATIONS: &[&str] = &[
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

/// The warp's own synchronization: a lane loop takes it as a warp operation
/// with no result, standing as a statement of its own at the warp's level.
pub(super) const WARP_SYNC: &str = "__syncwarp";

/// The block's barrier, which a lane loop's warp waits at as one (at the
/// warp's level, as a statement of its own: `lanes_barrier`).
pub(super) const BARRIER: &str = "__syncthreads";

/// Names that keep a kernel on fibers wherever they appear in it: what waits
/// for other threads, what the statement structure cannot follow. (In the
/// kernel's own body, [`BARRIER`] and `__shared__` declarations are the
/// writer's to place: [`runnable`] with `kernel` set lets them through.)
pub(super) const DENIED: &[&str] = &[
    "__syncthreads",
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
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
    "operator",
    "__builtin_setjmp",
    "setjmp",
    "longjmp",
];

/// Functions outside the file a lane loop may call: none of them waits for
/// another thread.
pub(super) const CALLABLE: &[&str] = &[
    "printf", "assert", "min", "max", "abs", "labs", "llabs", "umin", "umax", "llmin", "llmax",
    "ullmin", "ullmax", "memcpy", "memset",
];

/// Math functions (each also with an `f` suffix) a lane loop may call.
pub(super) const MATH: &[&str] = &[
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

/// Whether tokens `a..=b` hold a warp operation's call.
pub(super) fn has_warp_operation(f: &File, a: usize, b: usize) -> bool {
    (a..=b).any(|k| f.warp_call(k))
}

/// The checks on everything a lane loop runs, whatever its place: the names
/// it may not use, the functions it may call, loops that could poll. `seen`
/// holds the file's functions already checked. `kernel`: tokens `a..=b` are
/// the kernel's own body, where the block's barrier and `[static]
/// __shared__` declarations may stand (the writer refuses them anywhere but
/// at the warp's level).
pub(super) fn runnable(f: &File, a: usize, b: usize, seen: &mut Vec<String>, kernel: bool) -> bool {
    // Code skips its `#pragma` lines; a macro's body is all one line.
    let in_macro = f.tokens[a].directive.is_some();
    for k in a..=b.min(f.tokens.len() - 1) {
        if f.tokens[k].directive.is_some() && !in_macro {
            continue;
        }
        let s = f.text(k);
        let placed = kernel
            && (s == BARRIER
                || f.groups.placed(k)
                || s == "__shared__"
                || (matches!(s, "static" | "extern")
                    && (f.is(k + 1, "__shared__") || k > 0 && f.is(k - 1, "__shared__"))));
        if DENIED.contains(&s) && !placed {
            return false;
        }
        // A macro of the file: what it expands to is checked as if written here
        // (a warp operation in one would not be seen as one).
        if let Some((ma, mb)) = f.macro_body(s)
            && ma <= mb
            && !seen.iter().any(|n| n == s)
            && (has_warp_operation(f, ma, mb) || {
                seen.push(s.to_string());
                !runnable(f, ma, mb, seen, false)
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
        if f.ident(k) && (f.is(k + 1, "(") || f.is(k + 1, "<")) && !not_a_call(s) && !declarator {
            if f.is(k + 1, "<") && !template_call(f, k + 1) {
                continue; // a comparison (`threadIdx.x < n` is no member template)
            }
            if k > 0 && (f.is(k - 1, ".") || f.is(k - 1, ">") && f.is(k - 2, "-")) && !placed {
                return false; // a member function (but a block group's)
            }
            if !placed && !callable(f, s, seen) {
                return false;
            }
        }
    }
    true
}

/// Whether the loop whose keyword is `k` holds an atomic (which a lane
/// could poll, waiting for another).
pub(super) fn loop_polls(f: &File, k: usize, end: usize) -> bool {
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

pub(super) fn atomic(name: &str) -> bool {
    name.starts_with("atomic") || name.starts_with("__nv_atomic") || name.starts_with("__atomic")
}

pub(super) fn callable(f: &File, name: &str, seen: &mut Vec<String>) -> bool {
    if WARP_OPERATIONS.contains(&name) || name == WARP_SYNC || seen.iter().any(|s| s == name) {
        return true;
    }
    if f.macro_body(name).is_some() {
        return true; // runnable() looks into it
    }
    if let Some((open, close)) = f.definition(name) {
        seen.push(name.to_string());
        return runnable(f, open, close, seen, false);
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

/// What differs between lanes, for the conditions of the warp's loops and
/// branches: every local the kernel declares or parameter it has, except
/// those written only with values that are the same for every lane, at the
/// warp's level (their declaration, a warp-level `for`'s clauses, a
/// warp-level statement that assigns them).
pub(super) struct Uniform {
    pub(super) varying: Vec<String>,
    /// Locals that hold `threadIdx.x` as it is (`int tid = threadIdx.x;`,
    /// never written again): their warp's row ([`Uniform::warp_row`]) is
    /// the same for every lane, as `threadIdx.x`'s is.
    pub(super) thread_x: Vec<String>,
    /// Whether an expression was found the same for every lane through a
    /// warp's row, which holds only where each warp's lanes share one row
    /// of the block (`lane_loop_start(true)` checks the block's shape).
    pub(super) rows: std::cell::Cell<bool>,
}

impl Uniform {
    /// Whether tokens `a..=b` are the same for every lane: no `threadIdx`
    /// but in a warp's row, no varying name, no warp operation or atomic, no
    /// call but of a math function or intrinsic (a function of the file could
    /// read `threadIdx`; the clocks differ between lanes), and no macro of the
    /// file whose text has any of those.
    pub(super) fn expression(&self, f: &File, a: usize, b: usize) -> bool {
        self.tokens_uniform(f, a, b, 0)
    }

    /// The end of a warp's row at token `k`: `threadIdx.x` (or a local that
    /// holds it) divided by 32 or `warpSize`, shifted right by 5, or compared
    /// by `<` or `>=` with a multiple of 32 or `warpSize`, standing where
    /// nothing binds tighter on either side. Every lane of a warp has the
    /// same value there when the warp's lanes lie in one row of the block
    /// (a block of one row, or rows of 32 threads or fewer, or of a multiple
    /// of 32: the runtime checks, [`Uniform::rows`]), as in the block
    /// reductions' `if (threadIdx.x / 32 == 0)` and `if (tid < 32)`.
    fn warp_row(&self, f: &File, a: usize, b: usize, k: usize) -> Option<usize> {
        let x = if f.is(k, "threadIdx") && f.is(k + 1, ".") && f.is(k + 2, "x") {
            k + 2
        } else if self.thread_x.iter().any(|n| f.is(k, n)) && !(k > a && f.is(k - 1, ".")) {
            k
        } else {
            return None;
        };
        let before = if k > a { f.text(k - 1) } else { "(" };
        let after = |j: usize| if j < b { f.text(j + 1) } else { ")" };
        let multiple_of_32 = |j: usize| {
            f.is(j, "warpSize")
                || (f.tokens[j].kind == TokenKind::Number
                    && f.text(j)
                        .trim_end_matches(['u', 'U', 'l', 'L'])
                        .parse::<u64>()
                        .is_ok_and(|n| n % 32 == 0))
        };
        let lowest = |t: &str| matches!(t, "(" | "?" | ":" | "," | "&" | "|" | "=" | "!");
        let low = |t: &str| lowest(t) || matches!(t, "+" | "-" | "<" | ">" | "^" | "[");
        let end = if f.is(x + 1, "/") && (f.is(x + 2, "32") || f.is(x + 2, "warpSize")) {
            (low(before) && before != "!").then_some(x + 2)?
        } else if f.is(x + 1, ">") && f.is(x + 2, ">") && f.is(x + 3, "5") {
            // `+` and `-` bind tighter than `>>`, on either side.
            let next = after(x + 3);
            let shift_low = low(before) && !matches!(before, "!" | "+" | "-");
            (shift_low && !matches!(next, "+" | "-" | "*" | "/" | "%")).then_some(x + 3)?
        } else {
            let (n, end) = if f.is(x + 1, "<") && !f.is(x + 2, "<") && !f.is(x + 2, "=") {
                (x + 2, x + 2)
            } else if f.is(x + 1, ">") && f.is(x + 2, "=") {
                (x + 3, x + 3)
            } else {
                return None;
            };
            let next = after(end);
            let closes = matches!(next, ")" | "&" | "|" | "?" | ":" | ";" | ",");
            (lowest(before) && before != "!" && multiple_of_32(n) && closes).then_some(end)?
        };
        (end <= b).then_some(end)
    }

    pub(super) fn tokens_uniform(&self, f: &File, a: usize, b: usize, depth: usize) -> bool {
        let mut k = a;
        while k <= b {
            if let Some(end) = self.warp_row(f, a, b, k) {
                self.rows.set(true);
                k = end + 1;
                continue;
            }
            if !self.token_uniform(f, a, k, depth) {
                return false;
            }
            k += 1;
        }
        true
    }

    fn token_uniform(&self, f: &File, a: usize, k: usize, depth: usize) -> bool {
        {
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
            if f.is(k + 1, "(") && !not_a_call(s) && f.definition(s).is_some() {
                return false;
            }
            match f.macro_body(s) {
                Some((ma, mb)) if ma <= mb => {
                    depth < 8 && self.tokens_uniform(f, ma, mb, depth + 1)
                }
                _ => true,
            }
        }
    }
}

/// Whether a statement run inside the lanes' loop has a `break` or
/// `continue` that would leave it.
pub(super) fn escapes(f: &File, s: &Stmt, in_loop: bool, in_switch: bool) -> bool {
    match s {
        Stmt::Simple(a, b) => (*a..=*b).any(|k| {
            (f.is(k, "break") && !in_loop && !in_switch) || (f.is(k, "continue") && !in_loop)
        }),
        Stmt::Block(_, _, items) => items.iter().any(|i| escapes(f, i, in_loop, in_switch)),
        Stmt::For(_, _, _) | Stmt::While(_, _, _) | Stmt::Do(..) | Stmt::Directive(..) => false,
        Stmt::Switch(_, close, end) => switch_escapes(f, close + 1, *end, in_loop),
        Stmt::If(_, _, then, other) => {
            escapes(f, then, in_loop, in_switch)
                || other
                    .as_ref()
                    .is_some_and(|o| escapes(f, o, in_loop, in_switch))
        }
    }
}

/// Whether the body `{ ... }` (`open`, `close`) of a lane's `switch` holds a
/// `continue` that would leave the lanes' loop: one outside the loops inside
/// it, where the switch stands in no loop of the lane's own. (A `break`
/// leaves the switch.)
fn switch_escapes(f: &File, open: usize, close: usize, in_loop: bool) -> bool {
    let mut k = open + 1;
    while k < close {
        match f.text(k) {
            "for" | "while" | "do" => match statement(f, k, close) {
                Some((_, next)) => {
                    k = next;
                    continue;
                }
                None => return true,
            },
            "continue" if !in_loop => return true,
            _ => {}
        }
        k += 1;
    }
    false
}

/// The kernel's names whose value may differ between lanes (see
/// [`Uniform`]); None where the kernel writes names in ways this module does
/// not follow.
pub(super) fn uniform_names(f: &File, kernel: &Kernel, items: &[Stmt]) -> Option<Uniform> {
    Some(names_of(f, &kernel.params, kernel.open, kernel.close, items, false)?.0)
}

/// What [`uniform_names`] finds for a body `open..close` with parameters
/// `params` (which vary between lanes where `params_vary`: a function's
/// arguments), and every name the body declares at the warp's level.
pub(super) fn names_of(
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
    // A local set once, at the warp's level, to `threadIdx.x` itself.
    let thread_x = uniform_writes
        .iter()
        .filter(|(name, x, y)| {
            *y == x + 2
                && f.is(*x, "threadIdx")
                && f.is(x + 1, ".")
                && f.is(*y, "x")
                && !varying.contains(name)
                && uniform_writes.iter().filter(|(n, _, _)| n == name).count() == 1
        })
        .map(|(name, _, _)| name.clone())
        .collect();
    // Names declared inside lane code vary; so does anything a varying value
    // reaches at the warp's level (to a fixed point).
    let mut u = Uniform {
        varying,
        thread_x,
        rows: std::cell::Cell::new(false),
    };
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
pub(super) fn writes(f: &File, k: usize) -> bool {
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
pub(super) fn assigns(f: &File, k: usize) -> bool {
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
pub(super) fn operand_before(f: &File, k: usize) -> bool {
    k > 0
        && (matches!(f.tokens[k - 1].kind, TokenKind::Ident | TokenKind::Number)
            && !matches!(f.text(k - 1), "return" | "case")
            || matches!(f.text(k - 1), ")" | "]"))
}

/// Walks the warp's level: names declared there, their values, and the
/// warp-level statements that assign them.
pub(super) fn collect_warp_level(
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
            Stmt::Do(..) | Stmt::Switch(..) => return None,
            Stmt::Directive(..) => {}
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
pub(super) fn simple_writes(
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
    // An expression: each operand of a comma (`a += s, b += t` in a `for`'s
    // step), `x op= e` or `x = e` as the whole operand; `++x`, `x++`.
    let mut start = a;
    let mut k = a;
    while k < semi {
        match f.text(k) {
            "," => {
                expression_writes(f, start, k, writes, at_warp_level);
                start = k + 1;
            }
            "(" | "[" | "{" => k = f.closing(k).unwrap_or(semi),
            "<" if k > a && f.ident(k - 1) && template_call(f, k) => {
                k = template_arguments_end(f, k, semi).unwrap_or(semi);
            }
            _ => {}
        }
        k += 1;
    }
    expression_writes(f, start, semi, writes, at_warp_level);
}

/// The write of one expression `a..semi` (exclusive of `semi`, a `;`, `,`
/// or `)`) at the warp's level, if it is `x = e`, `x op= e`, `++x` or `x++`.
fn expression_writes(
    f: &File,
    a: usize,
    semi: usize,
    writes: &mut Vec<(String, usize, usize)>,
    at_warp_level: &mut Vec<usize>,
) {
    if semi <= a {
        return;
    }
    let end = semi - 1;
    if f.ident(a) && assigns(f, a) {
        // The value is the whole statement (the name's own value included).
        writes.push((f.text(a).to_string(), a, end));
        at_warp_level.push(a);
    } else if f.ident(a) && end == a + 2 && (f.is(a + 1, "+") || f.is(a + 1, "-")) {
        writes.push((f.text(a).to_string(), a, a));
        at_warp_level.push(a);
    } else if end >= a + 2 && f.ident(end) && (f.is(a, "+") || f.is(a, "-")) && end == a + 2 {
        writes.push((f.text(end).to_string(), end, end));
        at_warp_level.push(end);
    }
}
