//! Turns a CUDA program into C++ that g++ can compile against our CUDA shim.
//!
//! Only two CUDA constructs are not plain C++ once the shim's headers define
//! `__global__`, `threadIdx`, `__syncthreads` and the rest:
//!
//! - a kernel launch `kernel<<<grid, block[, shmem[, stream]]>>>(args)`, which
//!   becomes `::cuda_emu::launch(__FILE__, __LINE__, "kernel", [&](auto&&... a)
//!   { kernel(a...); }, grid, block[, shmem[, stream]])(args)`: a lambda rather
//!   than a function pointer, so template kernels deduce their arguments and
//!   default arguments work as they do with nvcc;
//! - a dynamic shared-memory array `extern __shared__ T name[];` (alignment
//!   specifiers anywhere in it are dropped), which inside a function becomes
//!   `T* const name = reinterpret_cast<T*>(::cuda_emu::dynamic_shared_memory());`
//!   and at namespace scope an object whose `[]` and conversion to `T*` ask the
//!   shim on every use (a pointer there would be computed once, before any
//!   launch).
//!
//! Everything else is copied byte for byte, and a rewrite that spans lines is
//! followed by as many line breaks, so the output has exactly as many lines as
//! the input: the `#line 1 "<path>"` directive at the top (under a prelude line
//! `#include <cuda_runtime.h>`, which nvcc implies) is enough for compiler
//! errors and `__FILE__`/`__LINE__` to name the original `.cu` file and line. The rewriter also translates
//! inline PTX of a small subset (integer `mov`/`add`/`mul.lo`/`mad.lo` and the
//! special registers) into C++, drops the `(void*)` cast of the kernel given to
//! `cudaLaunchCooperativeKernel` or to a CUDA graph's kernel node
//! (`params.func = (void*)kernel`), turns a kernel's `__cluster_dims__(x, y, z)`
//! into a registration of its cluster shape after the kernel (`cluster_dims`),
//! and refuses, with the file, line and column,
//! the CUDA features the emulator cannot reproduce (other inline PTX,
//! multi-grid groups, the removed texture-reference API and
//! the texture features the shim lacks, dynamic parallelism), before g++
//! produces a page of confusing errors about them. Texture and surface objects
//! (`tex2D<float>(tex, x, y)`, `surf2Dwrite`) are plain C++ calls into the
//! shim and pass through.
//!
//! It is hand-written on the crate's one C++ lexer (`src/cxx/lexer.rs`: its
//! code tokens, with preprocessor lines opened up into their own tokens, each
//! with its line and column) rather than built on a parser such as
//! tree-sitter-cuda: the two rewrites only need balanced brackets around `<<<`
//! and `>>>`, a parser would add a C toolchain dependency to the build, and a
//! grammar that fails on a construct it does not know would reject programs
//! that g++ compiles fine. A comment or raw string that is never closed runs
//! to the end of the file, as the lexer's policy says: nothing in it is
//! rewritten, and g++ reports it. What it is not: a C++
//! parser. It does not expand macros or evaluate `#if`, so a refused feature in
//! a disabled branch is still refused, and a launch written inside a macro body
//! is rewritten inside that body.

use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::cxx::lexer::{CodeToken, TokenKind, lex};

use super::half_products::{ReturnedProduct, ThroughCall};

/// What the emulator puts in place of `<<<`: the callee that takes the kernel
/// and its launch configuration and returns a callable taking the arguments.
const LAUNCH_CALLEE: &str = "::cuda_emu::launch";
/// The parameter pack of the lambda that calls the kernel: a name no CUDA
/// program uses, since the kernel expression is evaluated inside the lambda.
const LAUNCH_ARGUMENTS: &str = "cuda_emu_args_";
/// What a dynamic shared-memory array points at once rewritten.
const DYNAMIC_SHARED_CALL: &str = "::cuda_emu::dynamic_shared_memory()";

/// A CUDA feature the CPU emulator does not reproduce. The rewriter refuses a
/// program that uses one instead of letting it compile to something wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnsupportedFeature {
    /// `asm(...)`, `asm volatile(...)`, `__asm__(...)` that is not the small
    /// subset the rewriter translates (see `super::ptx`).
    InlineAssembly,
    /// An inline PTX instruction, operand or constraint outside that subset.
    InlineAssemblyInstruction(String),
    /// The parts of cooperative groups the emulator does not have: multi-grid
    /// groups, and `__cluster_dims__` where the rewriter cannot register the
    /// shape (a template kernel, no kernel name after it), by what was used.
    CooperativeGroups(String),
    /// `cudaLaunchCooperativeKernelMultiDevice`.
    CooperativeLaunch,
    /// A texture or surface feature the shim does not have (mipmaps,
    /// cubemap surfaces, level-of-detail fetches), by the name used.
    TextureOrSurface(String),
    /// The texture and surface reference API (`texture<...>`,
    /// `cudaBindTexture`, a fetch through a reference), removed in CUDA 12.
    TextureReference(String),
    /// A kernel launch inside a `__global__` or `__device__` function.
    DynamicParallelism,
    /// `#if __CUDA_ARCH__ ...` inside a `constexpr __host__ __device__`
    /// function: one g++ pass compiles it once for both sides, and a
    /// constexpr function cannot carry the run-time check the others get.
    CudaArchTest,
    /// A header of the CUDA toolkit the shim has only to refuse (`<mma.h>`,
    /// warp matrix multiply-accumulate), named at the program's `#include`
    /// rather than by an `#error` inside the shim's copy in the cache.
    RefusedHeader(&'static str),
}

impl fmt::Display for UnsupportedFeature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InlineAssembly => f.write_str("inline PTX assembly (`asm`)"),
            Self::InlineAssemblyInstruction(what) => {
                write!(
                    f,
                    "inline PTX `{what}` (the emulator translates integer and bit operations, float arithmetic with a rounding modifier, the .approx functions, conversions, predicates, warp shuffles and votes, loads and stores of global and shared memory, cp.async, fences, barriers, trap and the special registers; see the README)"
                )
            }
            Self::CooperativeGroups(name) => {
                write!(
                    f,
                    "cooperative groups' multi-grid groups or a cluster form the emulator lacks (`{name}`)"
                )
            }
            Self::CooperativeLaunch => f.write_str(
                "multi-device cooperative launch (`cudaLaunchCooperativeKernelMultiDevice`)",
            ),
            Self::TextureOrSurface(name) => write!(
                f,
                "the texture feature `{name}` (texture and surface objects are emulated \
                 without mipmaps, level-of-detail fetches or cubemap surfaces)"
            ),
            Self::TextureReference(name) => write!(
                f,
                "the texture and surface reference API (`{name}`; removed in CUDA 12, use \
                 texture and surface objects)"
            ),
            Self::CudaArchTest => f.write_str(
                "a test of `__CUDA_ARCH__` inside a `constexpr __host__ __device__` function \
                 (the emulator compiles such a function once, with the host's reading, and \
                 cannot check at run time that no device code calls it)",
            ),
            Self::RefusedHeader(what) => f.write_str(what),
            Self::DynamicParallelism => {
                f.write_str("dynamic parallelism (a kernel launch inside device code)")
            }
        }
    }
}

/// Why a CUDA source could not be rewritten for the emulator.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RewriteError {
    /// The program uses a feature the emulator does not reproduce.
    #[error(
        "{}:{line}:{column}: {feature} is not supported by the CPU emulator; \
         run this program on a GPU with `--backend gpu`",
        path.display()
    )]
    Unsupported {
        path: PathBuf,
        line: u32,
        column: u32,
        feature: UnsupportedFeature,
    },
    /// A `<<<` that does not read as `kernel<<<config>>>(args)`.
    #[error(
        "{}:{line}:{column}: cannot read this kernel launch: {reason}; \
         the emulator understands `kernel<<<grid, block[, shared_bytes[, stream]]>>>(args)`",
        path.display()
    )]
    MalformedLaunch {
        path: PathBuf,
        line: u32,
        column: u32,
        reason: &'static str,
    },
    /// An `extern __shared__` declaration that is not `T name[];`.
    #[error(
        "{}:{line}:{column}: cannot read this dynamic shared-memory declaration: {reason}; \
         the emulator understands `extern __shared__ T name[];` inside a function body",
        path.display()
    )]
    MalformedSharedDeclaration {
        path: PathBuf,
        line: u32,
        column: u32,
        reason: &'static str,
    },
}

/// A CUDA source rewritten into C++ for the emulator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewrittenSource {
    /// The C++ text: a prelude line, `#line 1 "<path>"`, then the program with
    /// its launches and dynamic shared arrays rewritten, line for line.
    pub cpp: String,
    /// How many kernel launches were rewritten.
    pub launches: usize,
    /// Whether the program writes `volatile` (outside `asm volatile`) or
    /// `__shared__`: such a program is built with its memory accesses
    /// instrumented, so that the lanes of a warp make them in lock step and
    /// hazards are reported (see "Warp lock step" in `cuda_emu.cpp`).
    pub lock_step: bool,
    /// Whether the program synchronizes threads (`__syncthreads`, its
    /// `_count`/`_and`/`_or` forms, `__syncwarp`): one that does with no
    /// shared memory and nothing `volatile` talks through global memory, so
    /// it is built for lock step too.
    pub synchronizes: bool,
    /// The names in the program's `#include "..."` lines, as written, so the
    /// caller can find the local headers that the compiled program depends on.
    pub local_includes: Vec<String>,
    /// The first call in device code (or in a macro body) of each math
    /// function the emulator does not reproduce bit for bit
    /// ([`super::math::differing`]), in source order.
    pub math_uses: Vec<MathUse>,
    /// Every call in device code rewritten to one of the shim's overload
    /// sets ([`super::math::device_overloads`]): its line, column and
    /// function, so that the compiler's word on which overload it took
    /// (whose column counts the rewritten text) can name the column as
    /// written.
    pub overload_calls: Vec<OverloadCall>,
    /// Half-precision products that reach an addition through a call of
    /// the program's, which nvcc fuses and the emulator rounds
    /// ([`super::half_products`]): each is warned about.
    pub half_product_calls: Vec<ThroughCall>,
    /// Half-precision products returned to a call that adds them, which
    /// nvcc fuses and the emulator rounds: each is warned about.
    pub half_product_returns: Vec<ReturnedProduct>,
}

/// A call rewritten to an overload set of the shim, where it was written
/// and where the compiler reports it: the column of its `(` in the
/// rewritten line, and for a call in a `__host__ __device__` function's
/// device copy ([`super::contraction`]) the line of the function's `{`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverloadCall {
    pub line: u32,
    pub column: u32,
    pub function: String,
    pub reported_line: u32,
    pub reported_column: u32,
}

/// A call of a math function whose results differ from the GPU's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MathUse {
    pub line: u32,
    pub column: u32,
    /// The function, as called.
    pub function: String,
    /// How the C library's results differ, and what measured it
    /// ([`super::math::c_library_differs`]).
    pub figure: String,
    /// The call is in a `#define`'s body (device code when the macro is used there).
    pub in_macro: bool,
    /// For a call of an overload set of which the shim has CUDA's own
    /// overload for one type, found by the compiler to take the other: that
    /// argument ("with a double argument (a float one is CUDA's own, ...)").
    pub argument: Option<String>,
}

/// Rewrites `source`, read from `path`, into C++ for the emulator. `path` is
/// used as written in the `#line` directive and in errors.
pub fn rewrite(path: &Path, source: &str) -> Result<RewrittenSource, RewriteError> {
    let tokens = lex(source.as_bytes()).code_tokens();
    let returned = super::half_products::returned_products(source, &tokens);
    let mut rewriter = Rewriter {
        path,
        source,
        tokens: &tokens,
        edits: Vec::new(),
        launches: 0,
        local_includes: Vec::new(),
        lock_step: false,
        synchronizes: false,
        arch_checked: Vec::new(),
        math_uses: Vec::new(),
        overload_calls: Vec::new(),
        anchors: Vec::new(),
        host_device_functions: Vec::new(),
        host_device_math: Vec::new(),
        unevaluated_names: std::cell::OnceCell::new(),
        half_product_calls: Vec::new(),
        kept_returns: &returned.kept,
    };
    rewriter.run()?;
    rewriter.host_device_copies();
    rewriter.addend_parameters();
    rewriter.push_edits(returned.edits);
    // Built for the lock step or not: the runtime decides where the lane-loop
    // form runs (cuda_emu.cpp, "Lane loops").
    let edited: Vec<(usize, usize, String)> = rewriter
        .edits
        .iter()
        .map(|e| (e.start, e.end, e.replacement.clone()))
        .collect();
    let name = c_string_literal(&path.display().to_string());
    let watched = rewriter.lock_step || rewriter.synchronizes;
    let loops = super::lane_loops::lane_loops(source, &tokens, &name, &edited, watched);
    rewriter.push_edits(loops);
    let half_product_returns = returned.warned;
    let Rewriter {
        mut edits,
        launches,
        local_includes,
        lock_step,
        synchronizes,
        math_uses,
        mut overload_calls,
        anchors,
        half_product_calls,
        ..
    } = rewriter;

    edits.sort_by_key(|edit| edit.start);
    let mut cpp = String::with_capacity(source.len() + 256);
    // nvcc includes the runtime header implicitly; g++ needs to be told. The
    // prelude sits above the `#line`, so it shifts no line of the program.
    cpp.push_str("#include <cuda_runtime.h>\n");
    cpp.push_str(&format!(
        "#line 1 {}\n",
        c_string_literal(&path.display().to_string())
    ));
    let mut copied = 0;
    for edit in &edits {
        debug_assert!(edit.start >= copied, "overlapping rewrites");
        cpp.push_str(&source[copied..edit.start]);
        for anchor in anchors.iter().filter(|a| {
            (a.start, a.end) == (edit.start, edit.end)
                && edit
                    .replacement
                    .get(..a.offset)
                    .is_some_and(|r| r.ends_with(a.device))
        }) {
            let line_begin = cpp.rfind('\n').map_or(0, |n| n + 1);
            let column = cpp.len() - line_begin + anchor.offset + 1;
            overload_calls[anchor.call].reported_column = column as u32;
        }
        cpp.push_str(&edit.replacement);
        copied = edit.end;
    }
    cpp.push_str(&source[copied..]);
    Ok(RewrittenSource {
        cpp,
        launches,
        local_includes,
        lock_step,
        synchronizes,
        math_uses,
        overload_calls,
        half_product_calls,
        half_product_returns,
    })
}

