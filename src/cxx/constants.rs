//! What the tolerance rule reads from a lesson's source: the literal a
//! `constexpr` number is declared with, and the name of the function a
//! snippet defines. Both read tokens from [`super::lexer`], so a declaration
//! in a comment or a string is not one, and one split over lines is.
//!
//! # Constants
//!
//! [`constexpr_literal`] finds `constexpr TYPE NAME = LITERAL;` and
//! `constexpr TYPE NAME{LITERAL};`, `static` and `inline` allowed before
//! `constexpr`, at the start of a statement anywhere in the file (at
//! namespace scope, in a class or in a function). The value is its code
//! tokens as written, comments left out; whether it is a number is the
//! caller's business.
//!
//! It does not evaluate `#if`, with two exceptions that keep it from reading
//! a declaration the compiler does not see, or picking one of two:
//! - a branch under `#if 0` (up to its `#elif`, `#else` or `#endif`) is set
//!   aside: nothing in it is declared;
//! - a name declared in two branches of one `#if` (`#if FAST ... #else ...`)
//!   is refused, naming both lines, since which one counts depends on how the
//!   program is compiled.
//!
//! Any other declaration under a condition counts as written. When a name is
//! declared more than once otherwise (in two scopes), the first declaration
//! counts. A comment or raw string that is never closed is refused (the
//! lexer's policy): what follows it cannot be read.
//!
//! # The function a snippet defines
//!
//! [`defined_function`] names the first function whose body the snippet
//! opens at its top level, as the definition scanner names it, without its
//! qualifier (`Acc::get` is `get`).

use super::definitions::{DefinitionKind, declaration_name};
use super::lexer::{CodeToken, TokenKind, lex};

/// A constant's declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Constant {
    /// Its value's code tokens as written, one space where the source had
    /// any gap between two of them (`1e-5`, `1.0 / (1 << 23)`).
    pub value: String,
    /// The 1-based line of its name.
    pub line: usize,
}

/// Why a constant cannot be read, at a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConstantProblem {
    pub line: usize,
    pub message: String,
}

/// The declaration of `name` in `src` (see the module doc); `Ok(None)` when
/// nothing declares it.
pub(crate) fn constexpr_literal(
    src: &str,
    name: &str,
) -> Result<Option<Constant>, ConstantProblem> {
    let tokens = code_tokens(src)?;
    let tokens = tokens.as_slice();
    let text = |k: usize| &src[tokens[k].start..tokens[k].end];
    let mut conditions = Conditions::default();
    let mut found: Vec<(Constant, Vec<Branch>)> = Vec::new();
    let mut k = 0;
    while k < tokens.len() {
        if tokens[k].directive == Some(k) {
            k = conditions.read_directive(tokens, text, k);
            continue;
        }
        if !conditions.is_dead()
            && starts_statement(tokens, text, k)
            && let Some((constant, next)) = declaration(tokens, text, k, name)
        {
            found.push((constant, conditions.branches()));
            k = next;
            continue;
        }
        k += 1;
    }
    for (n, (first, first_branches)) in found.iter().enumerate() {
        for (second, second_branches) in &found[n + 1..] {
            if let Some(line) = diverging(first_branches, second_branches) {
                return Err(ConstantProblem {
                    line: second.line,
                    message: format!(
                        "`{name}` is declared in two branches of the `#if` at line {line} \
                         (lines {} and {}), so which one the program uses depends on how it \
                         is compiled; declare it once, outside the `#if`",
                        first.line, second.line
                    ),
                });
            }
        }
    }
    Ok(found.into_iter().next().map(|(constant, _)| constant))
}

/// What the lexer makes of `src` for [`constexpr_literal`]: its code tokens,
/// or why the constants cannot be read. A tolerance rule reads several
/// constants of one source in a row, so the last source lexed on this
/// thread is remembered with its tokens (compared whole, byte for byte).
fn code_tokens(src: &str) -> Result<std::rc::Rc<Vec<CodeToken>>, ConstantProblem> {
    type Lexed = (String, Result<std::rc::Rc<Vec<CodeToken>>, ConstantProblem>);
    thread_local! {
        static LAST: std::cell::RefCell<Option<Lexed>> = const { std::cell::RefCell::new(None) };
    }
    if let Some(found) = LAST.with_borrow(|last| {
        last.as_ref()
            .filter(|(text, _)| text == src)
            .map(|(_, tokens)| tokens.clone())
    }) {
        return found;
    }
    let lexed = lex(src.as_bytes());
    let tokens = match lexed.error() {
        Some(error) => Err(ConstantProblem {
            line: error.line,
            message: format!(
                "{}, so the constants after it cannot be read",
                error.message
            ),
        }),
        None => Ok(std::rc::Rc::new(lexed.code_tokens())),
    };
    LAST.set(Some((src.to_string(), tokens.clone())));
    tokens
}

