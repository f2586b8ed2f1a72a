//! Half-precision products kept in a named variable, fused as nvcc fuses
//! them.
//!
//! The shim keeps a product of two `__half`s (`a * b`, `__hmul(a, b)`; the
//! pair and bfloat16 forms alike) unrounded in a small type that an addition
//! fuses into one fused multiply-add and every other use rounds, which is
//! what nvcc does with a product added in the same expression
//! (`tests/cuda/half_contraction.cu`). Written into a variable first, the
//! product is rounded there in C++; on the H200 ptxas still fuses it into
//! every addition that uses it, as long as nothing else does: measured with
//! `tests/cuda/half_contraction_variable.cu` and
//! `tests/cuda/half_contraction_named.cu` (`s += t`, `c - t`, `t - c`, two
//! additions of one product, a dot-product loop, `__half2` and bfloat16
//! pairs, a copy `u = t` then `u + c`, an inlined function adding it:
//! fused; the product also stored, also added with `__hadd_rn`, or the
//! variable reassigned on a path: rounded).
//!
//! So where a declaration `__half t = <product>;` (or `__nv_bfloat16`,
//! `__half2`, `__nv_bfloat162`; `const` allowed) in device code or a macro
//! body has only such uses in its block, the rewriter makes it `auto t =
//! ::cuda_emu::fp::Keep<__half>::of(<product>);`: `Keep` hands a product
//! type through and turns anything else (a `float` product, say) into the
//! declared type, so types the rewriter cannot see never change what the
//! program computes. The uses it takes as additions: an operand of a binary
//! `+` or `-` that binds no tighter operator (`t + c`, `c - t`, `s + t + c`,
//! `x == t + c`; not beside a number, `t + 1.0f`: no addition of two halves), the right side of `+=` or `-=`, an argument of `__hadd`,
//! `__hsub`, `__hadd2` or `__hsub2`, and the initializer of another such
//! variable (`__half u = t;`, which then becomes `auto u = t;` when its own
//! uses qualify), and an argument of a function that adds it (below).
//! Anything else (another call, a store, `__hadd_rn`, a cast, an
//! assignment to `t`, `&t`) leaves the declaration as it was: rounded, as
//! the H200 rounds it then.
//!
//! nvcc inlines a `__device__` function and fuses a product passed to it
//! into the additions it makes of that parameter (measured:
//! `add_inline(t, c)`). So each by-value half-precision parameter of a
//! `__device__` function defined once at file scope (not a template, not
//! `__noinline__`, not `__host__ __device__`), whose every use is an
//! addition or an argument of such a parameter of another function, is
//! declared `::cuda_emu::fp::Addend<T>`: a value that holds a
//! product, or any other value v as the product v * 1, which adds to the
//! same correctly rounded sum as v itself.
//!
//! nvcc also fuses a product that a `__device__` function returns into the
//! caller's addition once it inlines the call (measured with
//! `tests/cuda/half_contraction_returned.cu`). So a function (defined once
//! at file scope, as above) whose every `return` is a product and whose
//! every call is an addition of its result, or the initializer of a
//! variable whose uses all are additions, is declared to return
//! `::cuda_emu::fp::Addend<T>` (`returned_products`); a number added to the call
//! (`mul(a, b) + 1.0f`) leaves it as it is.
//!
//! What stays different: a product that reaches an addition through a
//! function declared before its definition (warned about at the call), a
//! product returned by a function of which one call adds the result and
//! another does not (warned about at the `return`), or a variable assigned
//! after its declaration.
//! Written by hand over the rewriter's tokens, for the reason
//! `super::rewrite` gives: no C++ parser, and the subset is small.

use crate::cxx::lexer::{CodeToken, TokenKind};

/// One edit to the source: replace `start..end` with the text.
pub(super) type Edit = (usize, usize, String);

/// The half-precision types whose products the shim keeps.
const TYPES: &[&str] = &["__half", "__nv_bfloat16", "__half2", "__nv_bfloat162"];
/// Functions that call a product an addition as `+` does.
const ADDITIONS: &[&str] = &["__hadd", "__hsub", "__hadd2", "__hsub2"];
/// Functions that make a product.
const PRODUCTS: &[&str] = &["__hmul", "__hmul2"];

/// Whether `word` names a type whose products the shim keeps.
pub(super) fn is_half_type(word: &str) -> bool {
    TYPES.contains(&word)
}

/// A product variable passed to a function of the program that adds the
/// parameter: nvcc inlines the call and fuses the product there, the
/// emulator rounds it at the call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThroughCall {
    /// Where the variable is passed.
    pub line: u32,
    pub column: u32,
    pub variable: String,
    pub declared_on: u32,
    pub callee: String,
}

/// A half-precision product returned by a `__device__` function whose
/// result a call adds: nvcc inlines the call and fuses the product there
/// (`tests/cuda/half_contraction_returned.cu`), the emulator rounds it at
/// the `return`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnedProduct {
    /// Where the returned product starts.
    pub line: u32,
    pub column: u32,
    pub function: String,
    /// The first call whose result is added (or kept in a variable).
    pub added_on: u32,
}

/// What the rewriter does with the half-precision products that
/// `__device__` functions return (see `returned_products`).
#[derive(Debug, Default)]
pub(super) struct ReturnedProducts {
    /// The functions that return their product unrounded.
    pub kept: Vec<String>,
    /// The edits that declare their return type `::cuda_emu::fp::Addend<T>`.
    pub edits: Vec<Edit>,
    /// The returns still rounded though a call adds the result: warned about.
    pub warned: Vec<ReturnedProduct>,
}

