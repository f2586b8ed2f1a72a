//! `__host__ __device__` functions: contracted where device code calls them,
//! not where host code does.
//!
//! nvcc compiles such a function twice: for the device, where `a*b + c`
//! becomes one fused multiply-add, and for the host compiler, which targets
//! plain x86-64 and rounds the product first. The emulator compiles it once,
//! and `__device__` asks for contraction (`CUDA_EMU_DEVICE_CODE`), so a
//! program's CPU reference would agree with its kernel where on the GPU the
//! two differ in the last bits: exactly what a lesson on testing kernels
//! against a reference must not hide.
//!
//! So the rewriter gives such a function a second copy of its body in a
//! lambda that asks for contraction, taken when the function runs in device
//! code, and drops the `__device__` that would contract the body itself
//! (every such function, even one with nothing to fuse: GCC inlines its
//! callees into it with its own options):
//!
//! ```text
//! __host__ __device__ float f(float x) { return a*x + b; }
//! __host__  float f(float x) { if (!__builtin_is_constant_evaluated() && ::cuda_emu::in_device_code())
//!     return [&]() CUDA_EMU_DEVICE_CODE -> float { return a*x + b; }(); return a*x + b; }
//! ```
//!
//! The copy is the body's tokens on the `{`'s line, so no line of the
//! program moves; a call of a math function the shim has CUDA's own
//! implementation of (`fminf`, `logf`) calls CUDA's in the copy, and the C
//! library's in the body, as nvcc's two compilations do. Functions where a
//! copy could change what the program does
//! or reports keep the old form (contracted in host code too, as the README
//! says): a body with a preprocessor line, a `static` local, a label, a
//! `__LINE__`-like name or `assert` (the copy would report the `{`'s line),
//! a token spanning lines, or anything else the rewriter changes inside it; a
//! head this module cannot read (constructors, operators, conversion
//! functions). Written by hand over the rewriter's tokens: no C++ parser
//! crate reads CUDA heads, and the subset needed is small.

use crate::cxx::lexer::{CodeToken, TokenKind};

/// Specifiers that may stand in a function's head before its return type.
const SPECIFIERS: &[&str] = &[
    "__host__",
    "__device__",
    "__forceinline__",
    "__noinline__",
    "__inline__",
    "inline",
    "static",
    "extern",
    "constexpr",
    "virtual",
    "explicit",
    "friend",
];

/// Names that make a body's copy report or behave differently.
const BODY_STOPS: &[&str] = &[
    "static",
    "goto",
    "__LINE__",
    "__FILE__",
    "__func__",
    "__FUNCTION__",
    "__PRETTY_FUNCTION__",
    "assert",
    "__CUDA_ARCH__",
    "asm",
    "__asm__",
    "__asm",
];

/// One edit to the source: replace `start..end` with `text`.
pub(super) type Edit = (usize, usize, String);

/// A function's device copy: its edits, and where each renamed call is in
/// the copy (the token that starts it as written, and the byte just past
/// the new name in the text inserted after the `{`, where the compiler
/// reports the call).
#[derive(Debug)]
pub(super) struct DeviceCopy {
    pub edits: Vec<Edit>,
    pub renamed: Vec<(usize, usize)>,
}

