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
//! - a `__global__` function with no preprocessor line in its body but
//!   `#pragma` and conditionals between warp-level statements, no other
//!   rewrite inside it but in `__shared__` declarations, no parameter taken by
//!   reference or pack, no lambda, `goto`, `static` local (but `static
//!   __shared__`), `volatile`, inline assembly, cooperative group but a
//!   block ([`groups`]), fence or `__activemask`, and no `switch` but in a
//!   lane's code (where its `break` is the switch's: [`escapes`] follows its
//!   `continue`s);
//! - whose `[static|extern] __shared__` declarations, `__syncthreads();` and
//!   `__syncwarp(...);` stand at the warp's level, as statements of their
//!   own: a `__shared__` array is the block's, declared once (the lane-loop
//!   form has its own, and the runtime runs every warp of a block in one
//!   form; an `extern` one is the rewriter's pointer to the launch's
//!   buffer); at the barrier the warp's live lanes arrive together
//!   (`lanes_barrier`); a `__syncwarp` is a warp operation with no result;
//!   a cooperative groups' block declared there is the block's too, and its
//!   `sync` the barrier ([`groups`]);
//! - whose warp operations stand in expression or declaration statements (not
//!   under `?:`, `&&` or `||`, not nested in one another), themselves inside
//!   blocks, `for` and `while` loops and `if`s whose conditions depend on
//!   nothing that differs between lanes (parameters, `blockIdx`, constants,
//!   locals written only by such values at the warp's level) but the
//!   warp's row (`threadIdx.x / 32`, `tid < 32`: [`Uniform`]'s `warp_row`,
//!   where the runtime checks that the block gives each warp one row). The lanes
//!   evaluate such a condition each and the loop checks that they agree: a
//!   disagreement stops the kernel with an error naming the line
//!   (`lanes_disagree`), never a silent different answer;
//! - that calls only functions defined in the same file that pass the same
//!   checks and hold no warp operation, and the intrinsics, atomics and math
//!   functions of CUDA (a name this module cannot see into might wait for
//!   another thread: the shim would stop the kernel, so it is not written
//!   out);
//! - with no loop that could poll (an atomic inside a loop that is not the
//!   warp's), and no `break` or `continue` that would leave the lanes' loop;
//! - in a program built for the warp lock step, whose statements holding a
//!   warp operation touch no memory another lane could besides the
//!   operation's arguments ([`Writer::touches_memory`]).
//!
//! The written-out form sits in the kernel's body, in front of the body as
//! written, on the line of its `{`, and carries `#line` directives, so
//! `__LINE__`, the compiler's messages and the runtime's warnings name the
//! lines of the program; the body as written follows, under a `#line` that
//! puts it back where it was, and runs where the runtime says no (a warp whose
//! lane 0 is not the first to start, `--schedule`, `CUDA_EMU_LANE_LOOPS=0`,
//! `--sanitize`, and in a program built for the warp lock step, a block whose
//! lanes meet at their accesses: the launch's first, as a rule).
//!
//! Hand-written on the crate's lexer, like the rest of the rewriter (see
//! `rewrite.rs` for why no C++ parser): the statement structure it needs is
//! brackets, keywords and `;`, and whatever it does not recognise keeps the
//! kernel on fibers.

mod gate;
mod groups;
mod source;

use crate::cxx::lexer::CodeToken;

use gate::*;
use source::*;

/// The lane-loop form of every kernel of a file that can have one: edits
/// `(at, at, text)` that insert it after each such kernel's `{`. `path` is
/// the C string literal of the file's name for `#line`; `edited` what other
/// rewrites replace, and with what (a kernel with one inside keeps its
/// fibers, but for `__CUDA_ARCH__` tests, which the copy makes too).
/// `watched`: the program is built for the warp lock step, whose watch on
/// shared memory must see each access on its side of each warp operation
/// ([`Writer::touches_memory`]).
pub(super) fn lane_loops(
    source: &str,
    tokens: &[CodeToken],
    path: &str,
    edited: &[(usize, usize, String)],
    watched: bool,
) -> Vec<(usize, usize, String)> {
    let file = File::new(source, tokens, edited);
    let mut out = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if t.directive.is_some() || file.text(k) != "__global__" {
            continue;
        }
        let Some(kernel) = file.kernel_at(k) else {
            continue;
        };
        if file.edited(kernel.open, kernel.close) {
            continue;
        }
        if let Some(text) = Writer::write(&file, &kernel, path, watched) {
            let at = tokens[kernel.open].end;
            out.push((at, at, text));
        }
    }
    out
}