/// Whether token `k` starts a statement or declaration: the first in the
/// file, or after `;`, `{`, `}`, a label's `:` or a preprocessor line.
fn starts_statement<'s>(tokens: &[CodeToken], text: impl Fn(usize) -> &'s str, k: usize) -> bool {
    let Some(before) = k.checked_sub(1) else {
        return true;
    };
    if tokens[before].directive.is_some() {
        return true;
    }
    match text(before) {
        ";" | "{" | "}" => true,
        ":" => !(before > 0 && text(before - 1) == ":") && text(k) != ":",
        _ => false,
    }
}

/// `[static|inline]* constexpr TYPE NAME (= VALUE | {VALUE});` from token
/// `k`, all outside preprocessor lines: the constant and the index after
/// its `;`.
fn declaration<'s>(
    tokens: &[CodeToken],
    text: impl Fn(usize) -> &'s str,
    k: usize,
    name: &str,
) -> Option<(Constant, usize)> {
    let code = |j: usize| j < tokens.len() && tokens[j].directive.is_none();
    let mut j = k;
    while code(j) && matches!(text(j), "static" | "inline") {
        j += 1;
    }
    if !code(j) || text(j) != "constexpr" {
        return None;
    }
    // The declarator: the identifier right before the first `=` or `{`.
    let mut at = j + 1;
    while code(at) && !matches!(text(at), "=" | "{" | ";") {
        at += 1;
    }
    if !code(at) || text(at) == ";" || at == j + 1 {
        return None;
    }
    let name_at = at - 1;
    if tokens[name_at].kind != TokenKind::Ident || text(name_at) != name {
        return None;
    }
    let (value, semicolon) = if text(at) == "=" {
        let end = depth_zero(tokens, &text, at + 1, ";")?;
        (at + 1..end, end)
    } else {
        let close = depth_zero(tokens, &text, at + 1, "}")?;
        (at + 1..close, close + 1)
    };
    if !code(semicolon) || text(semicolon) != ";" || value.is_empty() {
        return None;
    }
    let mut written = String::new();
    for v in value.clone() {
        if v > value.start && tokens[v - 1].end != tokens[v].start {
            written.push(' ');
        }
        written.push_str(text(v));
    }
    Some((
        Constant {
            value: written,
            line: tokens[name_at].line as usize,
        },
        semicolon + 1,
    ))
}

/// The first `stop` from `from` outside brackets, not past a `;` or a
/// preprocessor line.
fn depth_zero<'s>(
    tokens: &[CodeToken],
    text: &impl Fn(usize) -> &'s str,
    from: usize,
    stop: &str,
) -> Option<usize> {
    let mut depth = 0usize;
    for (j, token) in tokens.iter().enumerate().skip(from) {
        if token.directive.is_some() {
            return None;
        }
        let t = text(j);
        if depth == 0 && t == stop {
            return Some(j);
        }
        match t {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.checked_sub(1)?,
            ";" => return None,
            _ => {}
        }
    }
    None
}

/// One branch of an `#if` group: which group (by the line of its `#if`) and
/// which of its branches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Branch {
    if_line: u32,
    index: usize,
}

/// The open `#if` groups at a point of the file.
#[derive(Default)]
struct Conditions {
    open: Vec<Frame>,
}

struct Frame {
    branch: Branch,
    /// This branch is under `#if 0`.
    dead: bool,
}