/// The characters of a C string literal's inside (the escapes PTX templates use).
fn unescape(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// `text` as a C string literal, for the `#line` directive.
fn c_string_literal(text: &str) -> String {
    let mut literal = String::with_capacity(text.len() + 2);
    literal.push('"');
    for c in text.chars() {
        match c {
            '"' => literal.push_str("\\\""),
            '\\' => literal.push_str("\\\\"),
            '\n' => literal.push_str("\\n"),
            c => literal.push(c),
        }
    }
    literal.push('"');
    literal
}

// ---------------------------------------------------------------------------
// Rewriting

/// Replace `source[start..end]` with `replacement`.
struct Edit {
    start: usize,
    end: usize,
    replacement: String,
}

/// What an open `{` belongs to, for telling device code and function bodies
/// apart.
#[derive(Debug, Clone, Copy)]
struct Scope {
    /// A namespace, `extern "C"` block or class body: declarations, not code.
    declarations: bool,
    /// Inside a `__global__` or `__device__` (not `__host__ __device__`)
    /// function, lambda or initializer.
    device: bool,
    /// Inside a `__host__ __device__` function (and not in device code).
    host_device: bool,
    /// The token index of the `{` that opened it.
    brace: usize,
    /// A `constexpr` function's body.
    constexpr_fn: bool,
}

/// Names of the texture and surface reference API (removed in CUDA 12),
/// refused wherever they appear.
const TEXTURE_REFERENCE_NAMES: &[&str] = &[
    "cudaBindTexture",
    "cudaBindTexture2D",
    "cudaBindTextureToArray",
    "cudaBindTextureToMipmappedArray",
    "cudaUnbindTexture",
    "cudaGetTextureReference",
    "cudaGetTextureAlignmentOffset",
    "cudaBindSurfaceToArray",
    "cudaGetSurfaceReference",
    "textureReference",
    "surfaceReference",
];

/// Texture names the shim does not have (mipmapped arrays), refused
/// wherever they appear.
const TEXTURE_NAMES: &[&str] = &[
    "cudaMallocMipmappedArray",
    "cudaFreeMipmappedArray",
    "cudaGetMipmappedArrayLevel",
];

/// Texture fetches and surface accesses the shim emulates, with the number
/// of arguments of the value-returning form (`tex2D<float>(tex, x, y)`).
/// Called without template arguments and with that many arguments, a fetch
/// reads through a texture reference; the object forms that store through a
/// pointer take one more (`tex2D(&v, tex, x, y)`).
const TEXTURE_FUNCTIONS: &[(&str, usize)] = &[
    ("tex1Dfetch", 2),
    ("tex1D", 2),
    ("tex2D", 3),
    ("tex3D", 4),
    ("tex1DLayered", 3),
    ("tex2DLayered", 4),
    ("texCubemap", 4),
    ("texCubemapLayered", 5),
    ("tex2Dgather", 3),
];
const SURFACE_FUNCTIONS: &[&str] = &[
    "surf1Dread",
    "surf1Dwrite",
    "surf2Dread",
    "surf2Dwrite",
    "surf3Dread",
    "surf3Dwrite",
    "surf1DLayeredread",
    "surf1DLayeredwrite",
    "surf2DLayeredread",
    "surf2DLayeredwrite",
];

/// A call, in a `__host__ __device__` function, of a math function the
/// shim has CUDA's own implementation of.
struct HostDeviceMath {
    /// The tokens of the called name, qualifier included: what the host
    /// calls.
    first: usize,
    last: usize,
    /// CUDA's own function: what device code calls.
    device: &'static str,
    /// An overload set ([`super::math::device_overloads`]): the compiler
    /// says which overload each call takes, so the call is remembered.
    overloaded: bool,
}

/// Where, inside the replacement of the edit that replaces
/// `start..end`, the compiler will report the overload call
/// `overload_calls[call]`: the byte `offset`, the call's `(`, just past
/// the name `device` it calls.
struct Anchor {
    start: usize,
    end: usize,
    offset: usize,
    device: &'static str,
    call: usize,
}

/// The operators whose operand is not evaluated.
const UNEVALUATED: &[&str] = &[
    "decltype",
    "sizeof",
    "alignof",
    "__alignof__",
    "noexcept",
    "typeid",
    "typeof",
    "__typeof__",
];

/// What the name `host` of a math function becomes in a `__host__
/// __device__` function without a device copy, or in a macro: a call of
/// CUDA's own `device` when device code runs it, of the C library's (the
/// name as written, looked up where it was) when the host does, as nvcc's
/// two compilations give. One line, so no line of the program moves; the
/// parameter's name is one no macro parameter takes.
fn host_or_device_call(host: &str, device: &str) -> String {
    format!(
        "([](auto... cuda_emu_math_arg_) -> decltype({host}(cuda_emu_math_arg_...)) {{ \
         if (!__builtin_is_constant_evaluated() && ::cuda_emu::in_device_code()) \
         return {device}(cuda_emu_math_arg_...); return {host}(cuda_emu_math_arg_...); }})"
    )
}

struct Rewriter<'a> {
    path: &'a Path,
    source: &'a str,
    tokens: &'a [CodeToken],
    edits: Vec<Edit>,
    launches: usize,
    local_includes: Vec<String>,
    lock_step: bool,
    synchronizes: bool,
    /// The `{` of each `__host__ __device__` function given a run-time check
    /// for its `__CUDA_ARCH__` test ([`Rewriter::cuda_arch_test`]).
    arch_checked: Vec<usize>,
    math_uses: Vec<MathUse>,
    overload_calls: Vec<OverloadCall>,
    /// Where in the rewritten text each of `overload_calls` is.
    anchors: Vec<Anchor>,
    /// Each `__host__ __device__` function's head start, `{` and `}`, for
    /// its contracted device copy (`super::contraction`).
    host_device_functions: Vec<(usize, usize, usize)>,
    /// Calls of a function the shim has CUDA's own implementation of, in
    /// `__host__ __device__` functions: CUDA's own in the function's device
    /// copy, else chosen as it runs ([`Rewriter::host_device_copies`]).
    host_device_math: Vec<HostDeviceMath>,
    /// The names the program uses in an unevaluated operand, found the
    /// first time a macro body calls a math function
    /// ([`Rewriter::macro_used_unevaluated`]).
    unevaluated_names: std::cell::OnceCell<std::collections::HashSet<&'a str>>,
    half_product_calls: Vec<ThroughCall>,
    /// The functions whose product results reach their callers' additions
    /// (`super::half_products::returned_products`).
    kept_returns: &'a [String],
}