/// The products returned by `__device__` functions (not `__noinline__`,
/// not `__host__ __device__`, not templates), one pass over their
/// definitions. A function whose every `return` is a product and whose
/// every call has its result added (an operand of `+` or `-`, the right
/// side of `+=` or `-=`, a whole argument of `__hadd` and friends; no
/// number on the other side) or initializes a variable whose uses all are
/// additions is kept: nvcc inlines each call and fuses the product into
/// those additions, and the return type `::cuda_emu::fp::Addend<T>` hands
/// it to the caller unrounded. A name used any other way (another call,
/// its address, a declaration before the definition) leaves the function
/// as it is; then each `return <product>;` of it is warned about when some
/// call adds the result or keeps it in a variable.
pub(super) fn returned_products(source: &str, tokens: &[CodeToken]) -> ReturnedProducts {
    let view = View { source, tokens };
    let depths = view.brace_depths();
    let mut found = ReturnedProducts::default();
    for j in 0..tokens.len() {
        let Some((close, end)) = view.device_definition(j, &depths) else {
            continue;
        };
        let name = view.text(j);
        // Each `return`, and whether it returns a product.
        let returns: Vec<(usize, bool)> = (close + 1..end)
            .filter(|&r| view.text(r) == "return" && tokens[r].kind == TokenKind::Ident)
            .map(|r| {
                let product =
                    (r + 1..end)
                        .find(|&k| view.text(k) == ";")
                        .is_some_and(|semicolon| {
                            semicolon > r + 1 && view.is_product(r + 1..semicolon)
                        });
                (r, product)
            })
            .collect();
        let uses = || (0..tokens.len()).filter(|&k| k != j && view.text(k) == name);
        let kept = !returns.is_empty()
            && returns.iter().all(|&(_, product)| product)
            && uses().all(|k| (k < j || k > end) && view.result_kept(k));
        if kept {
            let ty = j - 1;
            found.kept.push(name.to_string());
            found.edits.push((
                tokens[ty].start,
                tokens[ty].end,
                format!("::cuda_emu::fp::Addend<{}>", view.text(ty)),
            ));
            continue;
        }
        let added = uses()
            .filter(|&k| (k < j || k > end) && view.punct(k + 1, "("))
            .find(|&k| view.call_result_added(k));
        let Some(added) = added else {
            continue;
        };
        for &(r, _) in returns.iter().filter(|&&(_, product)| product) {
            found.warned.push(ReturnedProduct {
                line: tokens[r + 1].line,
                column: tokens[r + 1].column,
                function: name.to_string(),
                added_on: tokens[added].line,
            });
        }
    }
    found
}

/// The warning for a returned product, naming the file, line and column
/// of the product.
pub(crate) fn returned_warning(file: &std::path::Path, returned: &ReturnedProduct) -> String {
    format!(
        "{}:{}:{}: '{}' returns a half-precision product, and a call adds its result (line {}): \
         nvcc inlines such a call and fuses the product into that addition, rounding once \
         (measured, tests/cuda/half_contraction_returned.cu); the CPU emulator rounds it at the \
         return, so the sum may differ in its last bit",
        file.display(),
        returned.line,
        returned.column,
        returned.function,
        returned.added_on
    )
}

/// Why a declaration keeps its rounding: it does not qualify, or (worth a
/// warning) its product goes through a call that adds it.
pub(super) type NotKept = Option<ThroughCall>;

/// The edits that keep the product declared at `type_at` (the type's
/// token, at the start of a declaration) unrounded, or why not (see the
/// module's doc).
pub(super) fn product_variable(
    source: &str,
    tokens: &[CodeToken],
    type_at: usize,
    kept: &[String],
) -> Result<Vec<Edit>, NotKept> {
    let view = View { source, tokens };
    let declaration = view.declaration(type_at).ok_or(None)?;
    // The result of a function `returned_products` keeps: already an Addend<T>.
    let kept_call = view.is_call(declaration.init.clone())
        && kept.iter().any(|k| k == view.text(declaration.init.start));
    if !kept_call && !view.is_product(declaration.init.clone()) {
        return Err(None);
    }
    let mut edits = view.uses_qualify(&declaration, 0)?;
    let ty = view.text(type_at);
    edits.push((
        tokens[type_at].start,
        tokens[type_at].end,
        "auto".to_string(),
    ));
    if kept_call {
        return Ok(edits);
    }
    edits.push((
        tokens[declaration.init.start].start,
        tokens[declaration.init.start].start,
        format!("::cuda_emu::fp::Keep<{ty}>::of("),
    ));
    let semicolon = declaration.init.end;
    edits.push((
        tokens[semicolon].start,
        tokens[semicolon].start,
        ")".to_string(),
    ));
    Ok(edits)
}

/// The edits that let a product reach the additions of the program's own
/// functions: each by-value half-precision parameter of a `__device__`
/// function defined once at file scope (not a template, not
/// `__noinline__`) whose every use is an addition or an argument of
/// another such parameter (no copy) becomes `::cuda_emu::fp::Addend<T>`, which holds a product, or a value
/// as the product value * 1, and adds it with one rounding.
pub(super) fn addend_parameters(source: &str, tokens: &[CodeToken]) -> Vec<Edit> {
    let view = View { source, tokens };
    let depths = view.brace_depths();
    let mut edits = Vec::new();
    for j in 0..tokens.len() {
        for (_, ty) in view.addend_parameters(j, &depths, 0) {
            let text = format!("::cuda_emu::fp::Addend<{}>", view.text(ty));
            edits.push((tokens[ty].start, tokens[ty].end, text));
        }
    }
    edits
}

/// The warning for a product that goes through a call, naming the file,
/// line and column of the call.
pub(crate) fn warning(file: &std::path::Path, call: &ThroughCall) -> String {
    format!(
        "{}:{}:{}: the half-precision product in '{}' (line {}) is passed to '{}', which adds \
         it: nvcc inlines such a call and fuses the product into that addition, rounding once \
         (measured on the H200, tests/cuda/half_contraction_named.cu); the CPU emulator rounds \
         it at the call, so the sum may differ in its last bit",
        file.display(),
        call.line,
        call.column,
        call.variable,
        call.declared_on,
        call.callee
    )
}

/// `T name = init;`: the name's token and the initializer's tokens (its
/// end is the `;`).
struct Declaration {
    name: usize,
    init: std::ops::Range<usize>,
}

struct View<'a> {
    source: &'a str,
    tokens: &'a [CodeToken],
}