impl Conditions {
    /// Reads the preprocessor line whose `#` is token `hash`; returns the
    /// index of the token after it.
    fn read_directive<'s>(
        &mut self,
        tokens: &[CodeToken],
        text: impl Fn(usize) -> &'s str,
        hash: usize,
    ) -> usize {
        let end = (hash + 1..tokens.len())
            .find(|&j| tokens[j].directive != Some(hash))
            .unwrap_or(tokens.len());
        let words: Vec<&str> = (hash + 1..end).map(&text).collect();
        let zero = words.len() == 2 && words[1] == "0";
        match words.first().copied() {
            Some("if" | "ifdef" | "ifndef") => self.open.push(Frame {
                branch: Branch {
                    if_line: tokens[hash].line,
                    index: 0,
                },
                dead: words[0] == "if" && zero,
            }),
            Some("elif" | "elifdef" | "elifndef" | "else") => {
                if let Some(frame) = self.open.last_mut() {
                    frame.branch.index += 1;
                    frame.dead = words[0] == "elif" && zero;
                }
            }
            Some("endif") => {
                self.open.pop();
            }
            _ => {}
        }
        end
    }

    fn is_dead(&self) -> bool {
        self.open.iter().any(|frame| frame.dead)
    }

    fn branches(&self) -> Vec<Branch> {
        self.open.iter().map(|frame| frame.branch).collect()
    }
}

/// The line of the `#if` whose different branches hold two declarations.
fn diverging(a: &[Branch], b: &[Branch]) -> Option<u32> {
    a.iter()
        .zip(b)
        .take_while(|(x, y)| x.if_line == y.if_line)
        .find(|(x, y)| x.index != y.index)
        .map(|(x, _)| x.if_line)
}