/// The edits that give the `__host__ __device__` function whose head starts
/// at token `head_start` and whose body is `open..=close` its contracted
/// device copy, or `None` where it keeps its form. `edited` says whether
/// the rewriter changes anything inside the body; `renames` are the tokens
/// `first..=last` that the copy has another name for.
pub(super) fn device_copy(
    source: &str,
    tokens: &[CodeToken],
    head_start: usize,
    open: usize,
    close: usize,
    edited: bool,
    renames: &[(usize, usize, &str)],
) -> Option<DeviceCopy> {
    let text = |k: usize| &source[tokens[k].start..tokens[k].end];
    let punct = |k: usize, p: &str| tokens[k].kind == TokenKind::Punct && text(k) == p;
    let body = open + 1..close;
    if edited || body.is_empty() {
        return None;
    }
    // Nothing a copy would change. (Every such function, even one with
    // nothing to fuse itself: GCC inlines a callee into it, and the
    // caller's options then decide the callee's contraction too.)
    let stops = body.clone().any(|k| {
        tokens[k].directive.is_some()
            || text(k).contains('\n')
            || (tokens[k].kind == TokenKind::Ident && BODY_STOPS.contains(&text(k)))
            || (punct(k, ":") && k > open + 1 && tokens[k - 1].kind == TokenKind::Ident && {
                // `name:` after `;`, `{` or `}` is a label (not `a::b`,
                // nor `default:`).
                let before = text(k - 2);
                matches!(before, ";" | "{" | "}")
                    && text(k - 1) != "default"
                    && !punct(k + 1, ":")
                    && !punct(k - 1, ":")
            })
    });
    if stops {
        return None;
    }
    let head = Head::read(source, tokens, head_start, open)?;
    // The body's tokens on one line: a space where the source had space,
    // a comment or a line break between two tokens, none where it had none
    // (so `->`, `::` and `+=` stay whole).
    let mut copy = String::new();
    let mut renamed = Vec::new();
    let mut k = open + 1;
    while k < close {
        if k > open + 1 && tokens[k - 1].end != tokens[k].start {
            copy.push(' ');
        }
        match renames.iter().find(|&&(first, _, _)| first == k) {
            Some(&(_, last, name)) => {
                copy.push_str(name);
                renamed.push((k, copy.len()));
                k = last + 1;
            }
            None => {
                copy.push_str(text(k));
                k += 1;
            }
        }
    }
    let (before, after) = match head.returns {
        Returns::Void => (
            "{ [&]() CUDA_EMU_DEVICE_CODE { ".to_string(),
            " }(); return; }".to_string(),
        ),
        Returns::Deduced => (
            "return [&]() CUDA_EMU_DEVICE_CODE { ".to_string(),
            " }();".to_string(),
        ),
        Returns::Type(ty) => (
            format!("return [&]() CUDA_EMU_DEVICE_CODE -> {ty} {{ "),
            " }();".to_string(),
        ),
    };
    let check = " if (!__builtin_is_constant_evaluated() && ::cuda_emu::in_device_code()) ";
    let inserted = format!("{check}{before}{copy}{after} ");
    for (_, offset) in &mut renamed {
        *offset += check.len() + before.len();
    }
    let mut edits: Vec<Edit> = head
        .device
        .iter()
        .map(|&k| (tokens[k].start, tokens[k].end, String::new()))
        .collect();
    let at = tokens[open].end;
    edits.push((at, at, inserted));
    Some(DeviceCopy { edits, renamed })
}

/// What a function returns, as its copy's lambda must say.
#[derive(Debug, PartialEq, Eq)]
enum Returns {
    Void,
    /// `auto` without a trailing return type: the lambda deduces it alike.
    Deduced,
    Type(String),
}

/// A function head: `[template <...>] SPECIFIERS RET NAME (PARAMS) QUALIFIERS [-> RET] {`.
#[derive(Debug)]
struct Head {
    returns: Returns,
    /// The `__device__` tokens, dropped from the head.
    device: Vec<usize>,
}