/// A local a lane loop keeps per lane: its name and the array it lives in.
struct LaneLocal {
    name: String,
    array: String,
    /// Declared as an array (its elements the lane's own), not a pointer.
    indexable: bool,
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
    /// Built for the lock step (see [`lane_loops`]).
    watched: bool,
}

impl<'a> Writer<'a> {
    fn write(f: &'a File<'a>, kernel: &Kernel, path: &'a str, watched: bool) -> Option<String> {
        let items = statements(f, kernel.open + 1, kernel.close)?;
        if !has_warp_operation(f, kernel.open, kernel.close)
            || !runnable(f, kernel.open + 1, kernel.close - 1, &mut Vec::new(), true)
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
            watched,
        };
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
            w.bind_at_warp_level(&name, &array, false);
        }
        for item in &items {
            w.item(item)?;
        }
        // Where a condition was taken to be the warp's through its row, the
        // block's shape must give every warp one row.
        let rows = if w.uniform.rows.get() { "true" } else { "" };
        let brace = &f.tokens[kernel.open];
        Some(format!(
            " if (const int cuda_emu_mode_ = ::cuda_emu::lane_loop_start({rows})) {{ \
             if (cuda_emu_mode_ == 1) {{ [&]() {{ \
             unsigned cuda_emu_live_ = ::cuda_emu::lane_loop_live();{} }}(); \
             ::cuda_emu::lane_loop_end(); }} return; }}\n#line {} {}\n{}",
            w.out,
            brace.line,
            path,
            " ".repeat(brace.column as usize)
        ))
    }

    fn bind_at_warp_level(&mut self, name: &str, array: &str, indexable: bool) {
        self.out.push_str(&format!(
            " auto& {name} __attribute__((unused)) = {array}[0];"
        ));
        self.locals.push(LaneLocal {
            name: name.to_string(),
            array: array.to_string(),
            indexable,
        });
    }

    /// Source text `a..=b` under a `#line` naming its place.
    fn source(&mut self, a: usize, b: usize, returns: Option<usize>) -> Option<()> {
        if (a..=b).any(|k| self.f.is(k, "__shared__") || self.f.is(k, BARRIER)) {
            return None; // the block's, not a lane's: at the warp's level only
        }
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
            s == "threadIdx" || !self.known(s)
        })
    }

    /// Whether the name `s` is a lane local, a parameter, a keyword or type
    /// word, or one of the thread's and grid's coordinates (`NOT_TYPES`).
    fn known(&self, s: &str) -> bool {
        self.locals.iter().any(|l| l.name == s)
            || self.params.iter().any(|p| p == s)
            || type_word(s)
            || NOT_TYPES.contains(&s)
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
            Stmt::Do(..) | Stmt::Directive(..) | Stmt::Switch(..) => None,
            Stmt::Simple(a, semi) => self.warp_statement(*a, *semi, false),
        }
    }

    /// A statement with no warp operation: one loop over the lanes (a
    /// declaration at the warp's level is kept per lane).
    fn plain(&mut self, s: &Stmt) -> Option<()> {
        let f = self.f;
        let (a, b) = s.range();
        if let Stmt::Directive(hash, last) = *s {
            // `#if` and the rest stand where they stood, around what they hold.
            let text = f.with_edits(hash, last);
            self.out.push('\n');
            self.out.push_str(&text);
            self.out.push('\n');
            return Some(());
        }
        if let Stmt::Simple(a, semi) = *s {
            if (a..semi).any(|k| f.is(k, "__shared__")) {
                return self.block_wide(a, semi);
            }
            if f.groups.declaration_end(a) == Some(semi) {
                // The block's group: the same for every lane, declared once.
                return self.block_wide(a, semi);
            }
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
        // Copied as written: an `#if` inside would miss the rewriter's reading
        // of `__CUDA_ARCH__` (only a warp-level one is carried over).
        let conditional = (a..=b).any(|k| {
            f.tokens[k]
                .directive
                .is_some_and(|hash| !f.is(hash + 1, "pragma"))
        });
        if conditional || escapes(f, s, false, false) {
            return None;
        }
        let id = self.lanes_open(self.needs_thread(a, b, &[]));
        self.source(a, b, Some(id))?;
        self.lanes_close(id);
        Some(())
    }

    /// A declaration of something the block's threads share, at the warp's
    /// level: a `[static|extern] __shared__` array, the block's one copy, as
    /// the rewriter wrote it (its `alignas` moved; an `extern __shared__`
    /// array a pointer to the launch's buffer), or a cooperative groups'
    /// block; not a copy per lane. The lane-loop form declares its own,
    /// apart from the body as written: a block runs one form or the other in
    /// every warp (`lane_loop_begin`).
    fn block_wide(&mut self, a: usize, semi: usize) -> Option<()> {
        let f = self.f;
        self.line_of(a);
        let text = f.with_edits(a, semi);
        self.out.push_str(&text);
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
            self.bind_at_warp_level(&name, &array, !dims.is_empty());
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
        if (from..semi).any(|k| f.is(k, BARRIER) || f.groups.is_sync(k)) {
            return self.barrier(from, semi, returning);
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
            let text = if f.is(k, WARP_SYNC) {
                // No result: the statement is the call alone, and done once
                // the lanes met.
                if returning || k != a || close + 1 != semi {
                    return None;
                }
                self.intrinsic(k, close)?;
                return Some(());
            } else if WARP_OPERATIONS.contains(&f.text(k)) {
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
        // The statement's pass runs after the warp operations completed: in a
        // fiber, what it reads or writes besides them may come before. (A
        // declaration's: its initializers.)
        if self.watched {
            let spans: Vec<(usize, usize)> = match declaration(f, a, semi).ok()? {
                Some(d) if !returning => d
                    .declarators
                    .iter()
                    .filter_map(|decl| match decl.init {
                        Init::None => None,
                        Init::Copy(x, y) | Init::Direct(x, y) => Some((x, y)),
                    })
                    .collect(),
                _ => vec![(from, semi - 1)],
            };
            if spans
                .iter()
                .any(|&(x, y)| self.touches_memory(x, y, &replacements))
            {
                return None;
            }
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

    /// `__syncthreads();` (or a block group's `b.sync();`, `cg::sync(b);`)
    /// at the warp's level: the warp's live lanes arrive
    /// at the block's barrier together, and its fiber waits there for the
    /// other warps (`lanes_barrier`). Any other use of the barrier (its value
    /// used, inside an expression) keeps the kernel on fibers.
    fn barrier(&mut self, a: usize, semi: usize, returning: bool) -> Option<()> {
        let f = self.f;
        let syncthreads = f.is(a, BARRIER) && f.is(a + 1, "(") && f.is(a + 2, ")") && a + 3 == semi;
        if returning || !(syncthreads || f.groups.barrier_end(a) == Some(semi)) {
            return None;
        }
        self.line_of(a);
        self.out
            .push_str("::cuda_emu::lanes_barrier(cuda_emu_live_, __FILE__, __LINE__);");
        Some(())
    }

    /// Whether code `a..=b` (but the `skip`ped ranges: its warp operations)
    /// may access memory another lane could: anything but the lane's own
    /// locals (an array's elements included), the kernel's parameters as
    /// passed (pointers from the host: never to shared memory), constants,
    /// the thread's coordinates and calls of CUDA's math functions and
    /// intrinsics. A statement that holds a warp operation runs in two
    /// passes, the operations' and then the rest of it, where a fiber might
    /// make the rest's accesses before the operation: the lock step's watch
    /// would take them to come after the warp's sync, and miss lanes that
    /// talk there. In a program built for the lock step, such a statement
    /// keeps its kernel on fibers.
    fn touches_memory(&self, a: usize, b: usize, skip: &[Replacement]) -> bool {
        let f = self.f;
        let local = |s: &str| self.locals.iter().rev().find(|l| l.name == s);
        let param = |s: &str| self.params.iter().any(|p| p == s) && local(s).is_none();
        let mut k = a;
        while k <= b {
            if let Some(r) = skip.iter().find(|r| r.first == k) {
                k = r.last + 1;
                continue;
            }
            let s = f.text(k);
            let unary = k == a || !operand_before(f, k);
            match s {
                "->" => return true,
                "[" if !(k > a && f.ident(k - 1)) => return true,
                "[" => {
                    let name = f.text(k - 1);
                    let own = local(name).is_some_and(|l| l.indexable) || param(name);
                    if !own {
                        return true;
                    }
                }
                "*" | "&" if unary && !(s == "&" && f.is(k + 1, "&")) => return true,
                _ => {}
            }
            if f.ident(k) && !(k > a && (f.is(k - 1, ".") || f.is(k - 1, ">"))) {
                let known = self.known(s) || s == "static_cast";
                let call = f.is(k + 1, "(") && !not_a_call(s);
                if call {
                    if f.definition(s).is_some() || f.macro_body(s).is_some() {
                        return true;
                    }
                } else if !known {
                    // A global, a shared array, or a macro: only a macro whose
                    // text is all numbers and operators.
                    let constant = f.macro_body(s).is_some_and(|(ma, mb)| {
                        (ma..=mb)
                            .all(|j| !f.ident(j) && !matches!(f.text(j), "[" | "*" | "&" | "->"))
                    });
                    if !constant {
                        return true;
                    }
                }
            }
            k += 1;
        }
        false
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
        if self.depth >= 4 || f.edited(function.name, function.close) {
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
            self.bind_at_warp_level(&name, array, false);
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
        let rows = self.uniform.rows.get();
        self.uniform = saved_uniform;
        if rows {
            self.uniform.rows.set(true);
        }
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

/// A warp operation's call and what the statement's pass reads instead.
struct Replacement {
    first: usize,
    last: usize,
    text: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cxx::lexer::lex;

    /// The lane-loop texts of a source's kernels.
    fn written(source: &str) -> Vec<String> {
        let tokens = lex(source.as_bytes()).code_tokens();
        lane_loops(source, &tokens, "\"k.cu\"", &[], false)
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
            // A comparison after a member (not a member template's call).
            (
                "",
                format!("unsigned v = 1; {shfl} if (threadIdx.x < n) out[threadIdx.x] = v;"),
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
        let edit = [(at, at + 1, "w".to_string())];
        assert!(lane_loops(&source, &tokens, "\"k.cu\"", &edit, false).is_empty());
        assert_eq!(
            lane_loops(&source, &tokens, "\"k.cu\"", &[], false).len(),
            1
        );
        // Inside a warp function the kernel calls: its callers keep their fibers.
        let head = "__device__ unsigned f(unsigned v) {\n  v += 1;\n  return __shfl_down_sync(0xffffffffu, v, 1);\n}";
        let source = kernel(head, "  out[0] = f(threadIdx.x);");
        let tokens = lex(source.as_bytes()).code_tokens();
        let at = source.find("v += 1").unwrap();
        let edit = [(at, at + 1, "w".to_string())];
        assert!(lane_loops(&source, &tokens, "\"k.cu\"", &edit, false).is_empty());
        assert_eq!(
            lane_loops(&source, &tokens, "\"k.cu\"", &[], false).len(),
            1
        );
    }

    #[test]
    fn barriers_and_shared_arrays_at_the_warps_level_are_written_out_once_per_warp() {
        let source = kernel(
            "",
            "  __shared__ unsigned s[64];\n  static __shared__ unsigned total;\n  unsigned v = threadIdx.x;\n  s[threadIdx.x] = v;\n  __syncthreads();\n  v += __shfl_xor_sync(0xffffffffu, s[63 - threadIdx.x], 1);\n  for (int r = 0; r < n; ++r) {\n    __syncthreads();\n    if (threadIdx.x == 0) total = v;\n  }\n  out[threadIdx.x] = v;",
        );
        let texts = written(&source);
        assert_eq!(texts.len(), 1, "{source}");
        let text = &texts[0];
        // The block's arrays as written, not an array per lane.
        assert!(text.contains("\n  __shared__ unsigned s[64];"), "{text}");
        assert!(
            text.contains("\n  static __shared__ unsigned total;"),
            "{text}"
        );
        assert!(!text.contains("cuda_emu_lv_s_"), "{text}");
        // Both barriers: the warp's live lanes arrive together, at their lines.
        assert_eq!(
            text.matches("::cuda_emu::lanes_barrier(cuda_emu_live_")
                .count(),
            2,
            "{text}"
        );
        assert!(
            text.contains("#line 7 \"k.cu\"\n  ::cuda_emu::lanes_barrier"),
            "{text}"
        );
        assert!(
            text.contains("#line 10 \"k.cu\"\n    ::cuda_emu::lanes_barrier"),
            "{text}"
        );
    }

    #[test]
    fn a_loop_stepping_two_names_with_a_comma_is_the_warps_while_both_are() {
        // matrixMul's tile loop: `a` and `b` step together, and the loop's
        // condition reads `a`.
        let tiles = |step_b: &str| {
            kernel(
                "",
                &format!(
                    "  __shared__ float t[32];\n  float sum = 0;\n  for (int a = 0, b = n; a < n; a += 32, b += {step_b}) {{\n    t[threadIdx.x] = a + b;\n    __syncthreads();\n    sum += t[31 - threadIdx.x];\n    __syncthreads();\n  }}\n  out[threadIdx.x] = sum;"
                ),
            )
        };
        let texts = written(&tiles("n"));
        assert_eq!(texts.len(), 1);
        assert!(texts[0].contains("a += 32, b += n;"), "{}", texts[0]);
        // A step that differs between lanes is seen in the second operand:
        // `b` varies, and a condition on it would be the lanes' own.
        let varying = tiles("threadIdx.x").replace("a < n;", "b < n;");
        assert!(written(&varying).is_empty(), "{varying}");
        let template_step = tiles("n").replace("a += 32,", "a = max<int>(a, 0) + 32,");
        assert_eq!(written(&template_step).len(), 1, "{template_step}");
    }

    #[test]
    fn dynamic_shared_memory_syncwarp_and_a_lanes_switch_are_written_out() {
        let source = kernel(
            "",
            "  extern __shared__ unsigned dyn[];\n  unsigned v = threadIdx.x;\n  switch (v % 3) {\n  case 0: v += 7; break;\n  case 1: if (v > 4) return;\n  default: v *= 2;\n  }\n  dyn[threadIdx.x] = v;\n  __syncwarp();\n  v += __shfl_xor_sync(0xffffffffu, dyn[threadIdx.x ^ 1], 1);\n  out[threadIdx.x] = v;",
        );
        let texts = written(&source);
        assert_eq!(texts.len(), 1, "{source}");
        let text = &texts[0];
        // The block's buffer, declared once as written (the rewriter's
        // edit of it is the caller's: here none).
        assert!(
            text.contains("\n  extern __shared__ unsigned dyn[];"),
            "{text}"
        );
        assert!(!text.contains("cuda_emu_lv_dyn_"), "{text}");
        // The switch runs in a lane's loop, its `return` the lane's.
        assert!(text.contains("switch (v % 3) {"), "{text}");
        assert!(
            text.contains("{ ::cuda_emu::lane_return(cuda_emu_lane_);"),
            "{text}"
        );
        // __syncwarp: each lane's call recorded, then the lanes meet once,
        // and nothing is left of the statement.
        assert!(
            text.contains("#line 11 \"k.cu\"\n  __syncwarp());"),
            "{text}"
        );
        assert!(!text.contains("decltype(__syncwarp"), "{text}");
        assert_eq!(text.matches("::cuda_emu::lanes_meet(").count(), 2, "{text}");
        // A `continue` in a lane's switch that would leave the lanes' loop
        // keeps the fibers; one in a loop of the lane's own does not.
        let leaves = kernel(
            "",
            "  unsigned v = threadIdx.x;\n  for (int i = 0; i < n; ++i) {\n    switch (v) { case 1: continue; }\n    v += __shfl_xor_sync(0xffffffffu, v, 1);\n  }\n  out[threadIdx.x] = v;",
        );
        assert!(written(&leaves).is_empty(), "{leaves}");
        let stays = leaves.replace(
            "switch (v) { case 1: continue; }",
            "switch (v) { case 1: for (int j = 0; j < 2; ++j) { if (j) continue; v++; } break; }",
        );
        assert_eq!(written(&stays).len(), 1, "{stays}");
    }

    #[test]
    fn a_cooperative_groups_block_is_declared_once_and_its_sync_is_the_barrier() {
        let head = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;";
        let body = "  cg::thread_block cta = cg::this_thread_block();\n  __shared__ unsigned s[64];\n  unsigned v = cta.thread_rank();\n  s[cta.thread_rank()] = v;\n  cg::sync(cta);\n  v += s[63 - cta.thread_rank()];\n  cta.sync();\n  v += __shfl_xor_sync(0xffffffffu, v, 1);\n  out[cta.thread_rank()] = v;";
        let source = kernel(head, body);
        let texts = written(&source);
        assert_eq!(texts.len(), 1, "{source}");
        let text = &texts[0];
        assert!(
            text.contains("\n  cg::thread_block cta = cg::this_thread_block();"),
            "{text}"
        );
        assert!(!text.contains("cuda_emu_lv_cta_"), "{text}");
        assert!(
            text.contains("#line 8 \"k.cu\"\n  ::cuda_emu::lanes_barrier"),
            "{text}"
        );
        assert!(
            text.contains("#line 10 \"k.cu\"\n  ::cuda_emu::lanes_barrier"),
            "{text}"
        );
        // The lanes ask the block which thread they are: each is made the
        // running thread.
        assert!(
            text.contains("::cuda_emu::lane_enter(cuda_emu_lane_)"),
            "{text}"
        );
        // What keeps the fibers: the group passed to a function (which could
        // wait in it), a tile of it, its barrier under a branch the lanes may
        // take apart, a namespace that is not cooperative groups', a member
        // that is not the block's sizes and indices.
        for (head, body) in [
            (
                format!("{head}\n__device__ void wait(cg::thread_block b) {{ b.sync(); }}"),
                body.replace("cta.sync();", "wait(cta);"),
            ),
            (
                head.to_string(),
                body.replace(
                    "cta.sync();",
                    "auto tile = cg::tiled_partition<32>(cta); tile.sync();",
                ),
            ),
            (
                head.to_string(),
                body.replace("cta.sync();", "if (v > 3) cta.sync();"),
            ),
            ("namespace cg = other_groups;".to_string(), body.to_string()),
            (
                head.to_string(),
                body.replace("cta.sync();", "v += cta.is_valid();"),
            ),
        ] {
            let source = kernel(&head, &body);
            assert!(written(&source).is_empty(), "written out:\n{source}");
        }
    }

    #[test]
    fn a_barrier_or_shared_array_that_is_not_the_warps_keeps_the_fibers() {
        let shfl = "v += __shfl_xor_sync(0xffffffffu, v, 1);";
        for (head, body) in [
            // Under a branch the lanes may take apart (a divergent barrier).
            (
                "",
                format!("unsigned v = 1; if (threadIdx.x < 16) __syncthreads(); {shfl}"),
            ),
            // Its value used, or one of its other forms.
            ("", format!("unsigned v = __syncthreads_count(1); {shfl}")),
            (
                "",
                format!("unsigned v = 1; if (__syncthreads_or(v)) v = 2; {shfl}"),
            ),
            // In a function of the file.
            (
                "__device__ void wait_all() { __syncthreads(); }",
                format!("unsigned v = 1; wait_all(); {shfl}"),
            ),
            // A shared array declared inside a lane's code, or in a function.
            (
                "",
                format!("unsigned v = 1; if (v) {{ __shared__ int s[4]; s[0] = v; }} {shfl}"),
            ),
            (
                "__device__ int peek() { __shared__ int s[4]; return s[0]; }",
                format!("unsigned v = peek(); {shfl}"),
            ),
            // Dynamic shared memory declared in a lane's code; the warp's own
            // synchronization under a branch its lanes may take apart, or
            // inside an expression.
            (
                "",
                format!(
                    "unsigned v = 1; if (v) {{ extern __shared__ int dyn[]; v = dyn[0]; }} {shfl}"
                ),
            ),
            (
                "",
                format!("unsigned v = 1; if (threadIdx.x < 16) __syncwarp(0xffffu); {shfl}"),
            ),
            (
                "",
                format!("unsigned v = 1; v += (__syncwarp(), 1); {shfl}"),
            ),
            ("", format!("volatile unsigned v = 1; {shfl}")),
        ] {
            let source = kernel(head, &body);
            assert!(written(&source).is_empty(), "written out:\n{source}");
        }
    }

    #[test]
    fn built_for_the_lock_step_a_warp_statement_touches_no_memory_besides_its_operations() {
        let written_watched = |source: &str| {
            let tokens = lex(source.as_bytes()).code_tokens();
            lane_loops(source, &tokens, "\"k.cu\"", &[], true).len()
        };
        let head = "#define FULL 0xffffffffu\n#define SCALE 3\n__device__ int table[4];";
        for (body, watched) in [
            // The lane's own values, an element of its own array, a parameter
            // as passed, constants, math: written out either way.
            (
                "unsigned v = threadIdx.x; v = v * SCALE + __shfl_xor_sync(FULL, v, 1);",
                1,
            ),
            (
                "float a[2]; a[0] = threadIdx.x; a[1] += __shfl_xor_sync(FULL, a[0], 1);",
                1,
            ),
            (
                "unsigned v = 1; out[threadIdx.x] = __shfl_xor_sync(FULL, v, 1) + n;",
                1,
            ),
            ("float v = 1; v = fmaxf(v, __shfl_xor_sync(FULL, v, 1));", 1),
            // What another lane could write: shared or global arrays, pointers.
            (
                "__shared__ unsigned s[32]; unsigned v = s[threadIdx.x] + __shfl_xor_sync(FULL, 1u, 1);",
                0,
            ),
            (
                "unsigned v = 1; v += table[0] * __shfl_xor_sync(FULL, v, 1);",
                0,
            ),
            (
                "unsigned* p = out; unsigned v = *p + __shfl_xor_sync(FULL, 1u, 1);",
                0,
            ),
            (
                "unsigned* p = out; unsigned v = p[1] + __shfl_xor_sync(FULL, 1u, 1);",
                0,
            ),
        ] {
            let source = kernel(head, body);
            assert_eq!(written(&source).len(), 1, "not written out:\n{source}");
            assert_eq!(written_watched(&source), watched, "{source}");
        }
    }

    #[test]
    fn a_condition_on_the_warps_row_is_the_warps_where_the_block_gives_each_warp_one_row() {
        let reduce = "__device__ unsigned sum(unsigned v) {\n  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);\n  return v;\n}";
        for body in [
            // A block reduction: the first warp sums the warps' sums.
            "__shared__ unsigned part[32]; unsigned v = sum(threadIdx.x); if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v; __syncthreads(); if (threadIdx.x / 32 == 0) { v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0; v = sum(v); } out[threadIdx.x] = v;",
            "const int tid = threadIdx.x; const int warp = tid >> 5; unsigned v = tid; if (warp == 1) v = sum(v); out[tid] = v;",
            "int tid = threadIdx.x; unsigned v = tid; if (tid < 64 && n > 0) v = sum(v); out[tid] = v;",
            "unsigned v = 1; if (threadIdx.x >= warpSize) v = sum(v); out[0] = v;",
        ] {
            let source = kernel(reduce, body);
            let texts = written(&source);
            assert_eq!(texts.len(), 1, "not written out:\n{source}");
            assert!(texts[0].contains("lane_loop_start(true)"), "{}", texts[0]);
        }
        // Conditions the lanes of one warp may differ on, whatever the block.
        for body in [
            "unsigned v = 1; if (threadIdx.x % 32 == 0) v = sum(v); out[0] = v;",
            "unsigned v = 1; if (n * threadIdx.x / 32 == 0) v = sum(v); out[0] = v;",
            "unsigned v = 1; if (threadIdx.x < 33) v = sum(v); out[0] = v;",
            "unsigned v = 1; if (threadIdx.x + 1 < 32) v = sum(v); out[0] = v;",
            "unsigned v = 1; if (threadIdx.y / 32 == 0) v = sum(v); out[0] = v;",
            "int tid = threadIdx.x; tid += n; unsigned v = 1; if (tid < 32) v = sum(v); out[0] = v;",
            "unsigned v = 1; if (threadIdx.x >> 5 + 1) v = sum(v); out[0] = v;",
            "unsigned v = 1; if (n + threadIdx.x >> 5) v = sum(v); out[0] = v;",
        ] {
            let source = kernel(reduce, body);
            assert!(written(&source).is_empty(), "written out:\n{source}");
        }
        // Nothing read through a row: any block runs the lane-loop form.
        let source = kernel(
            reduce,
            "unsigned v = sum(threadIdx.x); out[threadIdx.x] = v;",
        );
        assert!(!written(&source)[0].contains("lane_loop_start(true)"));
    }

    #[test]
    fn an_alignas_the_rewriter_moves_in_a_shared_declaration_is_carried_over() {
        let source = "__global__ void k(unsigned* out) {\n  __shared__ alignas(16) unsigned s[64];\n  s[threadIdx.x] = threadIdx.x;\n  __syncthreads();\n  unsigned v = __shfl_xor_sync(0xffffffffu, s[threadIdx.x ^ 1], 1);\n  out[threadIdx.x] = v;\n}\n";
        let rewritten =
            super::super::rewrite::rewrite(std::path::Path::new("k.cu"), source).unwrap();
        let start = rewritten.cpp.find("lane_loop_start").expect(&rewritten.cpp);
        let copy = &rewritten.cpp[start..];
        assert!(
            copy.contains("alignas(16) __shared__ unsigned s[64];"),
            "{copy}"
        );
        // And so does the body as written, after the copy.
        let rest = &copy[copy.find("return; }").unwrap()..];
        assert!(
            rest.contains("alignas(16) __shared__ unsigned s[64];"),
            "{rest}"
        );
    }

    #[test]
    fn a_cuda_arch_test_between_statements_is_carried_over_as_the_rewriter_reads_it() {
        // The rewriter reads `__CUDA_ARCH__` in device code as the device pass
        // does (900): the copy carries the same reading.
        let source = "__global__ void k(unsigned* out) {\n  unsigned v = threadIdx.x;\n#if __CUDA_ARCH__ >= 700\n  v += __shfl_xor_sync(0xffffffffu, v, 1);\n#else\n  v = 0;\n#endif\n  out[threadIdx.x] = v;\n}\n";
        let rewritten =
            super::super::rewrite::rewrite(std::path::Path::new("k.cu"), source).unwrap();
        let copy = &rewritten.cpp[rewritten.cpp.find("lane_loop_start").unwrap()..];
        assert!(copy.contains("\n#if 900 >= 700\n"), "{copy}");
        assert!(copy.contains("\n#else\n"), "{copy}");
        assert!(copy.contains("\n#endif\n"), "{copy}");
        // Inside a lane's code it would be copied as written: not written out.
        let source = "__global__ void k(unsigned* out) {\n  unsigned v = threadIdx.x;\n  if (v == 0) {\n#if __CUDA_ARCH__ >= 700\n    v = 1;\n#endif\n  }\n  v += __shfl_xor_sync(0xffffffffu, v, 1);\n  out[threadIdx.x] = v;\n}\n";
        let rewritten =
            super::super::rewrite::rewrite(std::path::Path::new("k.cu"), source).unwrap();
        assert!(
            !rewritten.cpp.contains("lane_loop_start"),
            "{}",
            rewritten.cpp
        );
    }
}