/// The name of the first function whose body `snippet` opens at its top
/// level, without its qualifier; `None` when it opens none.
pub(crate) fn defined_function(snippet: &str) -> Option<String> {
    let lexed = lex(snippet.as_bytes());
    let tokens = lexed.tokens();
    let text = |k: usize| &snippet[tokens[k].span.clone()];
    let mut head_start = 0;
    let mut depth = 0usize;
    for k in 0..tokens.len() {
        if !tokens[k].is_code() || tokens[k].kind == TokenKind::Directive {
            if depth == 0 && tokens[k].kind == TokenKind::Directive {
                head_start = k + 1;
            }
            continue;
        }
        match (text(k), depth) {
            ("{", 0) => {
                let head = &tokens[head_start..k];
                let opens_a_body = head.iter().any(|t| &snippet[t.span.clone()] == "(");
                if opens_a_body {
                    let (name, kind) = declaration_name(snippet, head);
                    if matches!(kind, DefinitionKind::Function | DefinitionKind::Kernel) {
                        let bare = name.rsplit("::").next().unwrap_or(&name);
                        return (!bare.is_empty()).then(|| bare.to_string());
                    }
                }
                depth = 1;
            }
            ("{", _) => depth += 1,
            ("}", _) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    head_start = k + 1;
                }
            }
            (";", 0) => head_start = k + 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(src: &str, name: &str) -> Option<(String, usize)> {
        constexpr_literal(src, name)
            .unwrap()
            .map(|c| (c.value, c.line))
    }

    fn problem(src: &str, name: &str) -> ConstantProblem {
        constexpr_literal(src, name).unwrap_err()
    }

    #[test]
    fn declarations_of_both_forms_with_prefixes() {
        let src = "int x;\nconstexpr int kBlock = 256;  // threads\n static constexpr double kEps{1.5e-3};\n\
                   inline static constexpr long long kN = 16'483LL;\nstruct S { static constexpr float kF = 0.5f; };\n";
        assert_eq!(value(src, "kBlock"), Some(("256".into(), 2)));
        assert_eq!(value(src, "kEps"), Some(("1.5e-3".into(), 3)));
        assert_eq!(value(src, "kN"), Some(("16'483LL".into(), 4)));
        assert_eq!(value(src, "kF"), Some(("0.5f".into(), 5)));
        assert_eq!(value(src, "x"), None);
        assert_eq!(value(src, "kMissing"), None);
    }

    #[test]
    fn a_value_is_its_code_as_written_without_comments() {
        let src =
            "constexpr double kA =\n  1.0 / (1 << 23);\nconstexpr int kB = /* threads */ 256;\n";
        assert_eq!(value(src, "kA"), Some(("1.0 / (1 << 23)".into(), 1)));
        assert_eq!(value(src, "kB"), Some(("256".into(), 3)));
    }

    #[test]
    fn declarations_in_comments_and_strings_are_not_found() {
        let src = "/*\nconstexpr int kBlock = 128;\n*/\n// constexpr int kBlock = 64;\n\
                   const char* s = \"constexpr int kBlock = 32;\";\nconstexpr int kBlock = 256;\n";
        assert_eq!(value(src, "kBlock"), Some(("256".into(), 6)));
        assert_eq!(value("/* constexpr int kBlock = 128; */", "kBlock"), None);
    }

    #[test]
    fn declarations_under_if_0_are_set_aside() {
        let src =
            "#if 0\nconstexpr int kBlock = 128;\n#else\nconstexpr int kBlock = 256;\n#endif\n";
        assert_eq!(value(src, "kBlock"), Some(("256".into(), 4)));
        let src = "#if 0\n#if FAST\nconstexpr int kBlock = 1;\n#endif\nconstexpr int kBlock = 2;\n#endif\n";
        assert_eq!(value(src, "kBlock"), None);
        let src = "#ifdef A\n#elif 0\nconstexpr int k = 1;\n#endif\nconstexpr int k = 2;";
        assert_eq!(value(src, "k"), Some(("2".into(), 5)));
    }

    #[test]
    fn the_remembered_tokens_are_those_of_the_source_asked_about() {
        let a = "constexpr float kTol = 1e-5f;\n";
        let b = "constexpr float kTol = 2e-5f;\n";
        let value = |src| constexpr_literal(src, "kTol").unwrap().unwrap().value;
        assert_eq!(value(a), "1e-5f");
        assert_eq!(value(a), "1e-5f");
        assert_eq!(value(b), "2e-5f");
        assert_eq!(value(a), "1e-5f");
        assert!(constexpr_literal("/* open", "kTol").is_err());
        assert!(constexpr_literal("/* open", "kTol").is_err());
        assert_eq!(value(b), "2e-5f");
    }

    #[test]
    fn a_declaration_in_two_branches_is_refused() {
        let src = "int a;\n#if FAST\nconstexpr int kBlock = 512;\n#else\nconstexpr int kBlock = 256;\n#endif\n";
        let p = problem(src, "kBlock");
        assert_eq!(p.line, 5);
        assert!(
            p.message.starts_with(
                "`kBlock` is declared in two branches of the `#if` at line 2 (lines 3 and 5)"
            ),
            "{}",
            p.message
        );
        // One branch only, or one inside and one after the group: as written.
        let src = "#ifdef FAST\nconstexpr int kBlock = 512;\n#endif\nconstexpr int kBlock = 256;\n";
        assert_eq!(value(src, "kBlock"), Some(("512".into(), 2)));
    }

    #[test]
    fn an_unterminated_comment_is_refused_at_its_line() {
        let p = problem("int a;\n/* open\nconstexpr int k = 1;\n", "k");
        assert_eq!(p.line, 2);
        assert!(p.message.contains("never closed"), "{}", p.message);
    }

    #[test]
    fn lookalikes_are_not_declarations() {
        for src in [
            "int f(int x = constexpr_k);",
            "constexpr int kArr[2] = {1, 2};",
            "auto y = kOther; constexpr int z = 1;",
            "constexpr int k;",
            "x = constexpr int k = 1;",
        ] {
            assert_eq!(value(src, "k"), None, "{src}");
        }
    }

    #[test]
    fn the_function_a_snippet_defines() {
        let snippet = "// BUG: rounds down (x) {\nfloat sumDropTail(const std::vector<float>& x) {\n  return 0;\n}\n";
        assert_eq!(defined_function(snippet).as_deref(), Some("sumDropTail"));
        assert_eq!(defined_function("int a;\n"), None);
        let snippet = "struct S { int f() { return 1; } };\n/* g() { */\n\
                       template <int N>\n__global__ void __launch_bounds__(256) fill(float* x) {\n}\n";
        assert_eq!(defined_function(snippet).as_deref(), Some("fill"));
        assert_eq!(
            defined_function("float Acc::get() const { return t; }").as_deref(),
            Some("get")
        );
        assert_eq!(defined_function("int table[] = {1, 2};\n"), None);
    }
}