impl Head {
    fn read(source: &str, tokens: &[CodeToken], start: usize, open: usize) -> Option<Head> {
        let text = |k: usize| &source[tokens[k].start..tokens[k].end];
        let is = |k: usize, p: &str| text(k) == p;
        // The head runs from the last `;`, `{` or `}`: past any
        // preprocessor lines before the function, none within it.
        let start = (start..open)
            .rev()
            .find(|&k| tokens[k].directive.is_some())
            .map_or(start, |k| k + 1);
        // `extern "C"` and other heads with a literal are left whole.
        if (start..open).any(|k| matches!(tokens[k].kind, TokenKind::Str | TokenKind::Char)) {
            return None;
        }
        let device: Vec<usize> = (start..open).filter(|&k| is(k, "__device__")).collect();
        // Past `template <...>`.
        let mut k = start;
        if k < open && is(k, "template") {
            let mut depth = 0i32;
            k += 1;
            while k < open {
                match text(k) {
                    "<" => depth += 1,
                    ">" => depth -= 1,
                    ">>" => depth -= 2,
                    _ => {}
                }
                k += 1;
                if depth <= 0 {
                    break;
                }
            }
        }
        // The return type's tokens, to the name before the parameters' `(`.
        let mut ret: Vec<&str> = Vec::new();
        let mut angle = 0i32;
        let params = loop {
            if k >= open {
                return None;
            }
            let t = text(k);
            match t {
                "<" => angle += 1,
                ">" => angle -= 1,
                ">>" => angle -= 2,
                "(" if angle == 0 => {
                    if k > start
                        && matches!(
                            text(k - 1),
                            "decltype" | "__attribute__" | "alignas" | "__launch_bounds__"
                        )
                    {
                        // Part of the type or an attribute: skip past it.
                        let close = matching(tokens, source, k)?;
                        if text(k - 1) == "decltype" {
                            ret.extend((k..=close).map(text));
                        }
                        k = close + 1;
                        continue;
                    }
                    break k;
                }
                _ => {}
            }
            if matches!(t, "__attribute__" | "alignas" | "__launch_bounds__") {
                k += 1;
                continue;
            }
            if t == "[" && k + 1 < open && is(k + 1, "[") {
                // `[[attribute]]`
                let mut j = k;
                while j < open && !(is(j, "]") && j + 1 < open && is(j + 1, "]")) {
                    j += 1;
                }
                k = j + 2;
                continue;
            }
            if !SPECIFIERS.contains(&t) {
                ret.push(t);
            }
            k += 1;
        };
        // The name: an identifier, perhaps qualified; not an operator, a
        // destructor or a constructor (no return type left before it).
        if tokens[params - 1].kind != TokenKind::Ident
            || ret.contains(&"operator")
            || ret.contains(&"~")
        {
            return None;
        }
        let mut name_start = params - 1;
        while name_start >= 3
            && is(name_start - 1, ":")
            && is(name_start - 2, ":")
            && tokens[name_start - 3].kind == TokenKind::Ident
        {
            name_start -= 3;
        }
        let name_len = params - name_start;
        if ret.len() <= name_len {
            return None;
        }
        ret.truncate(ret.len() - name_len);
        if ret.last() == Some(&":") {
            return None;
        }
        // A trailing return type, after the parameters and qualifiers.
        let close = matching(tokens, source, params)?;
        let arrow = (close + 1..open.saturating_sub(1)).find(|&j| is(j, "-") && is(j + 1, ">"));
        let trailing: Option<String> = arrow.map(|a| {
            let mut ty = String::new();
            for j in a + 2..open {
                if matches!(text(j), "noexcept" | "override" | "final" | "requires") {
                    break;
                }
                if j > a + 2 && tokens[j - 1].end != tokens[j].start {
                    ty.push(' ');
                }
                ty.push_str(text(j));
            }
            ty
        });
        let returns = match (ret.as_slice(), trailing) {
            (["auto"], Some(t)) | (["decltype", "(", "auto", ")"], Some(t)) if !t.is_empty() => {
                Returns::Type(t)
            }
            (["auto"], None) => Returns::Deduced,
            (["void"], None) => Returns::Void,
            (_, Some(_)) => return None,
            (r, None) => Returns::Type(join_type(r)),
        };
        Some(Head { returns, device })
    }
}

/// A type's tokens as C++ reads them again: single-character punctuators
/// that make `::` are joined, every other pair spaced.
fn join_type(tokens: &[&str]) -> String {
    let mut out = String::new();
    for (k, t) in tokens.iter().enumerate() {
        let colons = *t == ":" || (k > 0 && tokens[k - 1] == ":");
        if k > 0 && !colons {
            out.push(' ');
        }
        out.push_str(t);
    }
    out
}