impl View<'_> {
    fn text(&self, k: usize) -> &str {
        let t = self.tokens[k];
        &self.source[t.start..t.end]
    }

    fn text_at(&self, k: Option<usize>) -> &str {
        match k {
            Some(k) if k < self.tokens.len() => self.text(k),
            _ => "",
        }
    }

    fn punct(&self, k: usize, p: &str) -> bool {
        k < self.tokens.len() && self.tokens[k].kind == TokenKind::Punct && self.text(k) == p
    }

    /// Whether tokens `a` and `b` lie on the same preprocessor line, or
    /// both outside any.
    fn same_context(&self, a: usize, b: usize) -> bool {
        self.tokens[a].directive == self.tokens[b].directive
    }

    /// Reads `[const] T name = init;` at `type_at`, where a statement
    /// starts (after `;`, `{` or `}`), with one declarator.
    fn declaration(&self, type_at: usize) -> Option<Declaration> {
        if !is_half_type(self.text(type_at)) {
            return None;
        }
        let mut before = type_at.checked_sub(1)?;
        if self.text(before) == "const" {
            before = before.checked_sub(1)?;
        }
        if !matches!(self.text(before), ";" | "{" | "}") || !self.same_context(before, type_at) {
            return None;
        }
        let name = type_at + 1;
        if name + 2 >= self.tokens.len()
            || self.tokens[name].kind != TokenKind::Ident
            || !self.punct(name + 1, "=")
            || self.punct(name + 2, "=")
        {
            return None;
        }
        let start = name + 2;
        let mut depth = 0i32;
        for k in start..self.tokens.len() {
            if !self.same_context(k, type_at) {
                return None;
            }
            match self.text(k) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "{" | "}" => return None,
                "," if depth == 0 => return None,
                ";" if depth == 0 => {
                    return (k > start).then_some(Declaration {
                        name,
                        init: start..k,
                    });
                }
                _ => {}
            }
            if depth < 0 {
                return None;
            }
        }
        None
    }

    /// Whether the tokens `init` are one product: `__hmul(...)`,
    /// `__hmul2(...)`, or operands joined by one binary `*` and nothing
    /// else at the top level (member access, scope and calls allowed).
    fn is_product(&self, init: std::ops::Range<usize>) -> bool {
        let (first, last) = (init.start, init.end - 1);
        if PRODUCTS.contains(&self.text(first))
            && self.punct(first + 1, "(")
            && self.closing(first + 1) == Some(last)
        {
            return true;
        }
        let mut depth = 0i32;
        let mut stars = 0;
        for k in init {
            let t = self.text(k);
            match t {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                _ if depth > 0 => {}
                "*" => {
                    if k == first || !self.ends_operand(k - 1) {
                        return false;
                    }
                    stars += 1;
                }
                "." => {}
                ":" if self.punct(k + 1, ":") || self.punct(k.wrapping_sub(1), ":") => {}
                _ if self.tokens[k].kind == TokenKind::Punct => return false,
                _ => {}
            }
        }
        stars == 1
    }

    /// Whether token `k` can end an operand: a name (not a keyword that
    /// begins an expression), a number, a literal, `)` or `]`.
    fn ends_operand(&self, k: usize) -> bool {
        match self.tokens[k].kind {
            TokenKind::Ident => !matches!(
                self.text(k),
                "return" | "case" | "sizeof" | "throw" | "co_return"
            ),
            TokenKind::Number | TokenKind::Str | TokenKind::Char => true,
            TokenKind::Punct => matches!(self.text(k), ")" | "]"),
            _ => false,
        }
    }

    /// The `)`, `]` or `}` that closes the bracket at `open`, on the same
    /// preprocessor line.
    fn closing(&self, open: usize) -> Option<usize> {
        let shut = match self.text(open) {
            "(" => ")",
            "[" => "]",
            "{" => "}",
            _ => return None,
        };
        let opener = self.text(open);
        let mut depth = 0usize;
        for k in open..self.tokens.len() {
            if !self.same_context(k, open) {
                return None;
            }
            let t = self.text(k);
            if t == opener {
                depth += 1;
            } else if t == shut {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
        }
        None
    }

    /// The `}` that ends the block holding token `from` (or `None` when it
    /// is not on the same preprocessor line).
    fn block_end(&self, from: usize) -> Option<usize> {
        let mut depth = 0i32;
        for k in from..self.tokens.len() {
            if !self.same_context(k, from) {
                return None;
            }
            match self.text(k) {
                "{" => depth += 1,
                "}" => {
                    if depth == 0 {
                        return Some(k);
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        None
    }

    /// The edits for the copies among the uses of the declared name when
    /// every use is an addition (see the module's doc), else why not.
    fn uses_qualify(&self, declaration: &Declaration, depth: usize) -> Result<Vec<Edit>, NotKept> {
        let end = self.block_end(declaration.init.end).ok_or(None)?;
        let ty = self.text(declaration.name - 1);
        self.uses_are_additions(
            declaration.name,
            ty,
            declaration.init.end + 1..end,
            depth,
            true,
        )
    }

    /// Whether every use of the name declared at `name` (of type `ty`) in
    /// `range` is an addition (with `copies`, also a copy or an argument of
    /// a function that adds it); the edits for its copies.
    fn uses_are_additions(
        &self,
        name_at: usize,
        ty: &str,
        range: std::ops::Range<usize>,
        depth: usize,
        copies: bool,
    ) -> Result<Vec<Edit>, NotKept> {
        if depth > 8 {
            return Err(None);
        }
        let name = self.text(name_at);
        let mut edits = Vec::new();
        let mut uses = 0;
        let mut through = None;
        for k in range {
            if self.tokens[k].kind != TokenKind::Ident || self.text(k) != name {
                continue;
            }
            let before = self.text_at(k.checked_sub(1));
            let two_before = self.text_at(k.checked_sub(2));
            if before == "."
                || (before == ">" && two_before == "-")
                || (before == ":" && two_before == ":")
            {
                continue; // a member or a qualified name, not this variable
            }
            uses += 1;
            if self.is_addition_operand(k) || self.is_addition_argument(k) {
                continue;
            }
            // An argument of a function of the program whose parameter
            // there takes the product (`addend_parameters`).
            if self.passed_to_addend(k, depth + 1) {
                continue;
            }
            if !copies {
                return Err(None);
            }
            // `[const] T u = name;`: a copy, fine when its own uses are.
            let Some(copy) = self.copy_declaration(k) else {
                // A call that adds it otherwise: kept rounded, worth a
                // warning when every other use is an addition.
                through = Some(self.call_that_adds(k, name_at, depth).ok_or(None)?);
                continue;
            };
            let copy_type = copy.name - 1;
            if self.text(copy_type) != ty {
                return Err(None);
            }
            edits.extend(self.uses_qualify(&copy, depth + 1)?);
            edits.push((
                self.tokens[copy_type].start,
                self.tokens[copy_type].end,
                "auto".to_string(),
            ));
        }
        if uses == 0 || through.is_some() {
            return Err(through);
        }
        Ok(edits)
    }

    /// The name at `k` (declared at `name_at`) passed as a whole argument to
    /// a function defined in this file whose parameter there is a
    /// half-precision one used only in additions.
    fn call_that_adds(&self, k: usize, name_at: usize, depth: usize) -> Option<ThroughCall> {
        let before = self.text_at(k.checked_sub(1));
        let next = self.text_at(Some(k + 1));
        if !matches!(before, "(" | ",") || !matches!(next, "," | ")") {
            return None;
        }
        let open = self.enclosing_paren(k)?;
        let callee = open.checked_sub(1)?;
        if self.tokens[callee].kind != TokenKind::Ident || is_half_type(self.text(callee)) {
            return None;
        }
        let index = self.commas(open + 1..k);
        let (parameter, ty, body) = self.definition_parameter(self.text(callee), open, index)?;
        // nvcc does not inline a `__noinline__` function: no fusion there.
        let head_start = (0..parameter)
            .rev()
            .find(|&p| matches!(self.text(p), ";" | "{" | "}"))
            .map_or(0, |p| p + 1);
        if (head_start..parameter).any(|p| self.text(p) == "__noinline__") {
            return None;
        }
        let body_range = body + 1..self.closing(body)?;
        self.uses_are_additions(parameter, ty, body_range, depth + 1, true)
            .ok()?;
        Some(ThroughCall {
            line: self.tokens[k].line,
            column: self.tokens[k].column,
            variable: self.text(k).to_string(),
            declared_on: self.tokens[name_at].line,
            callee: self.text(callee).to_string(),
        })
    }

    /// How many `{` are open before each token (preprocessor lines left out).
    fn brace_depths(&self) -> Vec<i32> {
        let mut depth = 0;
        let mut depths = Vec::with_capacity(self.tokens.len());
        for k in 0..self.tokens.len() {
            depths.push(depth);
            if self.tokens[k].directive.is_none() {
                match self.text(k) {
                    "{" => depth += 1,
                    "}" => depth -= 1,
                    _ => {}
                }
            }
        }
        depths
    }

    /// Where the function named at `j` is defined as `addend_parameters`
    /// asks: each parameter that takes a product, as (its index, its type's
    /// token).
    fn addend_parameters(&self, j: usize, depths: &[i32], nesting: usize) -> Vec<(usize, usize)> {
        let tokens = self.tokens;
        if nesting > 8 {
            return Vec::new();
        }
        let Some((close, _)) = self.device_function(j, depths, &[":", "~"]) else {
            return Vec::new();
        };
        // Defined once and declared nowhere else: no other `name(` after a
        // type.
        let name = self.text(j);
        let declared_again = (0..tokens.len()).any(|k| {
            k != j
                && self.text(k) == name
                && self.punct(k + 1, "(")
                && k > 0
                && (matches!(self.text(k - 1), "*" | "&" | ">")
                    || (tokens[k - 1].kind == TokenKind::Ident
                        && !matches!(
                            self.text(k - 1),
                            "return"
                                | "else"
                                | "case"
                                | "do"
                                | "throw"
                                | "co_return"
                                | "sizeof"
                                | "new"
                        )))
        });
        if declared_again {
            return Vec::new();
        }
        let Some(end) = self.closing(close + 1) else {
            return Vec::new();
        };
        // `[const] T name`, one parameter at a time.
        let mut found = Vec::new();
        let mut start = j + 2;
        let mut index = 0;
        let mut depth = 0i32;
        for p in j + 2..=close {
            match self.text(p) {
                "(" | "[" | "<" => depth += 1,
                ")" | "]" | ">" if p < close => depth -= 1,
                "," | ")" if depth == 0 => {
                    let parameter: Vec<usize> = (start..p).collect();
                    let typed = match parameter.as_slice() {
                        [c, t, n] if self.text(*c) == "const" => Some((*t, *n)),
                        [t, n] => Some((*t, *n)),
                        _ => None,
                    };
                    if let Some((ty, name)) = typed
                        && is_half_type(self.text(ty))
                        && tokens[name].kind == TokenKind::Ident
                        && self
                            .uses_are_additions(name, self.text(ty), close + 2..end, nesting, false)
                            .is_ok()
                    {
                        found.push((index, ty));
                    }
                    index += 1;
                    start = p + 1;
                }
                _ => {}
            }
        }
        found
    }

    /// Whether the name at `k` is a whole argument of a call of a function
    /// of this file whose parameter there takes a product.
    fn passed_to_addend(&self, k: usize, depth: usize) -> bool {
        let before = self.text_at(k.checked_sub(1));
        let next = self.text_at(Some(k + 1));
        if !matches!(before, "(" | ",") || !matches!(next, "," | ")") {
            return false;
        }
        let Some(open) = self.enclosing_paren(k) else {
            return false;
        };
        let Some(callee) = open.checked_sub(1) else {
            return false;
        };
        if self.tokens[callee].kind != TokenKind::Ident {
            return false;
        }
        let index = self.commas(open + 1..k);
        let depths = self.brace_depths();
        let name = self.text(callee);
        (0..self.tokens.len()).any(|j| {
            j != callee
                && self.text(j) == name
                && self
                    .addend_parameters(j, &depths, depth)
                    .iter()
                    .any(|&(i, _)| i == index)
        })
    }

    /// The unmatched `(` before `k`, on the same preprocessor line.
    fn enclosing_paren(&self, k: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut j = k.checked_sub(1)?;
        loop {
            if !self.same_context(j, k) {
                return None;
            }
            match self.text(j) {
                ")" | "]" => depth += 1,
                "[" => depth = depth.checked_sub(1)?,
                "(" if depth == 0 => return Some(j),
                "(" => depth -= 1,
                ";" | "{" | "}" => return None,
                _ => {}
            }
            j = j.checked_sub(1)?;
        }
    }

    /// How many commas stand at the top level of `range`.
    fn commas(&self, range: std::ops::Range<usize>) -> usize {
        let mut depth = 0i32;
        let mut commas = 0;
        for j in range {
            match self.text(j) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => commas += 1,
                _ => {}
            }
        }
        commas
    }

    /// In a definition `name(...) {` of this file (not the call at
    /// `call_open`), parameter `index` when it has a half-precision type:
    /// its name's token, its type and the body's `{`.
    fn definition_parameter(
        &self,
        name: &str,
        call_open: usize,
        index: usize,
    ) -> Option<(usize, &str, usize)> {
        (0..self.tokens.len()).find_map(|j| {
            if j + 1 == call_open
                || self.tokens[j].kind != TokenKind::Ident
                || self.text(j) != name
                || !self.punct(j + 1, "(")
                || self.tokens[j].directive.is_some()
            {
                return None;
            }
            let close = self.closing(j + 1)?;
            if !self.punct(close + 1, "{") {
                return None;
            }
            // The parameter's tokens: between the index-th top-level commas.
            let mut depth = 0i32;
            let mut commas = 0;
            let mut start = j + 2;
            let mut end = close;
            for p in j + 2..close {
                match self.text(p) {
                    "(" | "[" | "{" | "<" => depth += 1,
                    ")" | "]" | "}" | ">" => depth -= 1,
                    "," if depth == 0 => {
                        commas += 1;
                        if commas == index {
                            start = p + 1;
                        } else if commas == index + 1 {
                            end = p;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            if commas < index {
                return None;
            }
            let parameter = (start..end)
                .rev()
                .find(|&p| self.tokens[p].kind == TokenKind::Ident)?;
            let ty = (start..parameter).find(|&p| is_half_type(self.text(p)))?;
            let reference = (ty..parameter).any(|p| matches!(self.text(p), "&" | "*"));
            (!reference).then_some((parameter, self.text(ty), close + 1))
        })
    }

    /// `[const] T u = name;` with the name at `k`: that declaration.
    fn copy_declaration(&self, k: usize) -> Option<Declaration> {
        if !self.punct(k + 1, ";") || !self.punct(k.checked_sub(1)?, "=") {
            return None;
        }
        let type_at = k.checked_sub(3)?;
        let declaration = self.declaration(type_at)?;
        (declaration.init == (k..k + 1)).then_some(declaration)
    }

    /// Whether the name at `k` is an operand of a binary `+` or `-` that no
    /// tighter operator binds first, or the right side of `+=` or `-=`.
    fn is_addition_operand(&self, k: usize) -> bool {
        let next = self.text_at(Some(k + 1));
        let after = self.text_at(Some(k + 2));
        let ends_here = matches!(next, ";" | ")" | "," | "]" | "}" | "?" | ":")
            || self.binary_additive_after(k + 1)
            || matches!(
                (next, after),
                ("=", "=") | ("!", "=") | ("<", _) | (">", _) | ("&", "&") | ("|", "|")
            );
        let Some(before) = k.checked_sub(1) else {
            return false;
        };
        let b = self.text(before);
        // A number on the other side (`t + 1.0f`) is no addition of two
        // halves.
        // Right operand of `+`/`-`, or right side of `+=`/`-=`.
        if (b == "+" || b == "-") && self.binary_additive_before(before) {
            return ends_here && !self.is_number(before - 1);
        }
        if b == "=" && before > 0 && matches!(self.text(before - 1), "+" | "-") {
            return matches!(next, ";" | ")" | ",");
        }
        // Left operand: followed by a binary `+`/`-`, and nothing tighter
        // on its left.
        if !self.binary_additive_after(k + 1) || self.is_number(k + 2) {
            return false;
        }
        let tighter = matches!(b, "*" | "/" | "%" | "!" | "~" | ")" | "." | "]")
            || ((b == "+" || b == "-" || b == "&") && !self.binary_additive_before(before))
            || (b == ">" && before > 0 && self.text(before - 1) == "-");
        !tighter
    }

    /// Whether the `+` or `-` at `op` is binary: an operand ends before it,
    /// and it is not half of `++`, `--`, `+=`, `-=` or `->`.
    fn binary_additive_before(&self, op: usize) -> bool {
        op > 0
            && self.ends_operand(op - 1)
            && !self.punct(op + 1, "=")
            && !self.punct(op + 1, self.text(op))
            && !(self.text(op) == "-" && self.punct(op + 1, ">"))
    }

    /// Whether a binary `+` or `-` (not `++`, `--`, `+=`, `-=`, `->`)
    /// stands at `op`, right after an operand.
    fn binary_additive_after(&self, op: usize) -> bool {
        let t = self.text_at(Some(op));
        (t == "+" || t == "-")
            && self.tokens[op].kind == TokenKind::Punct
            && !self.punct(op + 1, "=")
            && !self.punct(op + 1, t)
            && !(t == "-" && self.punct(op + 1, ">"))
    }

    /// The tokens of the declaration head before the name at `j`, nearest
    /// first, back to the last `;`, `{` or `}`.
    fn head(&self, j: usize) -> Vec<&str> {
        (0..j)
            .rev()
            .take_while(|&k| {
                self.tokens[k].directive.is_none() && !matches!(self.text(k), ";" | "{" | "}")
            })
            .map(|k| self.text(k))
            .collect()
    }

    /// Where a `__device__` function returning a half-precision value is
    /// defined at `j` (file scope; not `__noinline__`, `__host__`,
    /// `__global__` or a template, not returning a pointer or reference):
    /// its parameters' `)` and its body's `}`.
    fn device_definition(&self, j: usize, depths: &[i32]) -> Option<(usize, usize)> {
        let (close, head) = self.device_function(j, depths, &["*", "&"])?;
        if !head.first().is_some_and(|t| is_half_type(t)) {
            return None;
        }
        Some((close, self.closing(close + 1)?))
    }

    /// Where a `__device__` function is defined at `j`, at file scope, not
    /// `__host__`, `__global__`, `__noinline__`, a template or an operator,
    /// and with none of `stops` in its head: its parameters' `)` and its
    /// head (see `head`).
    fn device_function(
        &self,
        j: usize,
        depths: &[i32],
        stops: &[&str],
    ) -> Option<(usize, Vec<&str>)> {
        let tokens = self.tokens;
        if tokens[j].kind != TokenKind::Ident
            || tokens[j].directive.is_some()
            || depths[j] != 0
            || !self.punct(j + 1, "(")
            || is_half_type(self.text(j))
        {
            return None;
        }
        let close = self.closing(j + 1)?;
        if !self.punct(close + 1, "{") {
            return None;
        }
        let head = self.head(j);
        let always = [
            "__host__",
            "__global__",
            "__noinline__",
            "template",
            "operator",
        ];
        let stopped = |t: &&str| always.contains(t) || stops.contains(t);
        (head.contains(&"__device__") && !head.iter().any(stopped)).then_some((close, head))
    }

    /// Whether the call whose name is at `k` has its result added: an
    /// operand of a binary `+` or `-`, the right side of `+=` or `-=`, a
    /// whole argument of `__hadd` and friends, or `T x = call(...);`.
    fn call_result_added(&self, k: usize) -> bool {
        let Some(close) = self.closing(k + 1) else {
            return false;
        };
        let before = self.text_at(k.checked_sub(1));
        let next = self.text_at(Some(close + 1));
        if self.binary_additive_after(close + 1)
            || (matches!(before, "+" | "-") && self.binary_additive_before(k - 1))
        {
            return true;
        }
        if before == "=" && k >= 2 {
            let two_before = self.text(k - 2);
            return next == ";"
                && (matches!(two_before, "+" | "-")
                    || self.tokens[k - 2].kind == TokenKind::Ident);
        }
        matches!(before, "(" | ",")
            && matches!(next, "," | ")")
            && self
                .enclosing_paren(k)
                .is_some_and(|open| open > 0 && ADDITIONS.contains(&self.text(open - 1)))
    }

    /// Whether the tokens `init` are one call `name(...)`.
    fn is_call(&self, init: std::ops::Range<usize>) -> bool {
        init.len() >= 3
            && self.tokens[init.start].kind == TokenKind::Ident
            && self.punct(init.start + 1, "(")
            && self.closing(init.start + 1) == Some(init.end - 1)
    }

    /// Whether the call whose name is at `k` has its result added (as
    /// `call_result_added` says, with no number on the other side of a `+`
    /// or `-`: `mul(a, b) + 1.0f` is no addition of two halves) or
    /// initializes `T x = call(...);` whose uses all are additions (not an
    /// assignment to a variable declared earlier, which rounds there).
    fn result_kept(&self, k: usize) -> bool {
        if !self.punct(k + 1, "(") {
            return false;
        }
        let Some(close) = self.closing(k + 1) else {
            return false;
        };
        if self.binary_additive_after(close + 1) {
            return !self.is_number(close + 2);
        }
        let before = self.text_at(k.checked_sub(1));
        if matches!(before, "+" | "-") && self.binary_additive_before(k - 1) {
            return k >= 2 && !self.is_number(k - 2);
        }
        if before == "=" && !matches!(self.text_at(k.checked_sub(2)), "+" | "-") {
            let Some(type_at) = k.checked_sub(3) else {
                return false;
            };
            return self.declaration(type_at).is_some_and(|declaration| {
                declaration.init == (k..declaration.init.end)
                    && self.is_call(declaration.init.clone())
                    && self.uses_qualify(&declaration, 0).is_ok()
            });
        }
        self.call_result_added(k)
    }

    /// Whether token `k` is a number.
    fn is_number(&self, k: usize) -> bool {
        k < self.tokens.len() && self.tokens[k].kind == TokenKind::Number
    }

    /// Whether the name at `k` is a whole argument of `__hadd` and friends.
    fn is_addition_argument(&self, k: usize) -> bool {
        let (Some(before), next) = (k.checked_sub(1), self.text_at(Some(k + 1))) else {
            return false;
        };
        let open = match (self.text(before), next) {
            ("(", ",") => Some(before),
            (",", ")") => self.enclosing_paren(k),
            _ => None,
        };
        let Some(open) = open else {
            return false;
        };
        open > 0 && ADDITIONS.contains(&self.text(open - 1)) && self.two_arguments(open)
    }

    /// Whether the call whose `(` is at `open` has two arguments.
    fn two_arguments(&self, open: usize) -> bool {
        let Some(close) = self.closing(open) else {
            return false;
        };
        let mut depth = 0i32;
        let mut commas = 0;
        for k in open + 1..close {
            match self.text(k) {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth -= 1,
                "," if depth == 0 => commas += 1,
                _ => {}
            }
        }
        commas == 1
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::rewrite::rewrite;

    /// The rewritten program's lines after the two prelude lines.
    fn body(source: &str) -> String {
        let cpp = rewrite(Path::new("k.cu"), source).expect("rewrites").cpp;
        cpp.splitn(3, '\n').nth(2).unwrap().to_string()
    }

    const KEEP: &str = "::cuda_emu::fp::Keep<__half>::of(";

    #[test]
    fn a_product_whose_uses_are_all_additions_is_kept() {
        for uses in [
            "o[0] = t + c;",
            "o[0] = c - t;",
            "o[0] = t - c;",
            "s += t;",
            "s -= t; o[1] = t + c + s;",
            "o[0] = __hadd(t, c); o[1] = __hsub(c, t);",
            "o[0] = x == t + c;",
        ] {
            let source = format!(
                "__global__ void k(__half* o, __half a, __half b, __half c, __half s, bool x) {{ __half t = a * b; {uses} }}"
            );
            let want = format!(
                "__global__ void k(__half* o, __half a, __half b, __half c, __half s, bool x) {{ auto t = {KEEP}a * b); {uses} }}"
            );
            assert_eq!(body(&source), want, "{uses}");
        }
    }

    #[test]
    fn a_product_with_another_use_is_left_rounded() {
        for uses in [
            "o[0] = t;",
            "o[0] = t * c;",
            "o[0] = c * t + s;",
            "o[0] = -t + c;",
            "o[0] = __hadd_rn(t, c) + t;",
            "o[0] = f(t) + c;",
            "t = c; o[0] = t + c;",
            "o[0] = (__half)t + c;",
            "g(&t); o[0] = t + c;",
            "o[0] = t++ + c;",
            "",
        ] {
            let source = format!(
                "__global__ void k(__half* o, __half a, __half b, __half c, __half s) {{ __half t = a * b; {uses} }}"
            );
            assert_eq!(body(&source), source, "{uses}");
        }
    }

    #[test]
    fn only_a_single_product_initializer_is_kept() {
        for init in [
            "a * b + c",
            "a * b * c",
            "-a * b",
            "*p",
            "a",
            "f(a) / b",
            "a * b, u = c",
            "cond ? a * b : c",
        ] {
            let source = format!(
                "__global__ void k(__half* o, const __half* p, __half a, __half b, __half c, bool cond) {{ __half t = {init}; o[0] = t + c; }}"
            );
            assert_eq!(body(&source), source, "{init}");
        }
        let source = "__device__ __half f(__half a, __half b, __half c) { const __half t = __hmul(a, b); return t + c; }";
        assert_eq!(
            body(source),
            format!(
                "__device__ __half f(__half a, __half b, ::cuda_emu::fp::Addend<__half> c) {{ const auto t = {KEEP}__hmul(a, b)); return t + c; }}"
            )
        );
        let source = "__device__ float2 f(__nv_bfloat162 p, __nv_bfloat162 q, __nv_bfloat162 w) { __nv_bfloat162 t = p.x * q[0]; return t + w; }";
        assert!(body(source).contains(
            "auto t = ::cuda_emu::fp::Keep<__nv_bfloat162>::of(p.x * q[0]); return t + w;"
        ));
    }

    #[test]
    fn a_copy_is_kept_with_its_source_when_its_uses_are_additions() {
        let source = "__global__ void k(__half* o, __half a, __half b, __half c) { __half t = a * b; __half u = t; o[0] = u + c; }";
        assert_eq!(
            body(source),
            format!(
                "__global__ void k(__half* o, __half a, __half b, __half c) {{ auto t = {KEEP}a * b); auto u = t; o[0] = u + c; }}"
            )
        );
        let stored = "__global__ void k(__half* o, __half a, __half b, __half c) { __half t = a * b; __half u = t; o[0] = u; o[1] = t + c; }";
        assert_eq!(body(stored), stored);
    }

    #[test]
    fn host_code_and_host_device_functions_are_left_alone() {
        for source in [
            "__half f(__half a, __half b, __half c) { __half t = a * b; return t + c; }",
            "__host__ __device__ __half f(__half a, __half b, __half c) { __half t = a * b; return t + c; }",
        ] {
            assert!(!body(source).contains("Keep"), "{source}");
        }
    }

    #[test]
    fn a_parameter_whose_uses_are_all_additions_takes_a_product() {
        let source = "__device__ __half add(__half x, const __half y) { return y + x; }\n\
                      __device__ unsigned bits(__half h) { return __half_as_ushort(h); }\n\
                      __global__ void k(__half* o, unsigned* u, __half a, __half b, __half c) {\n\
                      __half t = a * b;\n\
                      o[0] = add(c, t);\n\
                      __half v = a * c;\n\
                      u[0] = bits(v) + 1;\n\
                      }\n";
        let rewritten = rewrite(Path::new("k.cu"), source).unwrap();
        let cpp = rewritten.cpp;
        assert!(
            cpp.contains("__device__ __half add(::cuda_emu::fp::Addend<__half> x, const ::cuda_emu::fp::Addend<__half> y) { return y + x; }"),
            "{cpp}"
        );
        // A parameter handed on to an adding one takes a product too.
        let on = "__device__ __half add(__half x, __half y) { return y + x; }\n\
                  __device__ __half on(__half s, __half t) { return add(t, s); }\n";
        assert!(body(on).contains("__device__ __half on(::cuda_emu::fp::Addend<__half> s, ::cuda_emu::fp::Addend<__half> t)"));
        // `bits` does not add its parameter, so `v` stays rounded.
        assert!(cpp.contains("__device__ unsigned bits(__half h)"), "{cpp}");
        assert!(cpp.contains(&format!("auto t = {KEEP}a * b);")), "{cpp}");
        assert!(cpp.contains("__half v = a * c;"), "{cpp}");
        assert!(rewritten.half_product_calls.is_empty());
        // Not for a template, a __noinline__ or __host__ __device__
        // function, nor one declared again.
        for head in [
            "template <int N> __device__ __half add(__half x, __half y)",
            "__device__ __noinline__ __half add(__half x, __half y)",
            "__host__ __device__ __half add(__half x, __half y)",
            "__device__ __half add(__half x, __half y);\n__device__ __half add(__half x, __half y)",
            "__device__ __half add(__half& x, __half y)",
            "__device__ __half add(__half y, __half x = __half())",
        ] {
            let source = format!("{head} {{ return x + y; }}\n");
            assert!(!body(&source).contains("Addend<__half> x"), "{head}");
        }
    }

    #[test]
    fn a_product_passed_to_a_function_that_adds_it_elsewhere_is_warned_about() {
        // Declared before its definition: the parameter keeps its type, so
        // the call rounds the product where nvcc fuses it after inlining.
        let source = "__device__ __half add(__half x, __half y);\n\
                      __global__ void k(__half* o, unsigned* u, __half a, __half b, __half c) {\n\
                      __half t = a * b;\n\
                      o[0] = add(c, t);\n\
                      __half w = b * c;\n\
                      o[1] = add(w, c); u[1] = __half_as_ushort(w);\n\
                      }\n\
                      __device__ __half add(__half x, __half y) { return y + x; }\n\
                      __device__ __noinline__ __half late(__half x, __half y) { return y + x; }\n\
                      __global__ void m(__half* o, __half a, __half b) { __half t = a * b; o[0] = late(t, a); }\n";
        let rewritten = rewrite(Path::new("k.cu"), source).unwrap();
        assert!(!rewritten.cpp.contains("Keep"), "{}", rewritten.cpp);
        // `w` is also stored and `late` is never inlined: on the H200
        // neither is fused, so only `t` is worth the warning.
        let calls = rewritten.half_product_calls;
        assert_eq!(calls.len(), 1, "{calls:?}");
        assert_eq!(
            (calls[0].line, calls[0].column, calls[0].declared_on),
            (4, 15, 3)
        );
        assert_eq!(
            (calls[0].variable.as_str(), calls[0].callee.as_str()),
            ("t", "add")
        );
        let warning = super::warning(Path::new("k.cu"), &calls[0]);
        assert!(
            warning.starts_with("k.cu:4:15: the half-precision product in 't' (line 3) is passed to 'add', which adds it"),
            "{warning}"
        );
    }

    #[test]
    fn a_product_returned_to_an_addition_is_warned_about_at_the_return() {
        let source = "__device__ __half mul(__half a, __half b) { return a * b; }\n\
                      __device__ __noinline__ __half never(__half a, __half b) { return a * b; }\n\
                      __device__ __half stored(__half a, __half b) { return __hmul(a, b); }\n\
                      __device__ __half sum(__half a, __half b) { return a + b; }\n\
                      __global__ void k(__half* o, __half a, __half b, __half c) {\n\
                      o[0] = mul(a, b) + c; o[1] = never(a, b) + c;\n\
                      o[2] = stored(a, b); o[3] = sum(a, b) + c;\n\
                      __half t = mul(b, a); o[4] = __hadd(c, stored(a, c));\n\
                      }\n";
        let rewritten = rewrite(Path::new("k.cu"), source).unwrap();
        let returned: Vec<(u32, u32, &str, u32)> = rewritten
            .half_product_returns
            .iter()
            .map(|r| (r.line, r.column, r.function.as_str(), r.added_on))
            .collect();
        // `never` is not inlined, `sum` returns a sum; `stored`'s result is
        // added on line 8 only; `mul`'s is added on line 6, and makes a
        // variable nothing uses on line 8 (not a use the rewriter keeps: a
        // function whose every call it keeps hands the product over, below).
        assert_eq!(returned, [(1, 52, "mul", 6), (3, 55, "stored", 8)]);
        let warning =
            super::returned_warning(Path::new("k.cu"), &rewritten.half_product_returns[0]);
        assert!(
            warning.starts_with("k.cu:1:52: 'mul' returns a half-precision product, and a call adds its result (line 6)"),
            "{warning}"
        );
    }

    #[test]
    fn a_product_added_to_a_number_is_left_rounded() {
        // `t + 1.0f` is a float sum on the GPU (or a converted number):
        // neither the variable nor the parameter takes the product.
        let source = "__device__ __half add_one(__half x) { return x + 1.0f; }\n\
                      __global__ void k(__half* o, float* f, __half a, __half b) {\n\
                      __half t = a * b; f[0] = t + 1.0f; __half u = a * b; f[1] = 2 - u;\n\
                      o[0] = add_one(a * b);\n\
                      }\n";
        let out = body(source);
        assert!(out.contains("__half t = a * b;"), "{out}");
        assert!(out.contains("__half u = a * b;"), "{out}");
        assert!(out.contains("__device__ __half add_one(__half x)"), "{out}");
    }

    #[test]
    fn a_function_whose_every_call_adds_its_product_returns_it_unrounded() {
        let source = "__device__ __half mul(__half a, __half b) { return a * b; }\n\
                      __device__ __nv_bfloat16 mul_bf(__nv_bfloat16 a, __nv_bfloat16 b) { return __hmul(a, b); }\n\
                      __device__ __half plus_one(__half a, __half b) { return a * b; }\n\
                      __device__ __half assigned(__half a, __half b) { return a * b; }\n\
                      __global__ void k(__half* o, __nv_bfloat16* p, __half a, __half b, __half c) {\n\
                      o[0] = mul(a, b) + c; o[1] = __hadd(c, mul(b, a)); o[2] -= mul(a, a);\n\
                      __half t = mul(b, a); o[3] = t + c; p[0] = mul_bf(p[1], p[2]) + p[3];\n\
                      o[4] = plus_one(a, b) + 1.0f; __half u = c; u = assigned(a, b); o[5] = u;\n\
                      }\n";
        let out = body(source);
        assert!(
            out.contains("__device__ ::cuda_emu::fp::Addend<__half> mul("),
            "{out}"
        );
        assert!(
            out.contains("__device__ ::cuda_emu::fp::Addend<__nv_bfloat16> mul_bf("),
            "{out}"
        );
        assert!(out.contains("auto t = mul(b, a); o[3] = t + c;"), "{out}");
        // A number added (the sum is a float, or the number is converted),
        // an assignment to a variable declared before: rounded, as nvcc's.
        assert!(out.contains("__device__ __half plus_one("), "{out}");
        assert!(out.contains("__device__ __half assigned("), "{out}");
        let rewritten = rewrite(Path::new("k.cu"), source).unwrap();
        let warned: Vec<&str> = rewritten
            .half_product_returns
            .iter()
            .map(|r| r.function.as_str())
            .collect();
        // Warned where a call is added or assigned, as before.
        assert_eq!(warned, ["plus_one", "assigned"]);
    }

    #[test]
    fn a_product_in_a_macro_body_is_kept_within_its_braces() {
        let source = "#define CASE { __half t = a * b; __half r = t + c; o[0] = r; }\n";
        assert!(body(source).contains(&format!("auto t = {KEEP}a * b); __half r = t + c;")));
        let open = "#define CASE __half t = a * b; __half r = t + c;\n";
        assert_eq!(body(open), open);
    }
}