impl<'a> Rewriter<'a> {
    fn run(&mut self) -> Result<(), RewriteError> {
        let tokens = self.tokens;
        let mut scopes: Vec<Scope> = Vec::new();
        // The `__host__ __device__` function bodies open: head start and `{`.
        let mut host_device_open: Vec<(usize, usize)> = Vec::new();
        // Index of the first token of the current declaration or statement
        // head: everything since the last `;`, `{` or `}` outside directives.
        let mut head_start = 0;
        let mut i = 0;
        while i < tokens.len() {
            let token = tokens[i];
            if token.directive == Some(i) {
                self.check_directive(i)?;
                self.cuda_arch_test(i, &scopes)?;
            }
            if token.kind == TokenKind::Ident
                && token.directive.is_none()
                && matches!(self.text(i), "asm" | "__asm__" | "__asm")
            {
                i = self.inline_ptx(i)?;
                continue;
            }
            if token.kind == TokenKind::Ident
                && token.directive.is_none()
                && self.text(i) == "__CUDA_ARCH__"
                && scopes.iter().any(|s| s.device)
            {
                // Its value in device code, as the device pass has it.
                self.edits.push(Edit {
                    start: token.start,
                    end: token.end,
                    replacement: "900".to_string(),
                });
            }
            if token.kind == TokenKind::Ident
                && token.directive.is_none()
                && self.text(i) == "clock"
                && self.is_punct(i + 1, "(")
                && self.is_punct(i + 2, ")")
                && !matches!(self.text_at(i.checked_sub(1)), "." | "->" | "::")
                && scopes.iter().any(|s| s.device)
            {
                // `clock()` in device code is the multiprocessor's cycle
                // counter, not <ctime>'s process CPU time: spin loops that
                // wait for N cycles then last as long as on the GPU.
                self.edits.push(Edit {
                    start: token.start,
                    end: token.end,
                    replacement: "::cuda_emu::device_clock".to_string(),
                });
            }
            if token.kind == TokenKind::Ident {
                self.math_call(i, &scopes);
                match self.text(i) {
                    "volatile" | "__shared__" => self.lock_step = true,
                    "__syncthreads"
                    | "__syncthreads_count"
                    | "__syncthreads_and"
                    | "__syncthreads_or"
                    | "__syncwarp" => self.synchronizes = true,
                    _ => {}
                }
                if self.text(i) == "__shared__" && token.directive.is_none() {
                    self.shared_alignas(i);
                }
                self.check_identifier(i)?;
                if self.text(i) == "__cluster_dims__" && token.directive.is_none() {
                    i = self.cluster_dims(i, head_start)?;
                    continue;
                }
                self.noinline(i);
                self.half_product(i, &scopes);
                self.cooperative_launch(i);
                self.kernel_node_func(i);
                if self.text(i) == "extern"
                    && (token.directive.is_none() || self.in_define(i))
                    && let Some(next) = self.dynamic_shared(i, &scopes)?
                {
                    self.lock_step = true;
                    i = next;
                    head_start = next;
                    continue;
                }
            }
            if self.is_launch(i) {
                let in_device_code = token.directive.is_none() && scopes.iter().any(|s| s.device);
                if in_device_code {
                    return Err(self.unsupported(i, UnsupportedFeature::DynamicParallelism));
                }
                i = self.launch(i)?;
                continue;
            }
            if token.kind == TokenKind::Punct && token.directive.is_none() {
                match self.text(i) {
                    "{" => {
                        if scopes.last().is_some_and(|s| s.device || s.host_device) {
                            self.device_lambda(head_start, i);
                        }
                        let scope = self.scope_opened(head_start, i, scopes.last());
                        if scope.host_device
                            && !scope.declarations
                            && !scopes.last().is_some_and(|p| p.host_device)
                        {
                            host_device_open.push((head_start, i));
                        }
                        scopes.push(scope);
                        head_start = i + 1;
                    }
                    "}" => {
                        if let Some(closed) = scopes.pop()
                            && host_device_open
                                .last()
                                .is_some_and(|&(_, open)| open == closed.brace)
                            && let Some((head, open)) = host_device_open.pop()
                        {
                            self.host_device_functions.push((head, open, i));
                        }
                        head_start = i + 1;
                    }
                    ";" => head_start = i + 1,
                    // An access label (`private:`) ends the head before it.
                    ":" if matches!(
                        self.text_at(i.checked_sub(1)),
                        "public" | "private" | "protected"
                    ) && !self.is_punct(i + 1, ":") =>
                    {
                        head_start = i + 1
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Notes a call at `i` of a math function the emulator does not reproduce
    /// bit for bit, in device code (a `__global__`, `__device__` or `__host__
    /// __device__` function) or in a macro body, which may be used there:
    /// `expf(x)`, `::expf(x)`, `std::exp(x)`; not `v.expf(x)` or `ns::expf(x)`.
    /// The first call of each function is kept. A call in a `__global__` or
    /// `__device__` function of a function the shim has CUDA's own
    /// implementation of (`logf`, `log`: [`super::math::device_replacement`])
    /// is rewritten to call that instead. A `__host__ __device__` function
    /// or a macro may run on the host too, where nvcc's host compiler calls
    /// the C library: there the call is CUDA's own in the function's device
    /// copy ([`Rewriter::host_device_copies`]), or one that asks as it runs
    /// whether device code called it ([`host_or_device_call`]); a
    /// `constexpr` function keeps the C library's and its warning.
    fn math_call(&mut self, i: usize, scopes: &[Scope]) {
        let token = self.tokens[i];
        let in_macro = token.directive.is_some();
        if !in_macro && !scopes.iter().any(|s| s.device || s.host_device) {
            return;
        }
        if !self.is_punct(i + 1, "(")
            || (in_macro && self.tokens[i + 1].directive != token.directive)
        {
            return;
        }
        let qualified = i >= 2 && self.is_punct(i - 1, ":") && self.is_punct(i - 2, ":");
        if qualified {
            let scope = i.checked_sub(3).map(|k| self.text(k));
            if scope.is_some_and(|s| s != "std" && self.tokens[i - 3].kind == TokenKind::Ident) {
                return;
            }
        } else if matches!(self.text_at(i.checked_sub(1)), "." | "->" | "#") {
            return;
        }
        let name = self.text(i);
        // CUDA's own function, in place of the C library's: the qualifier
        // (`std::`, `::`) goes with the name.
        let start = match (qualified, i.checked_sub(3)) {
            (true, Some(k)) if self.tokens[k].kind == TokenKind::Ident => self.tokens[k].start,
            (true, _) => self.tokens[i - 2].start,
            (false, _) => token.start,
        };
        if !in_macro && scopes.iter().any(|s| s.device) {
            if let Some(exact) = super::math::device_replacement(name) {
                self.edits.push(Edit {
                    start,
                    end: token.end,
                    replacement: exact.to_string(),
                });
                return;
            }
            if let Some(overloads) = super::math::device_overloads(name) {
                // Which overload a call takes is the compiler's to say: the
                // shim marks the C library's, and the build warns where the
                // compiler resolved a call to one (math::differing_overloads).
                let device = overloads.replacement;
                self.remember_overload(i, token.line, (start, token.end), device, device.len());
                self.edits.push(Edit {
                    start,
                    end: token.end,
                    replacement: device.to_string(),
                });
                return;
            }
        }
        // A call in an unevaluated operand computes nothing: it is left
        // alone. The run-time choice is a lambda, which C++17 does not allow
        // there, so a macro body used in one keeps the C library's, and so
        // does a constexpr function.
        if !in_macro && self.in_unevaluated_operand(i) {
            return;
        }
        let kept =
            scopes.iter().any(|s| s.constexpr_fn) || (in_macro && self.macro_used_unevaluated(i));
        let overloads = super::math::device_overloads(name);
        if let Some(device) =
            super::math::device_replacement(name).or(overloads.map(|o| o.replacement))
            && !kept
        {
            let overloaded = overloads.is_some();
            if in_macro {
                self.host_or_device_edit(i, (start, token.end), device, overloaded);
            } else {
                let first = if qualified {
                    i.checked_sub(3)
                        .filter(|&k| self.tokens[k].kind == TokenKind::Ident)
                        .unwrap_or(i - 2)
                } else {
                    i
                };
                self.host_device_math.push(HostDeviceMath {
                    first,
                    last: i,
                    device,
                    overloaded,
                });
            }
            return;
        }
        if self.math_uses.iter().any(|m| m.function == name) {
            return;
        }
        if let Some(figure) = super::math::c_library_differs(name) {
            self.math_uses.push(MathUse {
                line: token.line,
                column: token.column,
                function: name.to_string(),
                figure,
                in_macro,
                argument: None,
            });
        }
    }

    /// A conditional directive at `hash` that tests `__CUDA_ARCH__`. nvcc
    /// compiles a `.cu` file twice, for the device (`__CUDA_ARCH__` is 900 on
    /// the H200) and for the host (undefined); the emulator compiles it once,
    /// as the host pass, so device code must be given the device pass's
    /// branch: inside a `__global__` or `__device__` function the test is
    /// rewritten as the device pass reads it (and a use of the value becomes
    /// `900` in the main loop), and so is a file-scope group
    /// whose branches hold device code (the device pass is the one that
    /// compiles it; the host pass needs only the kernels' declarations,
    /// which a well-formed device branch has too). A file-scope group of
    /// macros or host code keeps the host pass's reading. Inside a
    /// `__host__ __device__` function there is no single right branch: it
    /// keeps the host's, and its body starts (on the `{`'s line) with a
    /// check that stops the program, naming the test's line, when device
    /// code calls it.
    fn cuda_arch_test(&mut self, hash: usize, scopes: &[Scope]) -> Result<(), RewriteError> {
        let kind = self.text_at(Some(hash + 1)).to_string();
        if !matches!(kind.as_str(), "if" | "ifdef" | "ifndef" | "elif") {
            return Ok(());
        }
        let line: Vec<usize> = (hash + 1..self.tokens.len())
            .take_while(|&k| self.tokens[k].directive == Some(hash))
            .collect();
        let Some(&first) = line.iter().find(|&&k| self.text(k) == "__CUDA_ARCH__") else {
            return Ok(());
        };
        if let Some(function) = scopes.iter().find(|s| s.host_device) {
            // Compiled once, it keeps the host pass's reading; called from
            // device code, where the GPU would take the other reading, it
            // stops at run time naming this line. A constexpr function
            // cannot call the check: refused.
            if function.constexpr_fn {
                return Err(self.unsupported(first, UnsupportedFeature::CudaArchTest));
            }
            if !self.arch_checked.contains(&function.brace) {
                self.arch_checked.push(function.brace);
                let at = self.tokens[function.brace].end;
                self.edits.push(Edit {
                    start: at,
                    end: at,
                    replacement: format!(
                        " ::cuda_emu::host_device_arch_test({}, {});",
                        c_string_literal(&self.path.display().to_string()),
                        self.tokens[first].line
                    ),
                });
            }
            return Ok(());
        }
        let device = scopes.iter().any(|s| s.device)
            || (scopes.iter().all(|s| s.declarations) && self.group_holds_device_code(hash));
        if !device {
            return Ok(());
        }
        for &k in &line {
            if self.text(k) != "__CUDA_ARCH__" {
                continue;
            }
            let before = self.text_at(k.checked_sub(1));
            let (start, end, replacement) =
                if matches!(kind.as_str(), "ifdef" | "ifndef") && k == hash + 2 {
                    let taken = if kind == "ifdef" { "if 1" } else { "if 0" };
                    (hash + 1, k, taken)
                } else if before == "defined" {
                    (k - 1, k, "1")
                } else if before == "("
                    && self.text_at(k.checked_sub(2)) == "defined"
                    && self.text_at(Some(k + 1)) == ")"
                {
                    (k - 2, k + 1, "1")
                } else {
                    (k, k, "900")
                };
            self.edits.push(Edit {
                start: self.tokens[start].start,
                end: self.tokens[end].end,
                replacement: replacement.to_string(),
            });
        }
        Ok(())
    }

    /// Whether the conditional group whose directive is at `hash`, from there
    /// to its `#endif`, holds `__global__` or `__device__` code (outside
    /// directives).
    fn group_holds_device_code(&self, hash: usize) -> bool {
        let mut depth = 0usize;
        for k in hash + 1..self.tokens.len() {
            let token = self.tokens[k];
            if token.directive == Some(k) {
                match self.text_at(Some(k + 1)) {
                    "if" | "ifdef" | "ifndef" => depth += 1,
                    "endif" if depth == 0 => return false,
                    "endif" => depth -= 1,
                    _ => {}
                }
            } else if token.directive.is_none()
                && matches!(self.text(k), "__global__" | "__device__")
            {
                return true;
            }
        }
        false
    }

    /// `cudaLaunchCooperativeKernel((void*)kernel, ...)`: the cast is dropped, so
    /// the shim's overload sees the kernel's type and can call it with `args`;
    /// a kernel written as a name (`k`, `ns::k`, `k<T, 4>`) is passed as
    /// `::cuda_emu::named_kernel("k", k)`, so reports name it.
    fn cooperative_launch(&mut self, index: usize) {
        if self.text(index) != "cudaLaunchCooperativeKernel" || !self.is_punct(index + 1, "(") {
            return;
        }
        let mut first = index + 2;
        let mut cast_end = None;
        if self.is_punct(first, "(") {
            let mut k = first + 1;
            if self.text_at(Some(k)) == "const" {
                k += 1;
            }
            if self.text_at(Some(k)) == "void"
                && self.is_punct(k + 1, "*")
                && self.is_punct(k + 2, ")")
            {
                cast_end = Some(k + 2);
                first = k + 3;
            }
        }
        // The kernel's name: up to the first `,` outside template brackets.
        let mut depth = 0i32;
        let mut end = first;
        let mut simple = true;
        while end < self.tokens.len() {
            let text = self.text(end);
            match text {
                "<" => depth += 1,
                ">" => depth -= 1,
                "," if depth == 0 => break,
                ")" | ";" | "(" | "{" | "}" => {
                    simple = false;
                    break;
                }
                _ => {}
            }
            end += 1;
        }
        // With a cast, the edit starts at its `(`.
        let start = self.tokens[if cast_end.is_some() { index + 2 } else { first }].start;
        if simple && end > first && end < self.tokens.len() {
            let name = self.join(&(first..end).collect::<Vec<_>>());
            let kernel = &self.source[self.tokens[first].start..self.tokens[end - 1].end];
            self.edits.push(Edit {
                start,
                end: self.tokens[end - 1].end,
                replacement: format!(
                    "::cuda_emu::named_kernel({}, {kernel})",
                    c_string_literal(&name)
                ),
            });
        } else if let Some(close) = cast_end {
            self.edits.push(Edit {
                start,
                end: self.tokens[close].end,
                replacement: String::new(),
            });
        }
    }

    /// `params.func = (void*)kernel` (also `->func`, and `.func =` in a
    /// designated initializer): a CUDA graph's kernel node names its kernel
    /// through a `void*`, which would lose the parameter types the shim needs
    /// to copy `kernelParams`; a kernel written as a name (`k`, `ns::k`,
    /// `k<T, 4>`) is passed as `::cuda_emu::named_kernel("k", k)` instead
    /// (which also converts to `void*`, for a program's own `func` member).
    /// Anything else is left as it is, and the shim refuses a `void*` there
    /// when the program is compiled.
    fn kernel_node_func(&mut self, index: usize) {
        // Punctuation comes one character a token: `->` is `-` then `>`, and
        // `==` is two `=` (then no `(` follows the first).
        let arrow = index >= 2
            && self.is_punct(index - 1, ">")
            && self.is_punct(index - 2, "-")
            && self.tokens[index - 2].end == self.tokens[index - 1].start;
        if self.text(index) != "func"
            || index == 0
            || !(self.is_punct(index - 1, ".") || arrow)
            || !self.is_punct(index + 1, "=")
        {
            return;
        }
        let start = index + 2;
        if !self.is_punct(start, "(") {
            return;
        }
        let mut k = start + 1;
        if self.text_at(Some(k)) == "const" {
            k += 1;
        }
        if !(self.text_at(Some(k)) == "void"
            && self.is_punct(k + 1, "*")
            && self.is_punct(k + 2, ")"))
        {
            return;
        }
        let first = k + 3;
        // The kernel's name: up to `;`, `,` or `}` outside template brackets.
        let mut depth = 0i32;
        let mut end = first;
        while end < self.tokens.len() {
            match self.text(end) {
                "<" => depth += 1,
                ">" => depth -= 1,
                ";" | "}" => break,
                "," if depth == 0 => break,
                "(" | ")" | "[" | "{" | "&" | "*" => return,
                _ => {}
            }
            end += 1;
        }
        if end == first
            || end >= self.tokens.len()
            || self.tokens[first].kind != TokenKind::Ident
            || matches!(self.text(first), "nullptr" | "NULL")
            || depth != 0
        {
            return;
        }
        let name = self.join(&(first..end).collect::<Vec<_>>());
        let kernel = &self.source[self.tokens[first].start..self.tokens[end - 1].end];
        self.edits.push(Edit {
            start: self.tokens[start].start,
            end: self.tokens[end - 1].end,
            replacement: format!(
                "::cuda_emu::named_kernel({}, {kernel})",
                c_string_literal(&name)
            ),
        });
    }

    /// Translates `asm [volatile] ("ptx" : outputs : inputs [: clobbers])` into a C++
    /// lambda call when every instruction is in the subset `super::ptx` knows;
    /// returns the index of the token after the closing `)`.
    fn inline_ptx(&mut self, at: usize) -> Result<usize, RewriteError> {
        let refuse = |this: &Self, what: String| {
            this.unsupported(at, UnsupportedFeature::InlineAssemblyInstruction(what))
        };
        let mut k = at + 1;
        while matches!(
            self.text_at(Some(k)),
            "volatile" | "__volatile__" | "inline" | "goto"
        ) {
            if self.text(k) == "goto" {
                return Err(refuse(self, "asm goto".into()));
            }
            k += 1;
        }
        if !self.is_punct(k, "(") {
            return Err(self.unsupported(at, UnsupportedFeature::InlineAssembly));
        }
        let close = self
            .matching_close(k)
            .ok_or_else(|| self.unsupported(at, UnsupportedFeature::InlineAssembly))?;
        // The template: adjacent string literals.
        let mut j = k + 1;
        let mut template = String::new();
        while j < close && self.tokens[j].kind == TokenKind::Str {
            let text = self.text(j);
            let inner = text
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .ok_or_else(|| refuse(self, text.to_string()))?;
            template.push_str(&unescape(inner));
            j += 1;
        }
        // Operand sections, split at top-level `:` (not `::`).
        let mut sections: Vec<Vec<(String, String)>> = Vec::new();
        while j < close {
            // Operand expressions are inside parentheses, so every `:` here
            // separates sections (`::: "memory"` too).
            if self.is_punct(j, ":") {
                sections.push(Vec::new());
                j += 1;
                continue;
            }
            if self.is_punct(j, ",") {
                j += 1;
                continue;
            }
            if self.tokens[j].kind == TokenKind::Str && self.is_punct(j + 1, "(") {
                let constraint = self.text(j).trim_matches('"').to_string();
                let end = self
                    .matching_close(j + 1)
                    .ok_or_else(|| self.unsupported(at, UnsupportedFeature::InlineAssembly))?;
                let start = self.tokens[j + 2].start;
                let expr = if end > j + 2 {
                    self.source[start..self.tokens[end].start].to_string()
                } else {
                    String::new()
                };
                match sections.last_mut() {
                    Some(section) => section.push((constraint, expr)),
                    None => return Err(refuse(self, constraint)),
                }
                j = end + 1;
                continue;
            }
            if self.tokens[j].kind == TokenKind::Str && sections.len() >= 3 {
                j += 1; // a clobber
                continue;
            }
            return Err(refuse(self, self.text(j).to_string()));
        }
        let outputs = sections.first().cloned().unwrap_or_default();
        let inputs = sections.get(1).cloned().unwrap_or_default();
        let mut operands: Vec<String> = Vec::new();
        let mut body = String::new();
        for (n, (constraint, expr)) in outputs.iter().chain(inputs.iter()).enumerate() {
            let letter = constraint.trim_start_matches(['=', '+', '&']);
            if !matches!(letter, "r" | "l" | "n" | "h" | "f" | "d") {
                return Err(refuse(self, format!("constraint \"{constraint}\"")));
            }
            let name = format!("cuda_emu_op{n}");
            if n < outputs.len() {
                body.push_str(&format!("auto& {name} = ({expr}); "));
            } else {
                body.push_str(&format!("const auto {name} = ({expr}); "));
            }
            operands.push(name);
        }
        let translation = super::ptx::translate(&template, &operands, outputs.len())
            .map_err(|what| refuse(self, what))?;
        self.lock_step |= translation.volatile;
        self.synchronizes |= translation.synchronizes;
        body.push_str(&translation.code);
        let span = &self.source[self.tokens[at].start..self.tokens[close].end];
        let newlines = span.matches('\n').count();
        self.edits.push(Edit {
            start: self.tokens[at].start,
            end: self.tokens[close].end,
            replacement: format!("[&]() {{ {body}}}(){}", "\n".repeat(newlines)),
        });
        Ok(close + 1)
    }

    /// `__shared__ alignas(N) T x;`: the shim's `__shared__` is `thread_local`,
    /// and g++ takes no standard attribute after it, so the alignment
    /// specifiers go first (`alignas(N) __shared__ T x;`, the same
    /// declaration). An `extern __shared__` array is `dynamic_shared`'s.
    fn shared_alignas(&mut self, shared: usize) {
        let mut close = None;
        let mut k = shared + 1;
        while self.text_at(Some(k)) == "alignas" && self.is_punct(k + 1, "(") {
            let Some(c) = self.matching_close(k + 1) else {
                return;
            };
            close = Some(c);
            k = c + 1;
        }
        let Some(close) = close else {
            return;
        };
        if self.text_at(Some(k)) == "extern" {
            return;
        }
        let (shared_end, align_start) = (self.tokens[shared].end, self.tokens[shared + 1].start);
        let newlines = self.source[shared_end..align_start].matches('\n').count();
        self.edits.push(Edit {
            start: self.tokens[shared].start,
            end: self.tokens[close].end,
            replacement: format!(
                "{} __shared__{}",
                &self.source[align_start..self.tokens[close].end],
                "\n".repeat(newlines)
            ),
        });
    }

    /// Gives each `__host__ __device__` function that it fits a contracted
    /// copy of its body for device code (`super::contraction`), where
    /// nothing else rewrote inside the body.
    ///
    /// The calls of [`Rewriter::host_device_math`] call CUDA's own function
    /// in that copy (the body itself then runs on the host only, and keeps
    /// the C library's); in a function without a copy they ask as they run.
    fn host_device_copies(&mut self) {
        let mut math = std::mem::take(&mut self.host_device_math);
        for (head, open, close) in std::mem::take(&mut self.host_device_functions) {
            let (from, to) = (self.tokens[open].end, self.tokens[close].start);
            let edited = self.edits.iter().any(|e| e.start >= from && e.start < to);
            let in_body = |m: &HostDeviceMath| m.first > open && m.last < close;
            let renames: Vec<(usize, usize, &str)> = math
                .iter()
                .filter(|m| in_body(m))
                .map(|m| (m.first, m.last, m.device))
                .collect();
            let Some(copy) = super::contraction::device_copy(
                self.source,
                self.tokens,
                head,
                open,
                close,
                edited,
                &renames,
            ) else {
                continue;
            };
            // An overload call in the copy is reported on the `{`'s line.
            let (at, line) = (self.tokens[open].end, self.tokens[open].line);
            for m in math.iter().filter(|m| in_body(m) && m.overloaded) {
                if let Some(&(_, offset)) = copy.renamed.iter().find(|&&(k, _)| k == m.first) {
                    self.remember_overload(m.last, line, (at, at), m.device, offset);
                }
            }
            self.edits.extend(
                copy.edits
                    .into_iter()
                    .map(|(start, end, replacement)| Edit {
                        start,
                        end,
                        replacement,
                    }),
            );
            math.retain(|m| !in_body(m));
        }
        for call in math {
            let span = (self.tokens[call.first].start, self.tokens[call.last].end);
            self.host_or_device_edit(call.last, span, call.device, call.overloaded);
        }
    }

    /// Replaces the math function's name at `start..end` (its last token
    /// `name`) with a call that asks as it runs ([`host_or_device_call`]);
    /// an overload set's call is remembered, on its own line.
    fn host_or_device_edit(
        &mut self,
        name: usize,
        (start, end): (usize, usize),
        device: &'static str,
        overloaded: bool,
    ) {
        let replacement = host_or_device_call(&self.source[start..end], device);
        if overloaded {
            let in_device = format!("return {device}(");
            let offset = replacement.find(&in_device).unwrap_or(0) + in_device.len() - 1;
            let line = self.tokens[name].line;
            self.remember_overload(name, line, (start, end), device, offset);
        }
        self.edits.push(Edit {
            start,
            end,
            replacement,
        });
    }

    /// Remembers the overload call whose name is token `name`, which the
    /// compiler will report on `reported_line`, at byte `offset` of the
    /// replacement of `start..end` (just past the name `device`).
    fn remember_overload(
        &mut self,
        name: usize,
        reported_line: u32,
        (start, end): (usize, usize),
        device: &'static str,
        offset: usize,
    ) {
        let token = self.tokens[name];
        self.anchors.push(Anchor {
            start,
            end,
            offset,
            device,
            call: self.overload_calls.len(),
        });
        self.overload_calls.push(OverloadCall {
            line: token.line,
            column: token.column,
            function: self.text(name).to_string(),
            reported_line,
            reported_column: token.column,
        });
    }

    /// A half-precision product declared at `index` in device code or a
    /// macro body whose uses are all additions stays unrounded, so that
    /// they fuse it as nvcc does (`super::half_products`). Not in a
    /// `__host__ __device__` function: its host copy rounds.
    fn half_product(&mut self, index: usize, scopes: &[Scope]) {
        let in_device_code = self.tokens[index].directive.is_none()
            && scopes.iter().any(|s| s.device)
            && !scopes.iter().any(|s| s.host_device);
        if !super::half_products::is_half_type(self.text(index))
            || !(in_device_code || self.in_define(index))
        {
            return;
        }
        match super::half_products::product_variable(
            self.source,
            self.tokens,
            index,
            self.kept_returns,
        ) {
            Ok(edits) => self.push_edits(edits),
            Err(Some(call)) => self.half_product_calls.push(call),
            Err(None) => {}
        }
    }

    /// The half-precision parameters that take a product
    /// (`super::half_products::addend_parameters`).
    fn addend_parameters(&mut self) {
        let edits = super::half_products::addend_parameters(self.source, self.tokens);
        self.push_edits(edits);
    }

    /// Takes the edits `super::half_products` made.
    fn push_edits(&mut self, edits: Vec<super::half_products::Edit>) {
        self.edits
            .extend(edits.into_iter().map(|(start, end, replacement)| Edit {
                start,
                end,
                replacement,
            }));
    }

    /// `__noinline__` is spelled out here rather than defined as a macro:
    /// libstdc++ writes `__attribute__((__noinline__))` in its own headers,
    /// which such a macro would break. Inside `__attribute__((...))` the
    /// word is already GCC's spelling and is left alone.
    fn noinline(&mut self, index: usize) {
        if self.text(index) == "__noinline__" && !(index > 0 && self.is_punct(index - 1, "(")) {
            let token = self.tokens[index];
            self.edits.push(Edit {
                start: token.start,
                end: token.end,
                replacement: "__attribute__((noinline))".into(),
            });
        }
    }

    /// A lambda whose body opens at `brace`, in device code, is device code,
    /// which nvcc contracts (`a*b + c` into one fused multiply-add); GCC gives
    /// a lambda options of its own, so the shim's `CUDA_EMU_DEVICE_CODE`
    /// (what `__device__` expands to) is written after its `]`. Not for a
    /// lambda that says `__device__` itself, nor a template lambda
    /// (`[]<class T>`), where no attribute may stand: such a lambda's
    /// multiply-adds stay unfused (the README's emulation section says so).
    fn device_lambda(&mut self, head_start: usize, brace: usize) {
        // A `[` that opens a lambda follows what opens an expression (an
        // array's `[` follows its name).
        let opens_expression = |this: &Self, k: usize| {
            k < head_start
                || (this.tokens[k].kind == TokenKind::Punct
                    && matches!(this.text(k), "=" | "(" | "," | "{" | ";" | "?" | ":"))
                || this.text(k) == "return"
        };
        let mut introducer = None;
        for k in head_start..brace {
            if !self.is_punct(k, "]") || self.tokens[k].directive.is_some() {
                continue;
            }
            // The `[` that opens it.
            let mut depth = 0usize;
            let mut open = None;
            for j in (head_start..k).rev() {
                if self.is_punct(j, "]") {
                    depth += 1;
                } else if self.is_punct(j, "[") {
                    if depth == 0 {
                        open = Some(j);
                        break;
                    }
                    depth -= 1;
                }
            }
            let Some(open) = open else { continue };
            if self.is_punct(open + 1, "[") || (open > 0 && !opens_expression(self, open - 1)) {
                continue;
            }
            let declarator = match self.text_at(Some(k + 1)) {
                "(" => self
                    .matching_close(k + 1)
                    .is_some_and(|close| close < brace),
                "mutable" | "constexpr" | "noexcept" | "->" => true,
                _ => k + 1 == brace,
            };
            if declarator {
                introducer = Some(k);
            }
        }
        if let Some(k) = introducer {
            let token = self.tokens[k];
            self.edits.push(Edit {
                start: token.start,
                end: token.end,
                replacement: "] CUDA_EMU_DEVICE_CODE".into(),
            });
        }
    }

    /// `__cluster_dims__(x, y, z)` on a kernel: the attribute is removed (its line
    /// breaks kept) and, after the kernel's declaration or definition, a static
    /// registers the shape under the kernel's name and address
    /// (`::cuda_emu::register_cluster_dims`), which the shim's launches look up: a
    /// `<<<>>>` launch by the kernel's name (without its qualifiers and template
    /// arguments), `cudaLaunchKernelEx` by its address. A template kernel has no
    /// one address to register: refused. Returns the index after the `)`.
    fn cluster_dims(&mut self, at: usize, head_start: usize) -> Result<usize, RewriteError> {
        let refuse = |this: &Self, what: &str| {
            this.unsupported(at, UnsupportedFeature::CooperativeGroups(what.to_string()))
        };
        let close = match self.is_punct(at + 1, "(") {
            true => self.matching_close(at + 1),
            false => None,
        };
        let Some(close) = close else {
            return Err(refuse(self, "__cluster_dims__ without its shape"));
        };
        if close == at + 2 {
            return Err(refuse(self, "__cluster_dims__ without its shape"));
        }
        if (head_start..at).any(|k| self.text(k) == "template") {
            return Err(refuse(self, "__cluster_dims__ on a template kernel"));
        }
        // The kernel's name: the first identifier followed by `(` after the shape.
        let mut name = close + 1;
        while name + 1 < self.tokens.len()
            && !(self.tokens[name].kind == TokenKind::Ident && self.is_punct(name + 1, "("))
        {
            if matches!(self.text(name), ";" | "{" | "}" | "(" | ")") {
                return Err(refuse(
                    self,
                    "__cluster_dims__ with no kernel name after it",
                ));
            }
            name += 1;
        }
        let params_close = match name + 1 < self.tokens.len() {
            true => self.matching_close(name + 1),
            false => None,
        };
        let Some(params_close) = params_close else {
            return Err(refuse(
                self,
                "__cluster_dims__ with no kernel name after it",
            ));
        };
        // The end of the declaration (`;`) or of the definition (its `}`).
        let mut end = params_close + 1;
        let end = loop {
            if end >= self.tokens.len() {
                return Err(refuse(
                    self,
                    "__cluster_dims__ with no kernel name after it",
                ));
            }
            match self.text(end) {
                ";" => break end,
                "{" => match self.matching_brace(end) {
                    Some(shut) => break shut,
                    None => {
                        return Err(refuse(
                            self,
                            "__cluster_dims__ with no kernel name after it",
                        ));
                    }
                },
                _ => end += 1,
            }
        };
        let removed = &self.source[self.tokens[at].start..self.tokens[close].end];
        self.edits.push(Edit {
            start: self.tokens[at].start,
            end: self.tokens[close].end,
            replacement: "\n".repeat(removed.matches('\n').count()),
        });
        let shape =
            self.source[self.tokens[at + 2].start..self.tokens[close - 1].end].replace('\n', " ");
        let kernel = self.text(name).to_string();
        self.edits.push(Edit {
            start: self.tokens[end].end,
            end: self.tokens[end].end,
            replacement: format!(
                " static const bool cuda_emu_cluster_dims_{at} = ::cuda_emu::register_cluster_dims({}, reinterpret_cast<const void*>(&{kernel}), {shape});",
                c_string_literal(&kernel)
            ),
        });
        Ok(close + 1)
    }

    /// The `}` matching the `{` at `open`.
    fn matching_brace(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for k in open..self.tokens.len() {
            if self.tokens[k].kind != TokenKind::Punct || self.tokens[k].directive.is_some() {
                continue;
            }
            match self.text(k) {
                "{" => depth += 1,
                "}" => {
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

    /// Whether token `i` stands in an unevaluated operand (`decltype(...)`,
    /// `sizeof(...)` and the like) within its statement or directive.
    fn in_unevaluated_operand(&self, i: usize) -> bool {
        let directive = self.tokens[i].directive;
        let mut depth = 0usize;
        for k in (0..i).rev() {
            if self.tokens[k].directive != directive {
                return false;
            }
            match self.text(k) {
                ")" => depth += 1,
                "(" if depth > 0 => depth -= 1,
                "(" if k > 0 && UNEVALUATED.contains(&self.text(k - 1)) => return true,
                ";" | "{" | "}" if depth == 0 => return false,
                _ => {}
            }
        }
        false
    }

    /// Whether the macro whose body holds token `i` is used in an
    /// unevaluated operand anywhere in the file.
    fn macro_used_unevaluated(&self, i: usize) -> bool {
        let Some(hash) = self.tokens[i].directive else {
            return false;
        };
        if self.text_at(Some(hash + 1)) != "define" {
            return false;
        }
        let name = self.text_at(Some(hash + 2));
        self.unevaluated_names
            .get_or_init(|| self.names_in_unevaluated_operands())
            .contains(name)
    }

    /// The names used, outside preprocessor lines, in an unevaluated
    /// operand: one pass, each `(` marked as opening (or lying inside) one.
    fn names_in_unevaluated_operands(&self) -> std::collections::HashSet<&'a str> {
        let mut names = std::collections::HashSet::new();
        let mut open: Vec<bool> = Vec::new();
        for k in 0..self.tokens.len() {
            if self.tokens[k].directive.is_some() {
                continue;
            }
            match self.text(k) {
                "(" => {
                    let inside = open.last() == Some(&true);
                    open.push(inside || (k > 0 && UNEVALUATED.contains(&self.text(k - 1))));
                }
                ")" => {
                    open.pop();
                }
                name if self.tokens[k].kind == TokenKind::Ident && open.last() == Some(&true) => {
                    names.insert(name);
                }
                _ => {}
            }
        }
        names
    }

    fn text(&self, index: usize) -> &'a str {
        let token = self.tokens[index];
        &self.source[token.start..token.end]
    }

    /// The text of token `index`, or "" past either end.
    fn text_at(&self, index: Option<usize>) -> &str {
        match index {
            Some(index) if index < self.tokens.len() => self.text(index),
            _ => "",
        }
    }

    fn is_punct(&self, index: usize, punct: &str) -> bool {
        index < self.tokens.len()
            && self.tokens[index].kind == TokenKind::Punct
            && self.text(index) == punct
    }

    /// Three tokens from `index` are `c`, `c`, `c` with nothing between them.
    fn is_triple(&self, index: usize, c: &str) -> bool {
        index + 2 < self.tokens.len()
            && (0..3).all(|k| self.is_punct(index + k, c))
            && self.tokens[index].end == self.tokens[index + 1].start
            && self.tokens[index + 1].end == self.tokens[index + 2].start
    }

    /// Three tokens from `index` are `c`, `c`, `c` as a launch spells them:
    /// `<<<` / `>>>`, or `<< <` / `>> >` with white space before the third,
    /// as clang-format writes them (nvcc accepts both).
    fn is_chevrons(&self, index: usize, c: &str) -> bool {
        if self.is_triple(index, c) {
            return true;
        }
        index + 2 < self.tokens.len()
            && (0..3).all(|k| self.is_punct(index + k, c))
            && self.tokens[index].end == self.tokens[index + 1].start
            && self.source[self.tokens[index + 1].end..self.tokens[index + 2].start]
                .chars()
                .all(|ch| ch.is_whitespace() || ch == '\\')
    }

    fn is_launch(&self, index: usize) -> bool {
        // `operator<<<T>` is a template operator, not a launch; nor is
        // `operator<< <T>`.
        self.is_chevrons(index, "<")
            && !(index > 0 && self.text(index - 1) == "operator")
            && self.tokens[index].directive.is_none_or(|hash| {
                // Not in `#include <...>`.
                self.text_at(Some(hash + 1)) != "include"
            })
    }

    fn unsupported(&self, index: usize, feature: UnsupportedFeature) -> RewriteError {
        let token = self.tokens[index];
        RewriteError::Unsupported {
            path: self.path.to_path_buf(),
            line: token.line,
            column: token.column,
            feature,
        }
    }

    fn malformed_launch(&self, index: usize, reason: &'static str) -> RewriteError {
        let token = self.tokens[index];
        RewriteError::MalformedLaunch {
            path: self.path.to_path_buf(),
            line: token.line,
            column: token.column,
            reason,
        }
    }

    fn malformed_shared(&self, index: usize, reason: &'static str) -> RewriteError {
        let token = self.tokens[index];
        RewriteError::MalformedSharedDeclaration {
            path: self.path.to_path_buf(),
            line: token.line,
            column: token.column,
            reason,
        }
    }

    /// Records the header of an `#include "..."` line.
    fn check_directive(&mut self, hash: usize) -> Result<(), RewriteError> {
        if self.text_at(Some(hash + 1)) != "include" {
            return Ok(());
        }
        let Some(&name) = self.tokens.get(hash + 2) else {
            return Ok(());
        };
        // `#include <mma.h>`: the tokens `<` `mma` `.` `h` `>` (a program's own
        // "mma.h" beside it is its own).
        let angled = self.text_at(Some(hash + 2)) == "<"
            && self.text_at(Some(hash + 3)) == "mma"
            && self.text_at(Some(hash + 4)) == "."
            && self.text_at(Some(hash + 5)) == "h"
            && self.text_at(Some(hash + 6)) == ">";
        if angled {
            return Err(self.unsupported(
                hash,
                UnsupportedFeature::RefusedHeader(
                    "warp matrix multiply-accumulate (`<mma.h>`: nvcuda::wmma)",
                ),
            ));
        }
        if name.kind == TokenKind::Str && name.directive == Some(hash) {
            let quoted = &self.source[name.start..name.end];
            if let Some(inner) = quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
                self.local_includes.push(inner.to_string());
            }
        }
        Ok(())
    }

    /// Refuses identifiers that name an unsupported feature.
    fn check_identifier(&self, index: usize) -> Result<(), RewriteError> {
        let name = self.text(index);
        let next = self.text_at(Some(index + 1));
        let feature = match name {
            "asm" | "__asm__" | "__asm" => Some(UnsupportedFeature::InlineAssembly),
            "this_multi_grid" | "multi_grid_group" => {
                Some(UnsupportedFeature::CooperativeGroups(name.to_string()))
            }
            _ if TEXTURE_REFERENCE_NAMES.contains(&name) => {
                Some(UnsupportedFeature::TextureReference(name.to_string()))
            }
            "texture" | "surface" if next == "<" => {
                Some(UnsupportedFeature::TextureReference(name.to_string()))
            }
            "cudaLaunchCooperativeKernelMultiDevice" => Some(UnsupportedFeature::CooperativeLaunch),
            _ if TEXTURE_NAMES.contains(&name) => {
                Some(UnsupportedFeature::TextureOrSurface(name.to_string()))
            }
            _ if next == "(" && self.is_texture_reference_fetch(index) => {
                Some(UnsupportedFeature::TextureReference(name.to_string()))
            }
            _ if is_texture_function(name)
                && (next == "(" || next == "<")
                && !SURFACE_FUNCTIONS.contains(&name)
                && !TEXTURE_FUNCTIONS.iter().any(|&(f, _)| f == name) =>
            {
                Some(UnsupportedFeature::TextureOrSurface(name.to_string()))
            }
            _ => None,
        };
        match feature {
            Some(feature) => Err(self.unsupported(index, feature)),
            None => Ok(()),
        }
    }

    /// A call `tex2D(ref, x, y)` of an emulated fetch without template
    /// arguments and with the argument count of the value-returning form:
    /// the texture-reference form (the object form needs `<T>`, or one more
    /// argument, the pointer to store through).
    fn is_texture_reference_fetch(&self, name: usize) -> bool {
        let Some(&(_, arity)) = TEXTURE_FUNCTIONS
            .iter()
            .find(|&&(f, _)| f == self.text(name))
        else {
            return false;
        };
        // Count the arguments at depth 0 between the parentheses.
        let mut depth = 0usize;
        let mut arguments = 0usize;
        let mut k = name + 1;
        while k < self.tokens.len() {
            let token = self.tokens[k];
            if token.kind == TokenKind::Punct {
                match self.text(k) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => {
                        depth -= 1;
                        if depth == 0 {
                            // `f()` has no argument; otherwise one more than commas.
                            if k > name + 2 {
                                arguments += 1;
                            }
                            return arguments == arity;
                        }
                    }
                    "," if depth == 1 => arguments += 1,
                    ";" => return false,
                    _ => {}
                }
            }
            k += 1;
        }
        false
    }

    /// The scope a `{` at `brace` opens, judged from the tokens of its head.
    fn scope_opened(&self, head_start: usize, brace: usize, parent: Option<&Scope>) -> Scope {
        let head: Vec<&str> = (head_start..brace)
            .filter(|&k| self.tokens[k].directive.is_none())
            .map(|k| self.text(k))
            .collect();
        let has = |word: &str| head.contains(&word);
        // `extern "C" {` opens a block of declarations; `extern "C" __global__
        // void k() {` is a function body.
        let extern_c = head.len() >= 2
            && head[head.len() - 2] == "extern"
            && head[head.len() - 1].starts_with('"');
        let class = ["class", "struct", "union"].iter().any(|w| has(w)) && !has("(");
        let declarations = has("namespace") || extern_c || class;
        let device = parent.is_some_and(|p| p.device)
            || has("__global__")
            || (has("__device__") && !has("__host__"));
        let host_device = !device
            && (parent.is_some_and(|p| p.host_device) || (has("__device__") && has("__host__")));
        Scope {
            declarations,
            device,
            host_device,
            brace,
            constexpr_fn: has("constexpr") || has("consteval"),
        }
    }

    /// Rewrites the launch whose `<<<` starts at token `open`; returns the
    /// index of the token after its `>>>`.
    fn launch(&mut self, open: usize) -> Result<usize, RewriteError> {
        let kernel = self
            .kernel_start(open)
            .ok_or_else(|| self.malformed_launch(open, "no kernel name before `<<<`"))?;

        // Find the `>>>` that closes the configuration, at bracket depth 0.
        let mut depth = 0usize;
        let mut close = None;
        let mut k = open + 3;
        while k < self.tokens.len() {
            let token = self.tokens[k];
            if token.directive != self.tokens[open].directive {
                break;
            }
            if token.kind == TokenKind::Punct {
                match self.text(k) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => {
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                    }
                    ";" if depth == 0 => break,
                    ">" if depth == 0 && self.is_chevrons(k, ">") => {
                        close = Some(k);
                        break;
                    }
                    "<" if self.is_launch(k) => {
                        return Err(
                            self.malformed_launch(k, "a `<<<` inside a launch configuration")
                        );
                    }
                    _ => {}
                }
            }
            k += 1;
        }
        let close =
            close.ok_or_else(|| self.malformed_launch(open, "no `>>>` closes this `<<<`"))?;
        if close == open + 3 {
            return Err(self.malformed_launch(open, "the launch configuration is empty"));
        }
        let in_directive = self.tokens[open].directive.is_some();
        if !in_directive && !self.is_punct(close + 3, "(") {
            return Err(self.malformed_launch(close, "no argument list `(...)` after `>>>`"));
        }

        // The kernel is called from a generic lambda rather than passed as a
        // function pointer, so that template kernels deduce their arguments
        // and default arguments work, as with nvcc. The kernel expression is
        // joined onto one line; the newlines it spanned follow it, so the
        // lines below stay where they were.
        let kernel_text = self.join(&(kernel..open).collect::<Vec<_>>());
        let span_start = self.tokens[kernel].start;
        let span_end = self.tokens[open + 2].end;
        let newlines = self.source[span_start..span_end].matches('\n').count();
        let line_break = if in_directive { "\\\n" } else { "\n" };
        let call = match self.null_constant_arguments(close + 3) {
            Some(arguments) => {
                self.call_keeping_null_constants(&kernel_text, &arguments, line_break)
            }
            None => format!(
                "[&](auto&&... {ARGS}) {{ {kernel_text}({ARGS}...); }}",
                ARGS = LAUNCH_ARGUMENTS
            ),
        };
        self.edits.push(Edit {
            start: span_start,
            end: span_end,
            replacement: format!(
                "{LAUNCH_CALLEE}(__FILE__, __LINE__, {name}, {call}, {breaks}",
                name = c_string_literal(&kernel_text),
                breaks = line_break.repeat(newlines),
            ),
        });
        self.edits.push(Edit {
            start: self.tokens[close].start,
            end: self.tokens[close + 2].end,
            replacement: ")".to_string(),
        });
        self.launches += 1;
        Ok(close + 3)
    }

    /// The arguments of the launch whose `(` is at `paren`, as token ranges,
    /// when one of them is a null pointer constant written `0` or `NULL`:
    /// stored as an `int` or a `long` with the others, it would no longer
    /// convert to the kernel's pointer parameter, as it does under nvcc
    /// (`k<<<g, b>>>(n, 0)` for an optional output). `None` when there is
    /// none, or when the list has a `<` (a template argument list's commas
    /// cannot be told from the arguments' here).
    fn null_constant_arguments(&self, paren: usize) -> Option<Vec<(usize, usize)>> {
        if !self.is_punct(paren, "(") {
            return None;
        }
        let directive = self.tokens[paren].directive;
        let mut arguments = Vec::new();
        let mut depth = 0usize;
        let mut start = paren + 1;
        let mut k = paren + 1;
        loop {
            let token = self.tokens.get(k)?;
            if token.directive != directive {
                return None;
            }
            if token.kind == TokenKind::Punct {
                match self.text(k) {
                    "(" | "[" | "{" => depth += 1,
                    "<" => return None,
                    ")" | "]" | "}" if depth > 0 => depth -= 1,
                    ")" => {
                        if k > start {
                            arguments.push((start, k));
                        }
                        break;
                    }
                    "," if depth == 0 => {
                        arguments.push((start, k));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
            k += 1;
        }
        arguments
            .iter()
            .any(|&(from, to)| self.is_null_constant(from, to))
            .then_some(arguments)
    }

    fn is_null_constant(&self, from: usize, to: usize) -> bool {
        to == from + 1 && matches!(self.text(from), "0" | "NULL")
    }

    /// The kernel's call for a launch with null pointer constants among its
    /// `arguments`: those are written into the call itself and dropped from
    /// the argument list (its commas with them, its newlines kept as
    /// `line_break`s), so the kernel receives them as nvcc's call would; the
    /// others are passed on.
    fn call_keeping_null_constants(
        &mut self,
        kernel_text: &str,
        arguments: &[(usize, usize)],
        line_break: &str,
    ) -> String {
        let mut parameters = Vec::new();
        let mut passed = Vec::new();
        for (n, &(from, to)) in arguments.iter().enumerate() {
            if self.is_null_constant(from, to) {
                passed.push(self.text(from).to_string());
                // The argument with the comma before it (after it, for the first).
                let (start, end) = if n > 0 {
                    (self.tokens[from - 1].start, self.tokens[from].end)
                } else if arguments.len() > 1 {
                    (self.tokens[from].start, self.tokens[to].end)
                } else {
                    (self.tokens[from].start, self.tokens[from].end)
                };
                let removed = &self.source[start..end];
                self.edits.push(Edit {
                    start,
                    end,
                    replacement: line_break.repeat(removed.matches('\n').count()),
                });
            } else {
                let name = format!("{LAUNCH_ARGUMENTS}{n}");
                parameters.push(format!("auto&& {name}"));
                passed.push(name);
            }
        }
        format!(
            "[&]({}) {{ {kernel_text}({}); }}",
            parameters.join(", "),
            passed.join(", ")
        )
    }

    /// The first token of the kernel expression before the `<<<` at `open`:
    /// a possibly qualified name with template arguments (`k`, `ns::k`,
    /// `::k`, `k<float, 4>`, `ns::k<T>`) or a parenthesized expression.
    fn kernel_start(&self, open: usize) -> Option<usize> {
        let mut end = open.checked_sub(1)?;
        if self.is_punct(end, ")") {
            return self.matching_open(end, "(", ")");
        }
        loop {
            // One name component, with its template arguments.
            if self.is_punct(end, ">") {
                let angle = self.matching_angle(end)?;
                end = angle.checked_sub(1)?;
            }
            if self.tokens[end].kind != TokenKind::Ident || is_statement_keyword(self.text(end)) {
                return None;
            }
            let mut start = end;
            // In a macro, `k_##name<<<...>>>`: the name is pasted from pieces.
            while start >= 3
                && self.is_punct(start - 1, "#")
                && self.is_punct(start - 2, "#")
                && self.tokens[start - 2].end == self.tokens[start - 1].start
                && self.tokens[start - 3].kind == TokenKind::Ident
            {
                start -= 3;
            }
            if start > 0 && self.text(start - 1) == "template" {
                start -= 1;
            }
            // A `::` before it continues the name.
            let is_scope = start >= 2
                && self.is_punct(start - 1, ":")
                && self.is_punct(start - 2, ":")
                && self.tokens[start - 2].end == self.tokens[start - 1].start;
            if !is_scope {
                return Some(start);
            }
            let before = start.checked_sub(3);
            match before {
                Some(b)
                    if self.tokens[b].kind == TokenKind::Ident
                        && !is_statement_keyword(self.text(b))
                        || self.is_punct(b, ">") =>
                {
                    end = b;
                }
                // `::k`: a name from the global namespace.
                _ => return Some(start - 2),
            }
        }
    }

    /// The `<` matching the `>` at `close`, skipping bracketed groups.
    fn matching_angle(&self, close: usize) -> Option<usize> {
        let mut depth = 0usize;
        let mut k = close;
        loop {
            match self.text(k) {
                ">" => depth += 1,
                "<" => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                ")" => k = self.matching_open(k, "(", ")")?,
                "]" => k = self.matching_open(k, "[", "]")?,
                ";" | "{" | "}" => return None,
                _ => {}
            }
            k = k.checked_sub(1)?;
        }
    }

    /// The opening bracket matching the closing one at `close`.
    fn matching_open(&self, close: usize, open: &str, shut: &str) -> Option<usize> {
        let mut depth = 0usize;
        let mut k = close;
        loop {
            if self.tokens[k].kind == TokenKind::Punct {
                let text = self.text(k);
                if text == shut {
                    depth += 1;
                } else if text == open {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
            }
            k = k.checked_sub(1)?;
        }
    }

    /// Whether the token at `index` is in the body of a `#define`.
    fn in_define(&self, index: usize) -> bool {
        self.tokens[index]
            .directive
            .is_some_and(|hash| self.text_at(Some(hash + 1)) == "define")
    }

    /// If the `extern` at `index` begins `extern __shared__ T name[];`,
    /// records its rewrite and returns the index after its `;`. In a
    /// macro's body (cuda-samples' `SharedMemory<T>` is made by one) the
    /// declaration must end in the same `#define`; it is in a function when
    /// a `{` of the body is open before it.
    fn dynamic_shared(
        &mut self,
        index: usize,
        scopes: &[Scope],
    ) -> Result<Option<usize>, RewriteError> {
        // The declaration runs to the next `;`, within one statement.
        let directive = self.tokens[index].directive;
        let mut semicolon = None;
        for k in index + 1..self.tokens.len() {
            if self.tokens[k].directive != directive {
                return Ok(None);
            }
            match self.text(k) {
                ";" => {
                    semicolon = Some(k);
                    break;
                }
                "{" | "}" => return Ok(None),
                _ => {}
            }
        }
        let Some(semicolon) = semicolon else {
            return Ok(None);
        };
        // `__shared__` and alignment specifiers may come before `extern` too.
        let mut start = index;
        loop {
            if start >= 1 && self.text(start - 1) == "__shared__" {
                start -= 1;
                continue;
            }
            if start >= 1
                && self.is_punct(start - 1, ")")
                && let Some(paren) = self.matching_open(start - 1, "(", ")")
                && paren >= 1
                && matches!(self.text(paren - 1), "alignas" | "__align__")
            {
                start = paren - 1;
                continue;
            }
            break;
        }
        if !(start..semicolon).any(|k| self.text(k) == "__shared__") {
            return Ok(None);
        }
        let in_function = match directive {
            Some(hash) => {
                let opened = (hash..start).filter(|&k| self.is_punct(k, "{")).count();
                let closed = (hash..start).filter(|&k| self.is_punct(k, "}")).count();
                opened > closed
            }
            None => scopes.iter().any(|scope| !scope.declarations),
        };

        // Split the declaration into specifiers (dropped), the type, and
        // the declarators `name[]`.
        let mut type_tokens = Vec::new();
        let mut k = start;
        let mut declarators_start = None;
        while k < semicolon {
            let text = self.text(k);
            match text {
                "extern" | "__shared__" => k += 1,
                "alignas" | "__align__" => {
                    if !self.is_punct(k + 1, "(") {
                        return Err(self.malformed_shared(k, "an alignment without `(N)`"));
                    }
                    let close = self
                        .matching_close(k + 1)
                        .filter(|&c| c < semicolon)
                        .ok_or_else(|| self.malformed_shared(k, "an unclosed alignment"))?;
                    k = close + 1;
                }
                _ if self.tokens[k].kind == TokenKind::Ident && self.is_punct(k + 1, "[") => {
                    declarators_start = Some(k);
                    break;
                }
                _ => {
                    type_tokens.push(k);
                    k += 1;
                }
            }
        }
        let Some(declarators_start) = declarators_start else {
            return Err(self.malformed_shared(index, "no array `name[]`"));
        };
        if type_tokens.is_empty() {
            return Err(self.malformed_shared(index, "no element type"));
        }
        let element_type = self.join(&type_tokens);

        let mut names = Vec::new();
        let mut k = declarators_start;
        loop {
            // Alignment may also follow the declarator in GNU style.
            if self.tokens[k].kind != TokenKind::Ident
                || !self.is_punct(k + 1, "[")
                || !self.is_punct(k + 2, "]")
            {
                return Err(self.malformed_shared(
                    k,
                    "a declarator other than `name[]` (a sized array is not dynamic)",
                ));
            }
            names.push(self.text(k).to_string());
            k += 3;
            while k < semicolon && matches!(self.text(k), "alignas" | "__align__") {
                let close = self
                    .matching_close(k + 1)
                    .filter(|&c| c < semicolon)
                    .ok_or_else(|| self.malformed_shared(k, "an unclosed alignment"))?;
                k = close + 1;
            }
            if k == semicolon {
                break;
            }
            if !self.is_punct(k, ",") {
                return Err(self.malformed_shared(k, "unexpected text after `[]`"));
            }
            k += 1;
            if k >= semicolon {
                return Err(self.malformed_shared(k, "a trailing comma"));
            }
        }

        // Every `extern __shared__` array starts at the same address, as on
        // the GPU. Newlines of the original keep the lines below in place.
        let mut replacement = String::new();
        for name in &names {
            if !replacement.is_empty() {
                replacement.push(' ');
            }
            let pointer = format!("reinterpret_cast<{element_type}*>({DYNAMIC_SHARED_CALL})");
            if in_function {
                replacement.push_str(&format!("{element_type}* const {name} = {pointer};"));
            } else {
                // At namespace scope a pointer would be computed once, before
                // any launch: an object that asks on every use stands in.
                replacement.push_str(&format!(
                    "struct {{ template <class I> {element_type}& operator[](I i) const \
                     {{ return {pointer}[i]; }} operator {element_type}*() const \
                     {{ return {pointer}; }} }} const {name}{{}};"
                ));
            }
        }
        let span_start = self.tokens[start].start;
        let span_end = self.tokens[semicolon].end;
        let newlines = self.source[span_start..span_end].matches('\n').count();
        // In a macro's body each of those lines ends in a backslash.
        let line_end = if directive.is_some() { " \\\n" } else { "\n" };
        replacement.push_str(&line_end.repeat(newlines));
        self.edits.push(Edit {
            start: span_start,
            end: span_end,
            replacement,
        });
        Ok(Some(semicolon + 1))
    }

    /// The `)` matching the `(` at `open`.
    fn matching_close(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for k in open..self.tokens.len() {
            if self.tokens[k].kind != TokenKind::Punct {
                continue;
            }
            match self.text(k) {
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

    /// The text of `indices`, with a space where the source had any gap.
    fn join(&self, indices: &[usize]) -> String {
        let mut text = String::new();
        for (n, &k) in indices.iter().enumerate() {
            if n > 0 && self.tokens[indices[n - 1]].end != self.tokens[k].start {
                text.push(' ');
            }
            text.push_str(self.text(k));
        }
        text
    }
}

/// Texture fetches and surface reads and writes: `tex1Dfetch`, `tex2D`,
/// `tex2DLod`, `texCubemap`, `surf2Dwrite`, ... (those the shim emulates are
/// told apart by the caller).
fn is_texture_function(name: &str) -> bool {
    let prefixes = [
        "tex1D",
        "tex2D",
        "tex3D",
        "texCubemap",
        "surf1D",
        "surf2D",
        "surf3D",
        "surfCubemap",
    ];
    // A CUDA name is a prefix, `Layered` or not, then at most one of these:
    // a program's own `tex2D_at` macro is not one.
    prefixes.iter().any(|prefix| {
        name.strip_prefix(prefix).is_some_and(|rest| {
            let rest = rest.strip_prefix("Layered").unwrap_or(rest);
            matches!(
                rest,
                "" | "fetch" | "Lod" | "Grad" | "gather" | "read" | "write"
            )
        })
    })
}

/// Keywords that can sit right before `<<<`-like text but never name a kernel.
fn is_statement_keyword(word: &str) -> bool {
    matches!(
        word,
        "return" | "case" | "goto" | "else" | "do" | "throw" | "co_return" | "co_yield" | "sizeof"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "lesson/k.cu";

    /// The rewritten program without the two prelude lines.
    fn body(source: &str) -> String {
        let rewritten = rewrite(Path::new(PATH), source).expect("rewrites");
        let mut lines = rewritten.cpp.splitn(3, '\n');
        assert_eq!(lines.next(), Some("#include <cuda_runtime.h>"));
        assert_eq!(lines.next(), Some("#line 1 \"lesson/k.cu\""));
        lines.next().unwrap_or("").to_string()
    }

    fn refusal(source: &str) -> (u32, u32, UnsupportedFeature) {
        match rewrite(Path::new(PATH), source) {
            Err(RewriteError::Unsupported {
                line,
                column,
                feature,
                ..
            }) => (line, column, feature),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    /// What a launch of `kernel` becomes, up to and including the comma
    /// before its configuration, followed by `rest`.
    fn launch(kernel: &str, rest: &str) -> String {
        format!(
            "::cuda_emu::launch(__FILE__, __LINE__, \"{kernel}\", \
             [&](auto&&... cuda_emu_args_) {{ {kernel}(cuda_emu_args_...); }}, {rest}"
        )
    }

    #[test]
    fn lambdas_in_device_code_ask_for_device_contraction() {
        // A lambda in a kernel or device function is device code (its
        // multiply-adds fuse, as nvcc's do); one in host code is not.
        assert_eq!(
            body(
                "__global__ void k(float* a) { auto f = [=](float x) { return x * a[0] + 1; }; a[1] = f(2); }"
            ),
            "__global__ void k(float* a) { auto f = [=] CUDA_EMU_DEVICE_CODE(float x) { return x * a[0] + 1; }; a[1] = f(2); }"
        );
        assert_eq!(
            body(
                "__device__ float g(float y) { auto f = [y] mutable { return y * y + 1; }; return f(); }"
            ),
            "__device__ float g(float y) { auto f = [y] CUDA_EMU_DEVICE_CODE mutable { return y * y + 1; }; return f(); }"
        );
        assert_eq!(
            body("__device__ float g() { return apply([](float x) { return x * x + 1; }); }"),
            "__device__ float g() { return apply([] CUDA_EMU_DEVICE_CODE(float x) { return x * x + 1; }); }"
        );
        for unchanged in [
            "void h() { auto f = [](float x) { return x * x + 1; }; }",
            "__global__ void k() { auto f = [] __device__ (float x) { return x; }; }",
            "__global__ void k() { auto f = []<class T>(T x) { return x; }; }",
            "__global__ void k(int* a) { if (a[0] > 0) { a[1] = 1; } }",
            "__global__ void k(int* a) { for (int i = 0; i < a[0]; ++i) { a[i] = 0; } }",
        ] {
            assert_eq!(body(unchanged), unchanged);
        }
    }

    #[test]
    fn rewrites_a_two_argument_launch() {
        assert_eq!(
            body("k<<<g, b>>>(x, n);\n"),
            format!("{}\n", launch("k", "g, b)(x, n);"))
        );
    }

    #[test]
    fn keeps_null_pointer_constants_in_the_kernels_call() {
        assert_eq!(
            body("k<int><<<g, b>>>(3, 0, x, NULL);"),
            "::cuda_emu::launch(__FILE__, __LINE__, \"k<int>\", \
             [&](auto&& cuda_emu_args_0, auto&& cuda_emu_args_2) \
             { k<int>(cuda_emu_args_0, 0, cuda_emu_args_2, NULL); }, g, b)(3, x);"
        );
        assert_eq!(
            body("k<<<g, b>>>(0,\n  n);"),
            "::cuda_emu::launch(__FILE__, __LINE__, \"k\", \
             [&](auto&& cuda_emu_args_1) { k(0, cuda_emu_args_1); }, g, b)(\n  n);"
        );
        assert_eq!(
            body("k<<<g, b>>>(NULL);"),
            "::cuda_emu::launch(__FILE__, __LINE__, \"k\", [&]() { k(NULL); }, g, b)();"
        );
        // 0 inside an expression, and a list with a `<`, are left as they were.
        assert_eq!(
            body("k<<<g, b>>>(x, 0 + 1);"),
            launch("k", "g, b)(x, 0 + 1);")
        );
        assert_eq!(
            body("k<<<g, b>>>(f<int>(x), 0);"),
            launch("k", "g, b)(f<int>(x), 0);")
        );
    }

    #[test]
    fn rewrites_launches_with_shared_memory_and_stream() {
        assert_eq!(body("k<<<g, b, 64>>>(x);"), launch("k", "g, b, 64)(x);"));
        assert_eq!(
            body("k<<<g, b, bytes, stream>>>(x);"),
            launch("k", "g, b, bytes, stream)(x);")
        );
    }

    #[test]
    fn reads_the_lesson_launch_with_a_cast_in_the_grid() {
        assert_eq!(
            body("blockSum<<<static_cast<unsigned>(blocks), kBlock>>>(dX, n, dPartials);"),
            launch(
                "blockSum",
                "static_cast<unsigned>(blocks), kBlock)(dX, n, dPartials);"
            )
        );
    }

    #[test]
    fn reads_qualified_and_templated_kernel_names() {
        assert_eq!(body("ns::k<<<1, 2>>>();"), launch("ns::k", "1, 2)();"));
        assert_eq!(body("::k<<<1, 2>>>();"), launch("::k", "1, 2)();"));
        assert_eq!(body("a::b::k<<<1, 2>>>();"), launch("a::b::k", "1, 2)();"));
        assert_eq!(
            body("k<float, 4><<<1, 2>>>(p);"),
            launch("k<float, 4>", "1, 2)(p);")
        );
        assert_eq!(
            body("f(); k<T><<<1, 2>>>(p);"),
            format!("f(); {}", launch("k<T>", "1, 2)(p);"))
        );
        assert_eq!(
            body("ns::k<std::pair<int, int>, (N > 2)><<<1, 2>>>();"),
            launch("ns::k<std::pair<int, int>, (N > 2)>", "1, 2)();")
        );
        assert_eq!(
            body("outer<A>::k<B><<<1, 2>>>();"),
            launch("outer<A>::k<B>", "1, 2)();")
        );
        assert_eq!(body("(*fp)<<<1, 2>>>();"), launch("(*fp)", "1, 2)();"));
        assert_eq!(
            body("if (x) k<<<1, 2>>>();"),
            format!("if (x) {}", launch("k", "1, 2)();"))
        );
    }

    #[test]
    fn reads_configurations_with_nested_brackets() {
        assert_eq!(
            body("k<<<dim3((n + 255) / 256, f(a, b)), dim3{16, 16}, s[i]>>>(x);"),
            launch(
                "k",
                "dim3((n + 255) / 256, f(a, b)), dim3{16, 16}, s[i])(x);"
            )
        );
        assert_eq!(
            body("k<<<(n >> 8), std::max<int>(1, m), sizeof(std::vector<std::vector<int>>)>>>(x);"),
            launch(
                "k",
                "(n >> 8), std::max<int>(1, m), sizeof(std::vector<std::vector<int>>))(x);"
            )
        );
        assert_eq!(
            body("k<<<n >> 8, 256>>>(x);"),
            launch("k", "n >> 8, 256)(x);")
        );
        assert_eq!(body("k<<<a<b, c>>>(x);"), launch("k", "a<b, c)(x);"));
    }

    #[test]
    fn keeps_lines_of_a_launch_split_across_lines() {
        let source = "int a;\nk<<<\n  grid,\n  block\n>>>(\n  x);\nint b;\n";
        let out = body(source);
        assert_eq!(out.lines().count(), source.lines().count());
        assert_eq!(
            out,
            format!(
                "int a;\n{}\n  grid,\n  block\n)(\n  x);\nint b;\n",
                launch("k", "")
            )
        );
    }

    #[test]
    fn keeps_lines_of_a_kernel_name_split_across_lines() {
        let source = "k<float,\n  4><<<1, 2>>>(x);\nint b;\n";
        assert_eq!(
            body(source),
            format!("{}\n1, 2)(x);\nint b;\n", launch("k<float, 4>", ""))
        );
        // In a macro body the line break is spliced so the macro goes on.
        let source = "#define RUN k \\\n  <<<1, 2>>>(x)\nint b;\n";
        assert_eq!(
            body(source),
            format!("#define RUN {}\\\n1, 2)(x)\nint b;\n", launch("k", ""))
        );
    }

    #[test]
    fn counts_launches() {
        let rewritten = rewrite(Path::new(PATH), "a<<<1,1>>>(); b<<<1,1>>>();").unwrap();
        assert_eq!(rewritten.launches, 2);
    }

    #[test]
    fn leaves_launch_lookalikes_in_comments_strings_and_characters() {
        let source = concat!(
            "// k<<<1, 1>>>();\n",
            "/* k<<<1, 1>>>();\n   still a comment */\n",
            "const char* s = \"k<<<1, 1>>>()\";\n",
            "const char* r = R\"x(k<<<1, 1>>>() \" )\" )x\";\n",
            "char c = '<'; char d = '\\''; char e = '\"';\n",
            "const char* t = u8\"<<<\";\n",
            "int big = 1'000'000;\n",
        );
        assert_eq!(body(source), source);
    }

    #[test]
    fn leaves_shifts_and_nested_templates_alone() {
        let source = concat!(
            "int a = x << 2; int b = x >> 2; std::cout << v << '\\n';\n",
            "std::vector<std::vector<int>> vv; std::map<int, std::vector<std::vector<int>>> m;\n",
            "template <class T> bool operator<(const T&, const T&);\n",
            "friend std::ostream& operator<<<T>(std::ostream&, const V<T>&);\n",
        );
        assert_eq!(body(source), source);
    }

    #[test]
    fn rewrites_a_launch_in_a_macro_body() {
        assert_eq!(
            body("#define RUN(k, n) k<<<n, 256>>>(x)\nRUN(f, 4);\n"),
            format!(
                "#define RUN(k, n) {}\nRUN(f, 4);\n",
                launch("k", "n, 256)(x)")
            )
        );
    }

    #[test]
    fn notes_device_calls_of_math_functions_that_differ_from_the_gpu() {
        let source = "#define SIG(x) (1 / (1 + tgammaf(-(x))))\n\
                      struct V { __device__ float expf(float x) const { return x; } };\n\
                      __device__ float act(float x) { return lgammaf(x) + sqrtf(x) + v.sinf(x); }\n\
                      __host__ __device__ float both(float x) { return std::lgamma(x) + ns::logf(x); }\n\
                      __global__ void k(float* o) { o[0] = ::lgammaf(o[1]) + __sinf(o[2]) + __tanf(o[3]) + __logf(o[4]); }\n\
                      int main() { return (int)cosf(1.0f); }\n";
        let uses = rewrite(Path::new(PATH), source).unwrap().math_uses;
        let seen: Vec<(u32, u32, &str, bool)> = uses
            .iter()
            .map(|u| (u.line, u.column, u.function.as_str(), u.in_macro))
            .collect();
        // Not the member `v.sinf`, `ns::logf`, the exact `sqrtf`, `__sinf`
        // and `__logf` (from the measured tables), a second `lgammaf`, or
        // host code's `cosf`.
        assert_eq!(
            seen,
            [
                (1, 26, "tgammaf", true),
                (3, 40, "lgammaf", false),
                (4, 55, "lgamma", false),
                (5, 71, "__tanf", false),
            ]
        );
        assert!(uses[0].figure.contains("2^32 floats"), "{}", uses[0].figure);
    }

    #[test]
    fn device_code_calls_cuda_s_own_logf_and_log() {
        let source = "__device__ float f(float x) { return logf(x) + std::log(x) + ::log(2.0) + v.log(x); }\n\
                      #define LG(x) logf(x)\n\
                      __global__ void k(float* o) { o[0] = log(o[1]) + LG(o[2]) + ns::logf(o[3]); }\n\
                      int main() { return (int)logf(1.0f); }\n";
        let out = rewrite(Path::new(PATH), source).unwrap();
        let text = out.cpp.as_str();
        // In __device__ and __global__ functions, with the qualifier that
        // came with the name; not a member, another namespace's function
        // or host code.
        assert!(
            text.contains(
                "return ::cuda_emu::math::cuda_logf(x) + ::cuda_emu::math::device_log(x) + \
                 ::cuda_emu::math::device_log(2.0) + v.log(x); }"
            ),
            "{text}"
        );
        assert!(
            text.contains("o[0] = ::cuda_emu::math::device_log(o[1]) + LG(o[2]) + ns::logf(o[3]);"),
            "{text}"
        );
        assert!(text.contains("return (int)logf(1.0f);"), "{text}");
        // A macro body, which host code may use too, asks as it runs.
        assert!(
            text.contains(&format!(
                "#define LG(x) {}(x)\n",
                host_or_device_call("logf", "::cuda_emu::math::cuda_logf")
            )),
            "{text}"
        );
        assert!(out.math_uses.is_empty(), "{:?}", out.math_uses.len());
    }

    #[test]
    fn math_in_unevaluated_operands_is_left_alone() {
        // C++17 allows no lambda in decltype or sizeof: a __host__
        // __device__ function without a device copy and a macro used there
        // keep the C library's name (a macro used so, with its warning).
        let source = "#define LOWER(a, b) fminf(a, b)\n\
                      #define LG(x) logf(x)\n\
                      __host__ __device__ float once(float x) { static int n; decltype(fminf(x, 1.0f)) y = LOWER(x, 2.0f); return y + sizeof(logf(x)); }\n\
                      __global__ void k(float* o) { o[0] = sizeof(LOWER(o[1], o[2])) + LG(o[3]); }\n";
        let out = rewrite(Path::new(PATH), source).unwrap();
        let text = out.cpp.as_str();
        assert!(text.contains("#define LOWER(a, b) fminf(a, b)\n"), "{text}");
        assert!(
            text.contains(&format!(
                "#define LG(x) {}(x)\n",
                host_or_device_call("logf", "::cuda_emu::math::cuda_logf")
            )),
            "{text}"
        );
        assert!(
            text.contains("static int n; decltype(fminf(x, 1.0f)) y = LOWER(x, 2.0f); return y + sizeof(logf(x)); }"),
            "{text}"
        );
        // LOWER keeps the C library's fminf where device code uses it too:
        // said, with what differs (nothing is said of the calls in decltype
        // and sizeof, which compute nothing).
        let warned: Vec<(u32, &str, bool)> = out
            .math_uses
            .iter()
            .map(|u| (u.line, u.function.as_str(), u.in_macro))
            .collect();
        assert_eq!(warned, [(1, "fminf", true)]);
        assert!(
            out.math_uses[0]
                .figure
                .contains("signs of zeros and which NaN comes out (tests/cuda/math_fminmax.cu)"),
            "{:?}",
            out.math_uses
        );
    }

    #[test]
    fn host_device_functions_call_cuda_s_own_math_in_device_code_only() {
        // The device copy of a __host__ __device__ function calls CUDA's
        // logf and the GPU's fminf, its body (now the host's) the C
        // library's; a function without a copy (a static local) asks as it
        // runs; a constexpr function keeps the C library's, and its warning.
        let source = "__host__ __device__ float both(float x) { return std::logf(x) + fminf(x, 1.0f); }\n\
                      __host__ __device__ float once(float x) { static int n; return logf(x); }\n\
                      constexpr __host__ __device__ float folded(float x) { return logf(x) + fmaxf(x, 0.0f); }\n";
        let out = rewrite(Path::new(PATH), source).unwrap();
        let text = out.cpp.as_str();
        assert!(
            text.contains(
                "{ return ::cuda_emu::math::cuda_logf(x) + ::cuda_emu::math::gpu_fminf(x, 1.0f); }();  \
                 return std::logf(x) + fminf(x, 1.0f); }"
            ),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "static int n; return {}(x); }}",
                host_or_device_call("logf", "::cuda_emu::math::cuda_logf")
            )),
            "{text}"
        );
        assert!(
            text.contains("{ return logf(x) + fmaxf(x, 0.0f); }"),
            "{text}"
        );
        let warned: Vec<(u32, &str)> = out
            .math_uses
            .iter()
            .map(|u| (u.line, u.function.as_str()))
            .collect();
        assert_eq!(warned, [(3, "logf"), (3, "fmaxf")]);
    }

    #[test]
    fn an_overloaded_call_in_device_code_gets_the_shims_overload_set_and_is_remembered() {
        let source = "__device__ float f(float x) { return sin(x) + std::exp2(x) + cos(x); }\n\
                      int main() { return (int)sin(1.0); }\n";
        let out = rewrite(Path::new(PATH), source).unwrap();
        assert!(
            out.cpp.contains(
                "return ::cuda_emu::math::device_sin(x) + ::cuda_emu::math::device_exp2(x) + \
                 ::cuda_emu::math::device_cos(x); }"
            ),
            "{}",
            out.cpp
        );
        assert!(out.cpp.contains("return (int)sin(1.0);"), "{}", out.cpp);
        // Which overload each takes is the compiler's to say (the build
        // warns from its messages, math::OverloadUse): the rewriter only
        // remembers where each call was written, and warns for host code's.
        let calls: Vec<(u32, u32, &str)> = out
            .overload_calls
            .iter()
            .map(|c| (c.line, c.column, c.function.as_str()))
            .collect();
        assert_eq!(calls, [(1, 38, "sin"), (1, 52, "exp2"), (1, 62, "cos")]);
        for call in &out.overload_calls {
            let name = format!("::cuda_emu::math::device_{}(", call.function);
            assert!(reported(&out.cpp, call).ends_with(&name), "{call:?}");
        }
        let warned: Vec<&str> = out.math_uses.iter().map(|u| u.function.as_str()).collect();
        assert!(warned.is_empty(), "{warned:?}");
    }

    /// The rewritten text up to where the compiler reports `call`: its
    /// line (after the prelude's two) up to its column.
    fn reported<'t>(cpp: &'t str, call: &OverloadCall) -> &'t str {
        let line = cpp.lines().nth(call.reported_line as usize + 1).unwrap();
        &line[..call.reported_column as usize]
    }

    #[test]
    fn overloaded_calls_in_host_device_functions_and_macros_are_cuda_s_own_in_device_code() {
        // sin(x) of a float is CUDA's own in device code: the device copy of
        // a __host__ __device__ function calls the shim's overload set, a
        // function without a copy and a macro ask as they run. The compiler
        // says which overload each call took, reporting a copy's on the
        // `{`'s line: each call is remembered where it was written and
        // where the compiler will report it (its `(`).
        let source = "#define WAVE(x) (2 * sin(x))\n\
                      __host__ __device__ float both(float x, double d) {\n\
                      \x20 return sin(x) + (float)std::cos(d) + sin(d); }\n\
                      __host__ __device__ float once(float x) { static int n; return atan2(x, 1.0f); }\n\
                      __device__ float dev(double d) { return WAVE(d) + sin(d); }\n";
        let out = rewrite(Path::new(PATH), source).unwrap();
        let text = out.cpp.as_str();
        assert!(
            text.contains(
                "{ return ::cuda_emu::math::device_sin(x) + (float)::cuda_emu::math::device_cos(d) \
                 + ::cuda_emu::math::device_sin(d); }();"
            ),
            "{text}"
        );
        assert!(
            text.contains("\n  return sin(x) + (float)std::cos(d) + sin(d); }\n"),
            "the host's body: {text}"
        );
        assert!(
            text.contains(&format!(
                "#define WAVE(x) (2 * {}(x))\n",
                host_or_device_call("sin", "::cuda_emu::math::device_sin")
            )),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "static int n; return {}(x, 1.0f); }}",
                host_or_device_call("atan2", "::cuda_emu::math::device_atan2")
            )),
            "{text}"
        );
        let calls: Vec<(u32, u32, &str, u32)> = out
            .overload_calls
            .iter()
            .map(|c| (c.line, c.column, c.function.as_str(), c.reported_line))
            .collect();
        assert_eq!(
            calls,
            [
                (1, 22, "sin", 1),
                (5, 51, "sin", 5),
                (3, 10, "sin", 2),
                (3, 31, "cos", 2),
                (3, 40, "sin", 2),
                (4, 64, "atan2", 4),
            ]
        );
        for call in &out.overload_calls {
            let name = format!("::cuda_emu::math::device_{}(", call.function);
            assert!(reported(text, call).ends_with(&name), "{call:?}: {text}");
        }
        // The two sins of the copy are told apart by their columns.
        assert!(out.overload_calls[2].reported_column < out.overload_calls[4].reported_column);
        assert!(out.math_uses.is_empty(), "{:?}", out.math_uses);
    }

    #[test]
    fn rewrites_a_launch_of_a_kernel_name_pasted_in_a_macro() {
        let out = body("#define RUN(name) k_##name<<<1, 32>>>(x)\nRUN(expf);\n");
        assert!(
            out.contains("{ k_##name(cuda_emu_args_...); }"),
            "the pasted name is called whole: {out}"
        );
        assert!(!out.contains("k_##::"), "{out}");
    }

    #[test]
    fn reads_launches_spelled_with_spaces_between_the_chevrons() {
        // clang-format writes `<< <` and `>> >`; nvcc accepts them.
        assert_eq!(
            body("k<< <g, b >> >(x);\n"),
            format!("{}g, b )(x);\n", launch("k", ""))
        );
        assert_eq!(
            body("k<<<g, b >> >(x);\n"),
            format!("{}g, b )(x);\n", launch("k", ""))
        );
        assert_eq!(
            body("#define RUN(k) k<< <1, 2 >> >(y)\n"),
            format!("#define RUN(k) {}1, 2 )(y)\n", launch("k", ""))
        );
        // A shift inside the configuration is not its end.
        assert_eq!(
            body("k<< <n >> 1, 32 >> >(x);\n"),
            format!("{}n >> 1, 32 )(x);\n", launch("k", ""))
        );
    }

    #[test]
    fn leaves_spaced_operator_templates_and_shifts_alone() {
        for source in [
            "os = operator<< <T>(os, v);\n",
            "int a = b << c;\n",
            "int a = b < < c;\n",
        ] {
            assert_eq!(body(source), source);
        }
    }

    #[test]
    fn leaves_include_lines_alone_and_records_local_headers() {
        let source = "#include <vector>\n#include \"common.cuh\"\n  #  include \"b.h\"\n";
        let rewritten = rewrite(Path::new(PATH), source).unwrap();
        assert!(rewritten.cpp.ends_with(source));
        assert_eq!(rewritten.local_includes, vec!["common.cuh", "b.h"]);
    }

    #[test]
    fn refuses_launches_it_cannot_read() {
        for (source, reason) in [
            ("x = <<<1, 1>>>();", "no kernel name before `<<<`"),
            ("k<<<1, 1();\n", "no `>>>` closes this `<<<`"),
            ("k<<<>>>();", "the launch configuration is empty"),
            ("k<<<1, 1>>>;", "no argument list `(...)` after `>>>`"),
        ] {
            match rewrite(Path::new(PATH), source) {
                Err(RewriteError::MalformedLaunch {
                    reason: got,
                    line: 1,
                    ..
                }) => {
                    assert_eq!(got, reason, "{source}")
                }
                other => panic!("{source}: {other:?}"),
            }
        }
    }

    #[test]
    fn rewrites_dynamic_shared_memory() {
        let expected =
            "float* const s = reinterpret_cast<float*>(::cuda_emu::dynamic_shared_memory());";
        for declaration in [
            "extern __shared__ float s[];",
            "extern __shared__ alignas(16) float s[];",
            "extern __shared__ __align__(16) float s[];",
            "alignas(16) extern __shared__ float s[];",
            "__shared__ extern float s[];",
            "extern __shared__ float s[] __align__(8);",
        ] {
            let source = format!("__global__ void k() {{ {declaration} s[0] = 1; }}");
            assert_eq!(
                body(&source),
                format!("__global__ void k() {{ {expected} s[0] = 1; }}"),
                "{declaration}"
            );
        }
        assert_eq!(
            body("void f() { extern __shared__ unsigned char raw[], more[]; }"),
            "void f() { unsigned char* const raw = reinterpret_cast<unsigned char*>(::cuda_emu::dynamic_shared_memory()); \
             unsigned char* const more = reinterpret_cast<unsigned char*>(::cuda_emu::dynamic_shared_memory()); }"
        );
        assert_eq!(
            body("template <class T> __global__ void k() { extern __shared__ volatile T s[]; }"),
            "template <class T> __global__ void k() { volatile T* const s = reinterpret_cast<volatile T*>(::cuda_emu::dynamic_shared_memory()); }"
        );
    }

    #[test]
    fn rewrites_dynamic_shared_memory_in_a_macro_body() {
        // cuda-samples' cudasharedmem.h makes SharedMemory<T> with a macro.
        let source = "#define SHARED(t, n) template <> struct S<t> { \\\n  __device__ t& get() { extern __shared__ t n[]; return *n; } \\\n }\nSHARED(float, s_float);\n";
        let out = body(source);
        assert!(
            out.contains("{ t* const n = reinterpret_cast<t*>(::cuda_emu::dynamic_shared_memory()); return *n; } \\\n }"),
            "{out}"
        );
        assert_eq!(out.lines().count(), source.lines().count());
        // Across lines of the body, the lines keep their backslashes.
        let split =
            body("#define D(t) __device__ t* f() { extern __shared__ \\\n t s[]; return s; }\n");
        assert!(split.contains("; \\\n return s; }"), "{split}");
        // Outside a function of the body, or past the directive's end, it is left alone.
        assert!(
            body("#define E extern __shared__ float s[]\nE;\n")
                .contains("extern __shared__ float s[]")
        );
    }

    #[test]
    fn rewrites_dynamic_shared_memory_at_namespace_scope() {
        let out = body("extern __shared__ float s[];\n__global__ void k() { s[1] = s[0]; }\n");
        assert!(
            out.starts_with("struct { template <class I> float& operator[](I i) const "),
            "{out}"
        );
        assert!(out.contains("operator float*() const"), "{out}");
        assert!(
            out.ends_with(" const s{};\n__global__ void k() { s[1] = s[0]; }\n"),
            "{out}"
        );
        assert!(body("namespace a { extern __shared__ int s[]; }").contains(" const s{}; }"));
    }

    #[test]
    fn keeps_lines_of_a_shared_declaration_split_across_lines() {
        let source = "__global__ void k() {\n  extern __shared__\n    float s[];\n  s[0] = 1;\n}\n";
        let out = body(source);
        assert_eq!(out.lines().count(), source.lines().count());
        assert_eq!(out.lines().nth(3), Some("  s[0] = 1;"));
    }

    #[test]
    fn leaves_other_externs_and_static_shared_arrays_alone() {
        let source = "extern int n; extern \"C\" { void f(); }\n__global__ void k() { __shared__ float t[256]; }\n";
        assert_eq!(body(source), source);
    }

    #[test]
    fn refuses_shared_declarations_it_cannot_rewrite() {
        for source in [
            "void f() { extern __shared__ float s[4]; }",
            "void f() { extern __shared__ s[]; }",
        ] {
            assert!(
                matches!(
                    rewrite(Path::new(PATH), source),
                    Err(RewriteError::MalformedSharedDeclaration { .. })
                ),
                "{source}"
            );
        }
    }

    #[test]
    fn puts_alignas_before_shared() {
        let out = body(
            "__global__ void k() {\n  __shared__ alignas(alignof(float4)) alignas(8) float a[4][4];\n  __shared__ __align__(16) float b[4];\n}\n",
        );
        assert!(
            out.contains("alignas(alignof(float4)) alignas(8) __shared__ float a[4][4];"),
            "{out}"
        );
        assert!(
            out.contains("__shared__ __align__(16) float b[4];"),
            "{out}"
        );
        let dynamic = body("__global__ void k() { __shared__ alignas(16) extern float s[]; }");
        assert!(!dynamic.contains("alignas(16) __shared__"), "{dynamic}");
    }

    #[test]
    fn spells_out_noinline_but_not_inside_an_attribute() {
        let out =
            body("__noinline__ __device__ int f();\n__attribute__((__noinline__)) int g();\n");
        assert!(
            out.contains("__attribute__((noinline)) __device__ int f();"),
            "{out}"
        );
        assert!(
            out.contains("__attribute__((__noinline__)) int g();"),
            "{out}"
        );
    }

    #[test]
    fn translates_the_inline_ptx_subset_and_refuses_the_rest() {
        let laneid = body("asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));");
        assert!(
            laneid.starts_with("[&]() { auto& cuda_emu_op0 = (lane); "),
            "{laneid}"
        );
        assert!(laneid.contains("::cuda_emu::sreg_laneid()"), "{laneid}");
        let mad = body("asm(\"mad.lo.s32 %0, %1, %2, 7;\"\n : \"=r\"(d) : \"r\"(a), \"r\"(b));");
        assert!(mad.contains("const auto cuda_emu_op2 = (b);"), "{mad}");
        assert!(mad.ends_with("}()\n;"), "{mad}");
        // A compiler barrier does nothing here.
        assert_eq!(body("asm volatile(\"\" ::: \"memory\");"), "[&]() { }();");
        assert_eq!(
            refusal(
                "__device__ float f() {\n  float r; asm(\"tanh.approx.f64 %0, %0;\" : \"+f\"(r));\n}"
            ),
            (
                2,
                12,
                UnsupportedFeature::InlineAssemblyInstruction("tanh.approx.f64".into())
            )
        );
        assert_eq!(
            refusal("asm(\"mov.u32 %0, %%pm0;\" : \"=r\"(r));").2,
            UnsupportedFeature::InlineAssemblyInstruction("%pm0".into())
        );
        assert_eq!(
            refusal("asm(\"mov.b16 %0, %1;\" : \"=c\"(r) : \"c\"(x));").2,
            UnsupportedFeature::InlineAssemblyInstruction("constraint \"=c\"".into())
        );
        assert_eq!(refusal("  __asm__(\"exit;\");").1, 3);
        let trap = body("asm volatile(\"trap;\");");
        assert!(
            trap.contains("::cuda_emu::trap(__FILE__, __LINE__, "),
            "{trap}"
        );
        let float =
            body("asm(\"fma.rn.f32 %0, %1, %2, %3;\" : \"=f\"(d) : \"f\"(a), \"f\"(b), \"f\"(c));");
        assert!(float.contains("__fmaf_rn("), "{float}");
    }

    #[test]
    fn passes_cooperative_groups_and_clusters_but_refuses_multi_grid_groups() {
        let source = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\nauto c = cg::this_cluster();\ncg::cluster_group g;\nint a = cudaLaunchAttributeClusterDimension;\n";
        assert_eq!(body(source), source);
        assert_eq!(
            refusal("namespace cg = cooperative_groups;\nauto g = cg::this_multi_grid();"),
            (
                2,
                14,
                UnsupportedFeature::CooperativeGroups("this_multi_grid".into())
            )
        );
        assert_eq!(
            refusal("cudaLaunchCooperativeKernelMultiDevice(p, 2);").2,
            UnsupportedFeature::CooperativeLaunch
        );
    }

    #[test]
    fn registers_cluster_dims_after_the_kernel_and_keeps_lines() {
        let registration = |at: usize, name: &str, shape: &str| {
            format!(
                " static const bool cuda_emu_cluster_dims_{at} = ::cuda_emu::register_cluster_dims(\"{name}\", reinterpret_cast<const void*>(&{name}), {shape});"
            )
        };
        // A definition: the registration follows its closing brace.
        assert_eq!(
            body("__global__ void __cluster_dims__(2, 1, 1) k(int* p) { p[0] = 1; }\n"),
            format!(
                "__global__ void  k(int* p) {{ p[0] = 1; }}{}\n",
                registration(2, "k", "2, 1, 1")
            )
        );
        // A declaration, the attribute split across lines, in a namespace.
        assert_eq!(
            body("namespace n {\n__global__ __cluster_dims__(4,\n 2) void k2(float);\n}\n"),
            format!(
                "namespace n {{\n__global__ \n void k2(float);{}\n}}\n",
                registration(4, "k2", "4,  2")
            )
        );
        assert_eq!(
            refusal("template <int N>\n__global__ void __cluster_dims__(N, 1, 1) k() {}").2,
            UnsupportedFeature::CooperativeGroups("__cluster_dims__ on a template kernel".into())
        );
        assert_eq!(
            refusal("__global__ void __cluster_dims__ k() {}").2,
            UnsupportedFeature::CooperativeGroups("__cluster_dims__ without its shape".into())
        );
        assert_eq!(
            refusal("int x = __cluster_dims__(2, 1, 1);").2,
            UnsupportedFeature::CooperativeGroups(
                "__cluster_dims__ with no kernel name after it".into()
            )
        );
    }

    #[test]
    fn an_extern_c_kernel_body_is_a_function_body() {
        assert_eq!(
            body("extern \"C\" __global__ void k() { extern double __shared__ s[]; }"),
            "extern \"C\" __global__ void k() { double* const s = reinterpret_cast<double*>(::cuda_emu::dynamic_shared_memory()); }"
        );
    }

    #[test]
    fn notes_volatile_and_shared_but_not_asm_volatile() {
        let uses = |source: &str| rewrite(Path::new(PATH), source).unwrap().lock_step;
        assert!(uses("__device__ void f(volatile int* s) { s[0] += s[1]; }"));
        assert!(uses(
            "__global__ void k() { __shared__ int s[4]; s[0] = 1; }"
        ));
        assert!(uses(
            "__global__ void k() { extern __shared__ int s[]; s[0] = 1; }"
        ));
        assert!(!uses(
            "__global__ void k(int* p) { p[0] = 1; } // __shared__\n"
        ));
        assert!(!uses(
            "__device__ void f() { asm volatile(\"\" ::: \"memory\"); }"
        ));
        assert!(!uses("int x; // volatile\n"));
        // Inline PTX that accesses memory as volatile code does.
        assert!(uses(
            "__device__ int f(int* p) { int v; asm volatile(\"ld.volatile.global.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); return v; }"
        ));
        assert!(!uses(
            "__device__ int f(int* p) { int v; asm(\"ld.global.nc.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); return v; }"
        ));
    }

    #[test]
    fn notes_barriers_apart_from_shared_memory() {
        let notes = |source: &str| {
            let rewritten = rewrite(Path::new(PATH), source).unwrap();
            (rewritten.lock_step, rewritten.synchronizes)
        };
        for barrier in [
            "__syncthreads()",
            "__syncthreads_count(1)",
            "__syncthreads_and(1)",
            "__syncthreads_or(1)",
            "__syncwarp()",
        ] {
            assert_eq!(
                notes(&format!(
                    "__global__ void k(int* p) {{ p[0] = 1; {barrier}; }}"
                )),
                (false, true),
                "{barrier}"
            );
        }
        assert_eq!(
            notes("__global__ void k(int* p) { p[0] = 1; } // __syncthreads()\n"),
            (false, false)
        );
        assert_eq!(
            notes("__global__ void k() { __shared__ int s; s = 1; __syncthreads(); }"),
            (true, true)
        );
    }

    #[test]
    fn drops_the_void_pointer_cast_of_a_cooperative_launch() {
        assert_eq!(
            body("cudaLaunchCooperativeKernel((void*)k, g, b, args);"),
            "cudaLaunchCooperativeKernel(::cuda_emu::named_kernel(\"k\", k), g, b, args);"
        );
        assert_eq!(
            body("cudaLaunchCooperativeKernel((const void *)ns::k<int, 2>, g, b, a, 0, s);"),
            "cudaLaunchCooperativeKernel(::cuda_emu::named_kernel(\"ns::k<int, 2>\", ns::k<int, 2>), g, b, a, 0, s);"
        );
        assert_eq!(
            body("cudaLaunchCooperativeKernel(k, g, b, args);"),
            "cudaLaunchCooperativeKernel(::cuda_emu::named_kernel(\"k\", k), g, b, args);"
        );
        // Not a plain name: only the cast goes.
        assert_eq!(
            body("cudaLaunchCooperativeKernel((void*)pick(1), g, b, args);"),
            "cudaLaunchCooperativeKernel(pick(1), g, b, args);"
        );
    }

    #[test]
    fn names_the_kernel_of_a_graph_kernel_node() {
        assert_eq!(
            body("p.func = (void *)reduce;"),
            "p.func = ::cuda_emu::named_kernel(\"reduce\", reduce);"
        );
        assert_eq!(
            body("q->func = (const void*)ns::k<int, 2>;"),
            "q->func = ::cuda_emu::named_kernel(\"ns::k<int, 2>\", ns::k<int, 2>);"
        );
        assert_eq!(
            body("P p = {.func = (void*)k, .gridDim = g};"),
            "P p = {.func = ::cuda_emu::named_kernel(\"k\", k), .gridDim = g};"
        );
        // Not a plain name, no cast or another, a comparison, another member: unchanged.
        for same in [
            "p.func = k;",
            "p.func = (void*)nullptr;",
            "p.func = (void*)0;",
            "p.func = (void*)table[i];",
            "p.func = (void*)pick(1);",
            "p.func = (char*)k;",
            "if (p.func == (void*)k) {}",
            "func = (void*)k;",
            "p.fn = (void*)k;",
        ] {
            assert_eq!(body(same), same);
        }
    }

    #[test]
    fn passes_warp_functions_to_the_shim() {
        // The shim emulates shuffles, votes, matches and reductions in lock
        // step; the rewriter leaves them alone.
        let source = "v = __shfl_down_sync(~0u, v, 1); m = __match_any_sync(~0u, v); \
                      r = __reduce_add_sync(~0u, v); __nanosleep(100);";
        assert_eq!(body(source), source);
    }

    #[test]
    fn refuses_texture_references() {
        for (source, name) in [
            ("texture<float, 1> tex;", "texture"),
            ("surface<void, 2> surf;", "surface"),
            ("cudaBindTexture(0, tex, p, n);", "cudaBindTexture"),
            ("cudaUnbindTexture(tex);", "cudaUnbindTexture"),
            ("float v = tex1Dfetch(tex, i);", "tex1Dfetch"),
            ("float v = tex2D(tex, f(x, 1), y);", "tex2D"),
            ("float v = tex2DLayered(tex, x, y, l);", "tex2DLayered"),
        ] {
            assert_eq!(
                refusal(source).2,
                UnsupportedFeature::TextureReference(name.to_string()),
                "{source}"
            );
        }
        // A variable that happens to be called `texture` is fine.
        body("int texture = 3; float tex2D_scale = 1;");
    }

    #[test]
    fn refuses_texture_features_the_shim_lacks() {
        for (source, name) in [
            ("float v = tex2DLod<float>(t, x, y, 1.0f);", "tex2DLod"),
            (
                "float v = texCubemapLod<float>(t, x, y, z, 0.f);",
                "texCubemapLod",
            ),
            (
                "cudaMallocMipmappedArray(&m, &d, e, 4);",
                "cudaMallocMipmappedArray",
            ),
            (
                "float v = tex2DLayeredGrad<float>(t, x, y, l, dx, dy);",
                "tex2DLayeredGrad",
            ),
            ("surfCubemapwrite(v, s, x, y, f);", "surfCubemapwrite"),
        ] {
            assert_eq!(
                refusal(source).2,
                UnsupportedFeature::TextureOrSurface(name.to_string()),
                "{source}"
            );
        }
        // A program's own names that only begin like CUDA's (HeCBench's debayer
        // has a macro `tex2D_at`) are its own.
        let own = "#define tex2D_at(t, b, r, c) at(b, r, c)\nfloat v = tex2D_at(float, img, r, c);\n\
                   float w = tex3Dsample(p, 1);\n";
        assert_eq!(body(own), own);
    }

    #[test]
    fn passes_texture_and_surface_objects_through() {
        let source = "cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &d, nullptr);\n\
                      float a = tex1Dfetch<float>(t, i); float b = tex2D<float>(t, x, y);\n\
                      tex2D(&b, t, x, y); tex1Dfetch(&a, t, i);\n\
                      float c = tex2DLayered<float>(t, x, y, l);\n\
                      c = texCubemap<float>(t, x, y, z); c = texCubemapLayered<float>(t, x, y, z, l);\n\
                      float4 g = tex2Dgather<float4>(t, x, y, 1); tex2Dgather(&g, t, x, y);\n\
                      surf2Dwrite(v, s, x * 4, y); surf2Dread(&v, s, x, y, cudaBoundaryModeZero);\n\
                      v = surf3Dread<float>(s, x, y, z);\n";
        assert_eq!(body(source), source);
    }

    #[test]
    fn refuses_launches_in_device_code() {
        let source = "__global__ void child() {}\n\
                      __global__ void parent() {\n  if (true) {\n    child<<<1, 1>>>();\n  }\n}\n";
        assert_eq!(
            refusal(source),
            (4, 10, UnsupportedFeature::DynamicParallelism)
        );
        let device_function = "template <class T>\n__device__ void f(T x) { k<<<1, 1>>>(); }";
        assert_eq!(
            refusal(device_function).2,
            UnsupportedFeature::DynamicParallelism
        );
        let device_lambda = "void h() { auto l = [] __device__ () { k<<<1, 1>>>(); }; }";
        assert_eq!(
            refusal(device_lambda).2,
            UnsupportedFeature::DynamicParallelism
        );
    }

    #[test]
    fn device_code_takes_the_device_passs_cuda_arch_branch() {
        let rewritten = |source: &str| rewrite(Path::new(PATH), source).unwrap().cpp;
        let kernel =
            "__global__ void k(int* x) {\n#if __CUDA_ARCH__ >= 700\n  x[0] = 1;\n#endif\n}\n";
        assert!(rewritten(kernel).contains("#if 900 >= 700\n"));
        let device = "__device__ int f() {\n#ifdef __CUDA_ARCH__\n  return 1;\n#elif !defined(__CUDA_ARCH__) || defined __CUDA_ARCH__\n  return 0;\n#endif\n}\n";
        let out = rewritten(device);
        assert!(out.contains("#if 1\n"), "{out}");
        assert!(out.contains("#elif !1 || 1\n"), "{out}");
        let clocks = "__global__ void k(long* t) { t[0] = clock(); t[1] = s.clock(); }\nint main() { return clock(); }\n";
        let out = rewritten(clocks);
        assert!(
            out.contains("t[0] = ::cuda_emu::device_clock(); t[1] = s.clock();"),
            "{out}"
        );
        assert!(out.contains("int main() { return clock(); }"), "{out}");
        let not = "__device__ int f() {\n#ifndef __CUDA_ARCH__\n  return 1;\n#endif\n return __CUDA_ARCH__; }\n";
        assert!(rewritten(not).contains("#if 0\n"));
        assert!(rewritten(not).contains("return 900; }"));
        // A file-scope group holding device code is read as the device pass
        // reads it, whatever its nesting.
        let file_scope =
            "#if __CUDA_ARCH__ >= 700\n#ifdef X\n#endif\n__device__ int g();\n#endif\n";
        assert!(rewritten(file_scope).contains("\n#if 900 >= 700\n"));
        // File-scope macros and host code keep the host pass's reading, where
        // `__CUDA_ARCH__` is undefined; so do host functions.
        let host = "#ifdef __CUDA_ARCH__\n#define D __device__\nint a;\n#endif\nint main() {\n#if defined(__CUDA_ARCH__)\n  return 1;\n#endif\n}\n";
        assert!(rewritten(host).ends_with(host));
        let other = "__global__ void k() {\n#if FOO > 1\n#endif\n}\n";
        assert!(rewritten(other).ends_with(other));
    }

    #[test]
    fn host_device_functions_check_their_cuda_arch_test_at_run_time() {
        let both = "__host__ __device__ int f() {\n  {\n#ifdef __CUDA_ARCH__\n  return 1;\n#endif\n#if __CUDA_ARCH__ > 1\n#endif\n  }\n  return 0;\n}\n";
        let out = rewrite(Path::new(PATH), both).unwrap().cpp;
        // One check, on the `{` line (lines unchanged), naming the first test.
        assert_eq!(out.matches("host_device_arch_test").count(), 1, "{out}");
        assert!(
            out.contains(&format!(
                "int f() {{ ::cuda_emu::host_device_arch_test({}, 3);\n",
                c_string_literal(PATH)
            )),
            "{out}"
        );
        assert!(
            out.contains("#ifdef __CUDA_ARCH__\n"),
            "the host reading stays: {out}"
        );
        let constant = "constexpr __host__ __device__ int f() {\n#ifdef __CUDA_ARCH__\n  return 1;\n#endif\n  return 0;\n}\n";
        assert_eq!(refusal(constant), (2, 8, UnsupportedFeature::CudaArchTest));
    }

    #[test]
    fn accepts_launches_in_host_code_next_to_device_code() {
        let source = concat!(
            "__global__ void k(int* x) { if (x) { x[0] = 1; } }\n",
            "struct S { __device__ int f() { return 1; } void run() { k<<<1, 1>>>(p); } int* p; };\n",
            "__host__ __device__ int both() { return 2; }\n",
            "namespace n { void h() { k<<<1, 1>>>(nullptr); } }\n",
            "int main() { for (int i = 0; i < 3; ++i) { k<<<1, 1>>>(nullptr); } }\n",
        );
        assert_eq!(rewrite(Path::new(PATH), source).unwrap().launches, 3);
    }

    #[test]
    fn refusal_columns_count_characters() {
        assert_eq!(refusal("// é\n/* ü */ asm(\"exit;\");").0, 2);
        assert_eq!(refusal("/* ü */ asm(\"exit;\");").1, 9);
    }

    #[test]
    fn escapes_the_path_in_the_line_directive() {
        let rewritten = rewrite(Path::new("dir \"q\"\\k.cu"), "").unwrap();
        assert_eq!(
            rewritten.cpp,
            "#include <cuda_runtime.h>\n#line 1 \"dir \\\"q\\\"\\\\k.cu\"\n"
        );
    }

    #[test]
    fn error_messages_name_the_place_and_the_way_out() {
        let error = rewrite(Path::new(PATH), "\n  asm(\"exit;\");").unwrap_err();
        assert_eq!(
            error.to_string(),
            "lesson/k.cu:2:3: inline PTX `exit` (the emulator translates integer and bit \
             operations, float arithmetic with a rounding modifier, the .approx functions, \
             conversions, predicates, warp shuffles and votes, loads and stores of global and \
             shared memory, cp.async, fences, barriers, trap and the special registers; see \
             the README) is not supported by the CPU emulator; run this program on a GPU with \
             `--backend gpu`"
        );
    }

    #[test]
    fn tokenizer_handles_splices_and_unterminated_text() {
        // A spliced line comment swallows the next line.
        assert_eq!(body("// a \\\nk<<<1,1>>>();\n"), "// a \\\nk<<<1,1>>>();\n");
        // Unterminated literals and comments do not panic.
        body("char c = '\n\"abc\n/* open");
        body("R\"abc");
        body("R\"x(never closed");
    }
}