/// The `)` that closes the `(` at `open`.
fn matching(tokens: &[CodeToken], source: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, token) in tokens.iter().enumerate().skip(open) {
        match &source[token.start..token.end] {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::rewrite::rewrite;

    fn cpp(source: &str) -> String {
        rewrite(Path::new("t.cu"), source).unwrap().cpp
    }

    const DISPATCH: &str =
        "if (!__builtin_is_constant_evaluated() && ::cuda_emu::in_device_code())";

    #[test]
    fn a_host_device_function_gets_a_contracted_copy_for_device_code() {
        let out = cpp(
            "#include <cstdio>\n__host__ __device__ float madd(float a, float b, float c) { return a * b + c; }\n",
        );
        assert!(
            out.contains(&format!(
                "__host__  float madd(float a, float b, float c) {{ {DISPATCH} return [&]() CUDA_EMU_DEVICE_CODE -> float {{ return a * b + c; }}();  return a * b + c; }}\n"
            )),
            "{out}"
        );
        // No line moved: the function is still on the source's line 2.
        assert_eq!(
            out.lines().position(|l| l.contains("madd")),
            Some(3),
            "{out}"
        );
    }

    #[test]
    fn members_templates_void_deduced_and_trailing_returns_are_read() {
        let out = cpp(
            "struct V { float x; __host__ __device__ float dot(V o) const { return x * o.x + 1; } };\n\
                       template <class T> __device__ __host__ T lerp(T a, T b, T t) { return a + t * (b - a); }\n\
                       __host__ __device__ void axpy(float a, float* y) { y[0] = a * y[0] + 1; }\n\
                       __host__ __device__ auto d(float a) { return a * a - 1; }\n\
                       __host__ __device__ auto t(float a) -> decltype(a) { return a * a - 1; }\n",
        );
        assert!(out.contains("-> float { return x * o.x + 1; }();"), "{out}");
        assert!(out.contains("-> T { return a + t * (b - a); }();"), "{out}");
        assert!(
            out.contains("{ [&]() CUDA_EMU_DEVICE_CODE { y[0] = a * y[0] + 1; }(); return; }"),
            "{out}"
        );
        assert!(
            out.contains("return [&]() CUDA_EMU_DEVICE_CODE { return a * a - 1; }();"),
            "{out}"
        );
        assert!(
            out.contains("-> decltype(a) { return a * a - 1; }();"),
            "{out}"
        );
        assert_eq!(out.matches(DISPATCH).count(), 5, "{out}");
        let qualified = cpp("struct W { float v; float g(const W* o) const; };\n\
                             __host__ __device__ std::size_t h(const W* o) { return o->v * o->v + std::size_t(1); }\n\
                             __host__ __device__ float W::g(const W* o) const { float s = 0; s += v * o->v; return s; }\n");
        assert!(
            qualified.contains("-> std::size_t { return o->v * o->v + std::size_t(1); }();"),
            "{qualified}"
        );
        assert!(
            qualified.contains("-> float { float s = 0; s += v * o->v; return s; }();"),
            "{qualified}"
        );
        assert!(!out.contains("__device__"), "{out}");
    }

    #[test]
    fn functions_a_copy_could_change_keep_their_form() {
        for source in [
            // A static local, a label, a line-reporting name, a directive.
            "__host__ __device__ float f(float a) { static float s = 0; return s += a * a; }\n",
            "__host__ __device__ float f(float a) { again: a = a * a + 1; if (a < 2) goto again; return a; }\n",
            "__host__ __device__ float f(float a) { assert(a > 0); return a * a + 1; }\n",
            "__host__ __device__ float f(float a) {\n#ifdef X\n  a += 1;\n#endif\n  return a * a + 1; }\n",
            // A constructor, an operator, an `extern "C"` function.
            "struct P { float v; __host__ __device__ P(float a) { v = a * a + 1; } };\n",
            "struct P { float v; __host__ __device__ P operator*(P o) const { return P{v * o.v + 1}; } };\n",
            "extern \"C\" __host__ __device__ float f(float a) { return a * a + 1; }\n",
            // Host-only and device-only functions.
            "float f(float a) { return a * a + 1; }\n",
            "__device__ float f(float a) { return a * a + 1; }\n",
        ] {
            let out = cpp(source);
            assert!(!out.contains("in_device_code"), "{source}\n{out}");
        }
    }
}
