//! The CPU emulation backend: builds a whole CUDA program (host `main`
//! included) into a native executable that runs its kernels on the CPU.
//!
//! It exists so that a lesson's programs can be checked on machines without a
//! GPU: the `.cu` file is rewritten into C++, compiled by the system's C++
//! compiler against a small CUDA runtime shim, and cached so that an
//! unchanged program is never compiled twice. The executable reads the device
//! it pretends to be and its checking options from environment variables
//! ([`Emulator::environment`]); running it, and comparing what it prints, is
//! the caller's business.
//!
//! The folder, in the order a build goes through it:
//!
//! - [`rewrite`]: the `.cu` file into C++ (kernel launches, `extern
//!   __shared__`), or a refusal naming the file, line and feature;
//! - `headers`: the local headers the program includes, rewritten too;
//! - `embedded` and `shim/`: the CUDA runtime shim (headers and the runtime
//!   source) embedded in this binary, and installing it into the cache;
//! - `toolchain`: the C++ compiler, its version, and the flags chosen for
//!   agreement with nvcc;
//! - `cache`: where builds live, what keys them, and entries that appear
//!   whole or not at all;
//! - `profile`: the device the program pretends to be, and the `CUDA_EMU_*`
//!   environment the shim reads it from;
//! - `diagnostics`: a refusal the shim's headers raise, put at the program's
//!   line in the compiler's messages;
//! - this file: the [`Emulator`], which puts those together: compile the
//!   program and the runtime, link, and hand back a [`Build`].

mod cache;
mod contraction;
mod diagnostics;
mod embedded;
mod half_products;
mod headers;
mod lane_loops;
mod math;
mod profile;
mod ptx;
pub(crate) mod rewrite;
mod tables;
mod toolchain;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use thiserror::Error;

use self::cache::Entry;
pub(crate) use self::cache::default_cache_dir;
// InstallError, Fingerprint, install: also for results cached beside the
// builds (`workflow::reuse`).
pub(crate) use self::cache::{Fingerprint, InstallError, install as install_entry};
pub(crate) use self::cache::{
    clean as clean_cache, prepare as prepare_cache, stats as cache_stats,
};
pub(crate) use self::profile::DeviceProfile;

pub(crate) use self::rewrite::RewriteError;
use self::toolchain::{Compiler, compiler_messages};

/// The file of a build's cache entry that holds the calls the compiler
/// resolved to a C library overload ([`math::OverloadUse`]), one per line.
const OVERLOAD_WARNINGS: &str = "overload-warnings.txt";

/// Why a program could not be built for the emulator.
#[derive(Debug, Error)]
pub enum EmulateError {
    /// No C++ compiler: neither the one asked for nor `$CXX`, `g++`, `c++`.
    #[error(
        "no C++ compiler found for the CPU emulator (looked for {searched}); \
         install g++ or set $CXX to a C++17 compiler"
    )]
    CompilerNotFound { searched: String },
    /// The compiler exists but `--version` did not work.
    #[error("the C++ compiler {} does not run (`--version` failed: {reason}); set $CXX to a working C++17 compiler", compiler.display())]
    CompilerBroken { compiler: PathBuf, reason: String },
    /// A build with no source file.
    #[error("nothing to build: no source file")]
    NoSources,
    /// The program uses something the emulator cannot rewrite or refuses.
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
    /// The compiler rejected the program. Thanks to `#line`, `stderr` names
    /// the `.cu` file and its lines.
    #[error("compiling {} for the CPU emulator failed:\n{stderr}", source_path.display())]
    CompileFailed {
        source_path: PathBuf,
        stderr: String,
    },
    /// The compiler rejected the shim itself: a bug in mdbook-evidence or a
    /// compiler it does not support.
    #[error(
        "building the CPU emulator's runtime failed (a bug in mdbook-evidence, or a compiler \
         older than it supports); please report it with this output:\n$ {command}\n{stderr}"
    )]
    RuntimeBuildFailed { command: String, stderr: String },
    /// A table embedded in this binary (see [`tables`]) is damaged.
    #[error(
        "the CPU emulator's measured tables are damaged in this mdbook-evidence binary ({why}); \
         reinstall it"
    )]
    Tables { why: String },
    /// Reading the program or writing the cache failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl EmulateError {
    fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| Self::Io {
            action,
            path,
            source,
        }
    }
}

impl<E: Into<EmulateError>> From<InstallError<E>> for EmulateError {
    fn from(error: InstallError<E>) -> Self {
        match error {
            InstallError::Fill(error) => error.into(),
            InstallError::Io { path, source } => Self::Io {
                action: "writing the emulator cache at",
                path,
                source,
            },
        }
    }
}

/// How the emulator builds programs.
#[derive(Debug, Clone)]
pub(crate) struct EmulatorOptions {
    /// Check every global-memory access against the allocations the program
    /// made (slower; catches out-of-bounds indices). Passed to the program
    /// at run time through [`Emulator::environment`].
    pub bounds_check: bool,
    /// The C++ compiler to use; `None` means `$CXX`, else `g++`, else `c++`.
    pub compiler: Option<PathBuf>,
    /// `run --sanitize`: the CPU sanitizers to run. A sanitized program is
    /// built apart (every access instrumented, with line tables), and told
    /// what to check through [`Emulator::environment`].
    pub sanitize: Option<Sanitize>,
    /// `run --schedule`: the order a block's threads run in between
    /// barriers (`in-order`, `reverse`, `random:SEED`); `None` is in order.
    pub schedule: Option<String>,
    /// OS threads that run the blocks of a grid (`CUDA_EMU_THREADS`). 1, the
    /// default, is the deterministic mode that `build`, `verify`, `record`
    /// and `check` use: nothing a program prints then depends on the
    /// machine's cores. Passed to the program at run time.
    pub threads: usize,
}

impl Default for EmulatorOptions {
    fn default() -> Self {
        Self {
            bounds_check: true,
            compiler: None,
            sanitize: None,
            schedule: None,
            threads: 1,
        }
    }
}

/// compute-sanitizer's checks, done on the CPU (`src/emulate/shim/cuda_emu_sanitize.cpp`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sanitize {
    /// Some of `memcheck`, `racecheck`, `synccheck`, `initcheck`.
    pub tools: Vec<String>,
    /// memcheck's `--leak-check full`.
    pub leak_check: bool,
    /// compute-sanitizer's `--error-exitcode`: the exit status when any
    /// check found an error.
    pub error_exitcode: Option<i32>,
}

impl Sanitize {
    /// The four tools compute-sanitizer has.
    pub(crate) const TOOLS: [&'static str; 4] = ["memcheck", "racecheck", "synccheck", "initcheck"];

    /// `--sanitize=TOOLS` as written on a command line: comma separated,
    /// each tool once, all four for an empty list; an unknown tool is an
    /// error naming it and the tools there are.
    pub(crate) fn from_list(
        list: &str,
        leak_check: bool,
        error_exitcode: Option<i32>,
    ) -> Result<Sanitize, String> {
        let mut tools = Vec::new();
        for tool in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            if !Self::TOOLS.contains(&tool) {
                return Err(format!(
                    "--sanitize: unknown tool `{tool}` (the tools are {})",
                    Self::TOOLS.join(", ")
                ));
            }
            if !tools.iter().any(|t| t == tool) {
                tools.push(tool.to_string());
            }
        }
        if tools.is_empty() {
            tools = Self::TOOLS.iter().map(|t| t.to_string()).collect();
        }
        Ok(Sanitize {
            tools,
            leak_check,
            error_exitcode,
        })
    }
}

/// One source file of a program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SourceInput {
    /// Where it is.
    pub file: PathBuf,
    /// How `#line`, `__FILE__` and messages name it.
    pub shown: PathBuf,
    /// Whether it is CUDA (rewritten) rather than host C++ or C.
    pub cuda: bool,
}

/// What to build: the sources of a program and the flags of its nvcc line
/// that matter on the CPU (see [`crate::sources::build_line`]). Paths are
/// absolute or relative to the current directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BuildInputs {
    pub sources: Vec<SourceInput>,
    pub include_dirs: Vec<PathBuf>,
    pub system_include_dirs: Vec<PathBuf>,
    /// `-DNAME=VALUE` and `-UNAME`, in order.
    pub macros: Vec<String>,
    pub forced_includes: Vec<PathBuf>,
    /// nvcc's `-std=` value (`c++17`).
    pub std: Option<String>,
    pub libraries: Vec<String>,
    pub library_dirs: Vec<PathBuf>,
}

impl BuildInputs {
    /// One CUDA source, no flags: what a program without a `// Build:` line
    /// beyond `nvcc FILE.cu` needs.
    pub(crate) fn single(source: &Path, shown: &Path) -> BuildInputs {
        BuildInputs {
            sources: vec![SourceInput {
                file: source.to_path_buf(),
                shown: shown.to_path_buf(),
                cuda: true,
            }],
            ..BuildInputs::default()
        }
    }
}

/// A program built for the emulator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Build {
    /// The executable, inside the cache; run it with [`Emulator::environment`].
    pub executable: PathBuf,
    /// True when the executable came from the cache and no compiler ran.
    pub cached: bool,
    /// The compiler command line that builds it, for humans (run in the
    /// directory of `executable`).
    pub command: String,
    /// The first line of the compiler's `--version`.
    pub compiler_version: String,
    /// Warnings about the program for its user: calls in device code of math
    /// functions whose results differ from the GPU's (`FILE:LINE:COL: ...`),
    /// and a compiler other than the one the emulator was measured with
    /// (`toolchain::unmeasured_compiler`).
    pub warnings: Vec<String>,
}

/// Builds CUDA programs into CPU executables, with a cache.
#[derive(Debug, Clone)]
pub(crate) struct Emulator {
    root: PathBuf,
    options: EmulatorOptions,
    compiler: Compiler,
    flags: Vec<String>,
    shim_hash: String,
}

impl Emulator {
    /// An emulator that keeps its builds under `cache_dir/emulate/`. Finds
    /// the C++ compiler and asks its version now, so a missing compiler is
    /// reported before any program is read.
    pub(crate) fn new(
        cache_dir: impl Into<PathBuf>,
        options: EmulatorOptions,
    ) -> Result<Self, EmulateError> {
        let root = cache_dir.into().join("emulate");
        let compiler = toolchain::find_compiler(
            options.compiler.as_deref(),
            std::env::var_os("CXX").filter(|cxx| !cxx.is_empty()),
            std::env::var_os("PATH"),
            Some(&root.join("compilers")),
        )?;
        let flags = compiler.flags_for_this_cpu();
        Ok(Self {
            root,
            options,
            compiler,
            flags,
            shim_hash: embedded::shim_hash(),
        })
    }

    /// The flags every program is compiled with (see the module doc).
    pub(crate) fn flags(&self) -> &[String] {
        &self.flags
    }

    /// The first line of the compiler's `--version`.
    pub(crate) fn compiler_version(&self) -> &str {
        self.compiler.first_version_line()
    }

    /// Builds the CUDA program at `source` (a whole program, with `main`),
    /// or finds it already built, naming it by that same path in `#line`.
    /// Local headers it includes with `"..."` from beside it are rewritten
    /// and tracked too. (The backend builds through
    /// [`Emulator::compile_inputs`]; the tests here build single files.)
    #[cfg(test)]
    pub(crate) fn compile(&self, source: &Path) -> Result<Build, EmulateError> {
        self.compile_inputs(&BuildInputs::single(source, source))
    }

    /// Builds a program made of several sources, with the include folders,
    /// macros and libraries of its nvcc line, or finds it already built.
    pub(crate) fn compile_inputs(&self, inputs: &BuildInputs) -> Result<Build, EmulateError> {
        let Some(first) = inputs.sources.first() else {
            return Err(EmulateError::NoSources);
        };
        let stem = safe_stem(&first.file);
        let shim_dir = embedded::install(&self.root, &self.shim_hash)?;
        let runtime = self.runtime_plan(&shim_dir);
        let runtime_objects = &runtime.objects;

        // Each source as the compiler gets it: CUDA rewritten, the rest as
        // written (with #line, so messages name the real file).
        let mut units = Vec::new();
        let mut headers = Vec::new();
        let mut used_names = std::collections::BTreeSet::new();
        let mut warnings = Vec::new();
        // Where each overload call was written, for the compiler's warnings.
        let mut overload_calls: Vec<(String, rewrite::OverloadCall)> = Vec::new();
        // Headers compiled without the rewrite that hold CUDA: warned about,
        // and repeated after a failed build, which they may explain.
        let mut unrewritten = Vec::new();
        for (index, input) in inputs.sources.iter().enumerate() {
            let bytes = std::fs::read(&input.file)
                .map_err(EmulateError::io("reading the program source", &input.file))?;
            let one_byte_chars = std::str::from_utf8(&bytes).is_err();
            let text = crate::sources::files::source_text(bytes);
            // A byte-order mark is dropped: g++ skips one only at the very
            // start of a file, and ours would follow a `#line`.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
            let mut lock_step = false;
            let cpp = if input.cuda {
                let rewritten = rewrite::rewrite(&input.shown, &text)?;
                warnings.extend(
                    rewritten
                        .math_uses
                        .iter()
                        .map(|used| math::warning(&input.shown, used)),
                );
                warnings.extend(
                    rewritten
                        .half_product_calls
                        .iter()
                        .map(|call| half_products::warning(&input.shown, call)),
                );
                warnings.extend(
                    rewritten
                        .half_product_returns
                        .iter()
                        .map(|returned| half_products::returned_warning(&input.shown, returned)),
                );
                let shown = input.shown.display().to_string();
                overload_calls.extend(
                    rewritten
                        .overload_calls
                        .iter()
                        .map(|call| (shown.clone(), call.clone())),
                );
                let local = headers::local_headers(&input.file, &rewritten)?;
                unrewritten.extend(local.iter().filter_map(headers::unrewritten_cuda));
                // A program that synchronizes threads but has no shared memory
                // talks through global memory, which lock step orders too.
                lock_step = rewritten.lock_step
                    || rewritten.synchronizes
                    || local.iter().any(|h| h.lock_step || h.synchronizes);
                headers.extend(local);
                rewritten.cpp
            } else {
                format!("#line 1 \"{}\"\n{text}", input.shown.display())
            };
            let mut name_stem = safe_stem(&input.file);
            if !used_names.insert(name_stem.clone()) {
                name_stem = format!("{name_stem}-{index}");
                used_names.insert(name_stem.clone());
            }
            let c_language = !input.cuda && is_c_source(&input.file);
            let file_name = format!("{name_stem}.{}", if c_language { "c" } else { "cpp" });
            let source_dir = input
                .file
                .parent()
                .filter(|dir| !dir.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let source_dir = std::path::absolute(source_dir)
                .map_err(EmulateError::io("finding the directory of", &input.file))?;
            let mut args = self.common_args(&shim_dir);
            let std = if c_language {
                Some("-std=gnu11".to_string())
            } else {
                inputs
                    .std
                    .as_deref()
                    .map(|std| format!("-std={}", gnu_std(std)))
            };
            if let Some(std) = std {
                for arg in args.iter_mut() {
                    if arg.to_string_lossy().starts_with("-std=") {
                        *arg = OsString::from(&std);
                    }
                }
            }
            if input.cuda && (lock_step || self.options.sanitize.is_some()) {
                args.extend(LOCK_STEP_FLAGS.iter().map(OsString::from));
            }
            if input.cuda && self.options.sanitize.is_some() {
                args.extend(SANITIZE_FLAGS.iter().map(OsString::from));
            } else if input.cuda {
                // Line tables only: a memory fault in a kernel names its line,
                // and lock step orders divergent lanes by line (the code is the
                // same with or without them).
                args.extend(["-g1", DWARF_VERSION].map(OsString::from));
            }
            // nvcc hands host code (a .cpp or .c file, and the host part of a
            // .cu file) to the host compiler, which targets plain x86-64 and
            // never fuses `a*b + c`; only device code contracts, as nvcc
            // does: the shim's `__device__` and `__global__` ask for it
            // function by function (GCC's `optimize` attribute, which it
            // ignores on a `__device__` variable, hence -Wno-attributes).
            args.push(OsString::from("-ffp-contract=off"));
            if input.cuda {
                args.extend(FLOAT_CAST_FLAGS.iter().map(OsString::from));
                args.push(OsString::from("-Wno-attributes"));
                // How the build learns which math overload a call takes
                // (math::OverloadUse): never off, never an error.
                args.extend(
                    [
                        "-Wdeprecated-declarations",
                        "-Wno-error=deprecated-declarations",
                    ]
                    .map(OsString::from),
                );
            }
            args.extend(inputs.macros.iter().map(OsString::from));
            // nvcc searches the program's own directory for `#include <...>`
            // too (cuda-samples' interval includes <boost/...> from beside it).
            let source_dir_shown = source_dir.display().to_string();
            args.push(OsString::from("-iquote"));
            args.push(source_dir.clone().into_os_string());
            args.push(OsString::from("-I"));
            args.push(source_dir.into_os_string());
            for dir in &inputs.include_dirs {
                args.push(OsString::from("-I"));
                args.push(dir.as_os_str().to_owned());
            }
            for dir in &inputs.system_include_dirs {
                args.push(OsString::from("-isystem"));
                args.push(dir.as_os_str().to_owned());
            }
            for file in &inputs.forced_includes {
                args.push(OsString::from("-include"));
                args.push(file.as_os_str().to_owned());
            }
            args.push(OsString::from(&file_name));
            units.push(Unit {
                file_name,
                object: format!("{name_stem}.o"),
                cpp,
                one_byte_chars,
                args,
                source: input.file.clone(),
                source_dir: source_dir_shown,
            });
        }
        headers.extend(headers::include_path_headers(inputs)?);
        // The hardware sine and cosine and CUDA's double log read tables
        // measured on the H200 (`tables`), each written into the cache the
        // first time a program that may use it is built; without them they
        // refuse to run. cuRAND's normal distribution uses both.
        let mentions = |words: &[&str]| {
            // A qualified name is found also as written without the
            // leading `::` (`cuda_emu::math::cuda_tanf(x)`, as sweep.cu calls it).
            let found = |text: &[u8]| {
                words.iter().any(|word| {
                    let word = word.trim_start_matches("::").as_bytes();
                    text.windows(word.len()).any(|w| w == word)
                })
            };
            units.iter().any(|unit| found(unit.cpp.as_bytes()))
                || headers.iter().any(|header| found(&header.content))
        };
        if mentions(&["curand_kernel.h", "__sinf", "__cosf", "__sincosf"]) {
            tables::install(&self.root, &tables::SINE)?;
        }
        if mentions(&["curand_kernel.h", math::DEVICE_LOG]) {
            tables::install(&self.root, &tables::RECIPROCAL)?;
        }
        // The float reciprocal, reciprocal square root, 2^x, hyperbolic tangent
        // and log2, for the CUDA functions device code was rewritten to (and
        // the inline PTX translated to) that use them (cuRAND's
        // float log-normal uses the 2^x).
        if mentions(math::USES_MUFU_RCP) {
            tables::install(&self.root, &tables::MUFU_RCP)?;
        }
        if mentions(math::USES_MUFU_RSQ) {
            tables::install(&self.root, &tables::MUFU_RSQ)?;
        }
        if mentions(math::USES_MUFU_EX2) || mentions(&["curand_kernel.h"]) {
            tables::install(&self.root, &tables::MUFU_EX2_POS)?;
            tables::install(&self.root, &tables::MUFU_EX2_NEG)?;
        }
        if mentions(math::USES_MUFU_TANH) {
            tables::install(&self.root, &tables::MUFU_TANH_X)?;
            tables::install(&self.root, &tables::MUFU_TANH_R)?;
        }
        if mentions(math::USES_MUFU_LG2) {
            for table in [
                &tables::MUFU_LG2_L,
                &tables::MUFU_LG2_M,
                &tables::MUFU_LG2_N,
            ] {
                tables::install(&self.root, table)?;
            }
        }
        headers.sort_by(|a, b| a.relative_path.cmp(&b.relative_path));
        headers.dedup_by(|a, b| a.relative_path == b.relative_path);
        // Headers above the program's folder put the units that many folders
        // deep in the entry (`headers::entry_prefix`).
        let prefix = units
            .first()
            .map(|unit| headers::entry_prefix(Path::new(&unit.source_dir), &headers))
            .unwrap_or_default();
        if !prefix.as_os_str().is_empty() {
            for unit in &mut units {
                let deeper = prefix.join(&unit.file_name).to_string_lossy().into_owned();
                if let Some(arg) = unit.args.iter_mut().find(|arg| **arg == *unit.file_name) {
                    *arg = OsString::from(&deeper);
                }
                unit.file_name = deeper;
            }
        }

        let mut tail: Vec<OsString> = runtime_objects
            .iter()
            .map(|object| object.clone().into_os_string())
            .collect();
        for dir in &inputs.library_dirs {
            tail.push(OsString::from(format!("-L{}", dir.display())));
        }
        tail.extend(
            inputs
                .libraries
                .iter()
                .map(|l| OsString::from(format!("-l{l}"))),
        );
        if self.options.sanitize.is_some() {
            // The runtime's function names, for memcheck's "on CUDA API call to ...".
            tail.push(OsString::from("-rdynamic"));
        }
        tail.extend(["-o", &stem, "-lpthread"].map(OsString::from));
        // The whole-program command of each unit, as a person would type it.
        let commands: Vec<String> = units
            .iter()
            .map(|unit| {
                let mut whole = unit.args.clone();
                whole.extend(tail.iter().cloned());
                self.compiler.command_line(&whole)
            })
            .collect();
        let command = commands.join(" && ");
        // The key does not hold where the book is: what g++ reads from a
        // program's folder is keyed by content (its local headers).
        let key_command = units.iter().fold(command.clone(), |text, unit| {
            text.replace(&unit.source_dir, "$SOURCE_DIR")
        });
        let program_text: String = units
            .iter()
            .map(|unit| format!("{}\0{}\0", unit.file_name, unit.cpp))
            .collect();
        let key = cache::program_key(
            if units.len() == 1 {
                &units[0].cpp
            } else {
                &program_text
            },
            &headers,
            &self.shim_hash,
            &self.compiler,
            &key_command,
        );
        let entry = self.root.join("programs").join(key);
        let executable = entry.join(&stem);

        warnings.extend(unrewritten.iter().cloned());
        let unrewritten: String = unrewritten.iter().map(|w| format!("note: {w}\n")).collect();
        let built = cache::install(&entry, |dir| {
            for unit in &units {
                if let Some(parent) = dir.join(&unit.file_name).parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(EmulateError::io("creating", parent))?;
                }
                std::fs::write(
                    dir.join(&unit.file_name),
                    crate::sources::files::source_bytes(&unit.cpp, unit.one_byte_chars),
                )
                .map_err(EmulateError::io("writing", &dir.join(&unit.file_name)))?;
            }
            for header in headers.iter().filter(|header| header.rewritten) {
                let path = dir.join(headers::placed(&prefix, header));
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(EmulateError::io("creating", parent))?;
                }
                std::fs::write(&path, &header.content)
                    .map_err(EmulateError::io("writing", &path))?;
            }
            tracing::info!("emulate: compiling {}: {command}", first.file.display());
            // The program's own compiles (the slow part) run while the
            // runtime object is built, if it is not cached yet; then link.
            let mut overload_warnings = String::new();
            let (runtime_built, compiled) = std::thread::scope(|scope| {
                let runtime_built = scope.spawn(|| self.build_runtime(&runtime));
                let compiled: Result<(), EmulateError> = units.iter().try_for_each(|unit| {
                    let (compile_dir, compile_args) = from_callers_dir(
                        dir,
                        object_args(&unit.args, &unit.object),
                        &unit.file_name,
                        &unit.object,
                    );
                    let output = self.compiler.run(&compile_dir, &compile_args)?;
                    if output.status.success() {
                        let messages = compiler_messages(&output);
                        // The call the compiler reported there: of those on
                        // its line (a device copy's are all on the `{`'s),
                        // the one nearest its column.
                        let written = |file: &str, line: u32, column: u32, name: &str| {
                            overload_calls
                                .iter()
                                .filter(|(shown, call)| {
                                    shown == file
                                        && call.reported_line == line
                                        && call.function == name
                                })
                                .min_by_key(|(_, call)| call.reported_column.abs_diff(column))
                                .map(|(_, call)| (call.line, call.column))
                        };
                        for used in math::OverloadUse::found_in(&messages, written) {
                            overload_warnings.push_str(&used.record());
                            overload_warnings.push('\n');
                        }
                        Ok(())
                    } else {
                        Err(EmulateError::CompileFailed {
                            source_path: unit.source.clone(),
                            stderr: diagnostics::at_the_programs_line(
                                &compiler_messages(&output),
                                &shim_dir,
                            ) + &unrewritten,
                        })
                    }
                });
                (
                    runtime_built.join().expect("runtime build thread"),
                    compiled,
                )
            });
            compiled?;
            runtime_built?;
            let objects: Vec<&str> = units.iter().map(|unit| unit.object.as_str()).collect();
            let output = self.compiler.run(
                dir,
                &link_args(&self.compiler.leading_args, &units[0].args, &objects, &tail),
            )?;
            if !output.status.success() || !dir.join(&stem).is_file() {
                return Err(EmulateError::CompileFailed {
                    source_path: first.file.clone(),
                    stderr: compiler_messages(&output) + &unrewritten,
                });
            }
            // Kept with the build, so that a cached build warns the same.
            // (Put in the entry before it is installed: never half-written.)
            let path = dir.join(OVERLOAD_WARNINGS);
            std::fs::write(&path, &overload_warnings)
                .map_err(EmulateError::io("writing", &path))?;
            Ok(())
        })?;
        warnings.extend(
            std::fs::read_to_string(entry.join(OVERLOAD_WARNINGS))
                .unwrap_or_default()
                .lines()
                .filter_map(math::OverloadUse::parse)
                .filter_map(|used| used.warning()),
        );
        if built == Entry::Found {
            tracing::debug!(
                "emulate: {} is cached at {}",
                first.file.display(),
                executable.display()
            );
        }
        if inputs.sources.iter().any(|input| input.cuda) {
            warnings.extend(self.compiler.fidelity_warning());
        }
        Ok(Build {
            executable,
            cached: built == Entry::Found,
            command,
            compiler_version: self.compiler_version().to_string(),
            warnings,
        })
    }

    /// The environment to run a compiled program with, so that it reports
    /// `device` and checks what the options ask.
    /// The environment to run a compiled program with, so that it reports
    /// `device` and checks what the options ask.
    pub(crate) fn environment(&self, device: &DeviceProfile) -> Vec<(String, String)> {
        let mut environment =
            profile::environment(device, self.options.bounds_check, self.options.threads);
        environment.extend(profile::sanitize_environment(
            self.options.sanitize.as_ref(),
            self.options.schedule.as_deref(),
        ));
        environment
    }

    /// The same emulator, running the blocks of a grid on `threads` OS
    /// threads (at least one).
    pub(crate) fn with_threads(mut self, threads: usize) -> Self {
        self.options.threads = threads.max(1);
        self
    }

    /// Where the runtime's objects are (or will be) and the commands that
    /// build them; nothing is built here.
    fn runtime_plan(&self, shim_dir: &Path) -> RuntimePlan {
        let sources: Vec<&str> = embedded::runtime_sources().collect();
        let mut commands = Vec::new();
        let tables = tables::dir(&self.root).display().to_string();
        let tables = tables.replace('\\', "\\\\").replace('"', "\\\"");
        for source in &sources {
            let mut args = self.common_args(shim_dir);
            args.push(OsString::from(format!(
                "-DCUDA_EMU_TABLES_DIR=\"{tables}\""
            )));
            args.push(OsString::from("-c"));
            args.push(shim_dir.join(source).into_os_string());
            args.push(OsString::from("-o"));
            args.push(OsString::from(embedded::object_name(source)));
            commands.push(args);
        }
        let lines: Vec<String> = commands
            .iter()
            .map(|args| self.compiler.command_line(args))
            .collect();
        let key = cache::runtime_key(
            &self.shim_hash,
            &self.compiler,
            lines.iter().map(String::as_str),
        );
        let entry = self.root.join(format!("runtime-{key}"));
        let objects = sources
            .iter()
            .map(|source| entry.join(embedded::object_name(source)))
            .collect();
        RuntimePlan {
            entry,
            commands,
            objects,
        }
    }

    /// Builds the runtime's objects once per shim, compiler and flags. In
    /// one process, concurrent callers wait for one build instead of racing
    /// (across processes the cache's rename settles races).
    fn build_runtime(&self, plan: &RuntimePlan) -> Result<(), EmulateError> {
        static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _one_at_a_time = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
        cache::install(&plan.entry, |dir| {
            for args in &plan.commands {
                let command = self.compiler.command_line(args);
                tracing::info!("emulate: building the runtime: {command}");
                let output = self.compiler.run(dir, args)?;
                if !output.status.success() {
                    return Err(EmulateError::RuntimeBuildFailed {
                        command,
                        stderr: compiler_messages(&output),
                    });
                }
            }
            Ok(())
        })?;
        Ok(())
    }

    /// The compiler's own leading arguments, the flags and the shim's
    /// include directory: what every compile starts with.
    fn common_args(&self, shim_dir: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = self
            .compiler
            .leading_args
            .iter()
            .map(OsString::from)
            .collect();
        args.extend(self.flags.iter().map(OsString::from));
        args.push(OsString::from("-I"));
        args.push(shim_dir.as_os_str().to_owned());
        args
    }
}

/// A unit's whole-program arguments turned into "compile to `object`".
fn object_args(args: &[OsString], object: &str) -> Vec<OsString> {
    let mut compile = args.to_vec();
    compile.extend(["-c", "-o", object].map(OsString::from));
    compile
}

/// The link step: the objects, then the runtime objects, libraries and
/// `-o`; architecture flags (-march...) kept, as g++ expects.
fn link_args(
    leading: &[String],
    args: &[OsString],
    objects: &[&str],
    tail: &[OsString],
) -> Vec<OsString> {
    let mut link: Vec<OsString> = leading.iter().map(OsString::from).collect();
    link.extend(
        args.iter()
            .filter(|a| a.to_string_lossy().starts_with("-m"))
            .cloned(),
    );
    link.extend(objects.iter().map(OsString::from));
    link.extend(tail.iter().cloned());
    link
}

/// A unit's compile, run from the caller's directory with the cache entry's
/// files named by absolute paths. g++ quotes the source line of an error
/// from the file that `#line` names, looked up from its working directory:
/// from the entry it would find the rewritten copy of a local header (two
/// lines longer at the top) and quote the wrong line; from the caller's
/// directory it finds the original. Falls back to the entry when the
/// caller's directory is unknown.
fn from_callers_dir(
    dir: &Path,
    args: Vec<OsString>,
    file_name: &str,
    object: &str,
) -> (PathBuf, Vec<OsString>) {
    let Ok(callers) = std::env::current_dir() else {
        return (dir.to_path_buf(), args);
    };
    let Ok(dir) = std::path::absolute(dir) else {
        return (callers, args);
    };
    let args = args
        .into_iter()
        .map(|arg| {
            if arg == file_name || arg == object {
                dir.join(&arg).into_os_string()
            } else {
                arg
            }
        })
        .collect();
    (callers, args)
}

/// Added to the compile (not the link) of a program that writes `volatile` or
/// `__shared__`, or synchronizes threads (`__syncthreads`, `__syncwarp`): g++'s
/// thread-sanitizer instrumentation calls
/// `__tsan_read4(addr)`, `__tsan_volatile_write4(addr)` and the like before
/// every memory access that is not to a local variable, and the shim's
/// runtime defines those functions (no sanitizer library is linked): the lanes
/// of a warp make their accesses in lock step, as the GPU's converged warps do,
/// and shared-memory hazards are reported ("Warp lock step" in `cuda_emu.cpp`).
/// The line table those reports and the order of divergent lanes are read
/// from comes with every CUDA unit (`-g1`, see `compile_inputs`).
const LOCK_STEP_FLAGS: &[&str] = &[
    "-fsanitize=thread",
    "--param=tsan-distinguish-volatile=1",
    "--param=tsan-instrument-func-entry-exit=0",
    "-Wno-tsan",
];

/// Added to the compile of every CUDA source: before a float or double is
/// converted to an integer type that cannot hold it, the code calls the
/// shim's `__ubsan_handle_float_cast_overflow` (no sanitizer library), which
/// in device code warns, naming the line, where x86's result (a conversion
/// to an unsigned type wraps) differs from the H200's (clamped)
/// (`shim/cuda_emu_fpe.h`, probe `float_narrow_conversions`).
const FLOAT_CAST_FLAGS: &[&str] = &[
    "-fsanitize=float-cast-overflow",
    "-fsanitize-recover=float-cast-overflow",
];

/// Added, after [`LOCK_STEP_FLAGS`], to the compile of every CUDA source of a
/// sanitize build (`run --sanitize`): every access of a kernel calls the
/// shim's `__tsan_*` functions, which check it against the shadow state
/// (`shim/cuda_emu_sanitize.cpp`); `-g` gives the lines reports name;
/// the macro lets the shim's headers leave atomics out (never races) and
/// mark the program as instrumented.
const SANITIZE_FLAGS: &[&str] = &["-g", DWARF_VERSION, "-DCUDA_EMU_SANITIZE_BUILD=1"];

/// The debug information's format: binutils 2.40's addr2line names a
/// DWARF 5 line of a source in the compile's own folder (`#line 1
/// "k.cu"`) by the rewritten file (`k.cpp`); version 4 names `k.cu`.
const DWARF_VERSION: &str = "-gdwarf-4";

/// One source of a program, as the compiler gets it.
struct Unit {
    /// Its name in the cache entry (`main.cpp`).
    file_name: String,
    /// Its object (`main.o`).
    object: String,
    /// Its text: rewritten CUDA, or the source with a `#line`.
    cpp: String,
    /// Whether the source was not UTF-8: `cpp` holds its bytes one character
    /// each (`sources::files::source_text`), and is written back as bytes.
    one_byte_chars: bool,
    /// The compile arguments, ending with `file_name`.
    args: Vec<OsString>,
    /// The file it came from, for errors.
    source: PathBuf,
    /// The folder it came from, as the command line shows it.
    source_dir: String,
}

/// A file stem safe as a file name in the cache (`program` otherwise).
fn safe_stem(file: &Path) -> String {
    file.file_stem()
        .and_then(OsStr::to_str)
        .filter(|stem| {
            !stem.is_empty()
                && stem
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
        .unwrap_or("program")
        .to_string()
}

fn is_c_source(file: &Path) -> bool {
    file.extension().and_then(OsStr::to_str) == Some("c")
}

/// nvcc's `-std=c++17` as g++'s `gnu++17`: the GNU dialect keeps the
/// contraction of `a*b + c` into an FMA that nvcc does (see the module doc).
fn gnu_std(std: &str) -> String {
    match std.strip_prefix("c++") {
        Some(version) => format!("gnu++{version}"),
        None => std.to_string(),
    }
}

/// The runtime's objects: where they go, and how they are built.
struct RuntimePlan {
    entry: PathBuf,
    commands: Vec<Vec<OsString>>,
    objects: Vec<PathBuf>,
}

#[cfg(test)]
pub(super) mod tests {
    use super::rewrite::UnsupportedFeature;
    use super::*;
    use std::collections::BTreeSet;
    use std::process::Command;

    /// A stand-in for g++: logs each call beside itself, answers
    /// `--version`, fails on a source containing `COMPILE_ERROR`, and
    /// otherwise writes whatever `-o` names.
    #[cfg(unix)]
    const FAKE_COMPILER: &str = r#"#!/bin/sh
log="$(dirname "$0")/calls.log"
case " $* " in *" --version "*) echo "fake-c++ (Test) 1.0"; echo "second line"; exit 0 ;; esac
echo "$*" >> "$log"
out=""; prev=""
for arg in "$@"; do
  if [ "$prev" = "-o" ]; then out="$arg"; fi
  case "$arg" in
    *.cpp) if grep -q COMPILE_ERROR "$arg"; then echo "k.cu:3:5: error: boom" >&2; exit 1; fi ;;
  esac
  prev="$arg"
done
printf '#!/bin/sh\necho fake program\n' > "$out"
chmod +x "$out"
"#;

    /// A cache and a source folder in a temporary directory, with the fake
    /// compiler as the emulator's compiler.
    pub(super) struct Fixture {
        pub(super) dir: tempfile::TempDir,
        pub(super) compiler: PathBuf,
    }

    impl Fixture {
        #[cfg(unix)]
        pub(super) fn new() -> Self {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let compiler = dir.path().join("bin/fake-c++");
            std::fs::create_dir_all(compiler.parent().unwrap()).unwrap();
            std::fs::write(&compiler, FAKE_COMPILER).unwrap();
            std::fs::set_permissions(&compiler, std::fs::Permissions::from_mode(0o755)).unwrap();
            Self { dir, compiler }
        }

        pub(super) fn emulator(&self) -> Emulator {
            let options = EmulatorOptions {
                compiler: Some(self.compiler.clone()),
                ..EmulatorOptions::default()
            };
            Emulator::new(self.dir.path().join("cache"), options).unwrap()
        }

        pub(super) fn write(&self, name: &str, text: &str) -> PathBuf {
            let path = self.dir.path().join("src").join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            path
        }

        /// The compiler calls so far, `--version` aside.
        pub(super) fn calls(&self) -> Vec<String> {
            std::fs::read_to_string(self.dir.path().join("bin/calls.log"))
                .unwrap_or_default()
                .lines()
                .map(String::from)
                .collect()
        }
    }

    const KERNEL: &str =
        "__global__ void k(int* x) { x[0] = 1; }\nint main() { k<<<1, 1>>>(nullptr); }\n";

    #[cfg(unix)]
    #[test]
    fn builds_once_then_serves_from_the_cache() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", KERNEL);
        let emulator = fixture.emulator();

        let first = emulator.compile(&source).unwrap();
        assert!(!first.cached);
        assert!(first.executable.is_file());
        assert_eq!(first.executable.file_name().unwrap(), "k");
        assert_eq!(first.compiler_version, "fake-c++ (Test) 1.0");
        // Not the compiler the emulator was measured with: the build says so.
        assert!(
            first
                .warnings
                .iter()
                .any(|w| w.contains("measured with g++ 12") && w.contains("fake-c++ (Test) 1.0")),
            "{:?}",
            first.warnings
        );
        let calls = fixture.calls();
        // The runtime's objects and the program's object (in parallel, in
        // any order), then the link.
        let runtime = embedded::runtime_sources().count();
        let all = runtime + 2;
        assert_eq!(calls.len(), all, "{calls:?}");
        assert!(
            calls[..all - 1]
                .iter()
                .any(|c| c.contains("cuda_emu.cpp") && c.ends_with("-o cuda_emu.o")),
            "{calls:?}"
        );
        // The program compiles from the caller's directory, naming the
        // entry's files by absolute paths (see `from_callers_dir`).
        assert!(
            calls[..all - 1]
                .iter()
                .any(|c| c.contains("/k.cpp -c -o /") && c.ends_with("/k.o")),
            "{calls:?}"
        );
        assert!(
            calls[all - 1].contains("k.o") && calls[all - 1].ends_with("-o k -lpthread"),
            "{calls:?}"
        );
        assert!(
            first.command.contains("-std=gnu++17 -O2"),
            "{}",
            first.command
        );
        assert!(!first.command.contains("fast-math"));

        // What was compiled is the rewritten program.
        let cpp = std::fs::read_to_string(first.executable.with_file_name("k.cpp")).unwrap();
        assert!(
            cpp.contains("::cuda_emu::launch(__FILE__, __LINE__, \"k\", "),
            "{cpp}"
        );
        assert!(
            cpp.contains("(cuda_emu_args_...); }, 1, 1)(nullptr)"),
            "{cpp}"
        );

        let second = emulator.compile(&source).unwrap();
        assert!(second.cached);
        assert_eq!(second.executable, first.executable);
        assert_eq!(second.command, first.command);
        assert_eq!(
            fixture.calls().len(),
            all,
            "no compiler call for a cached program"
        );

        // A fresh emulator on the same cache finds it too.
        assert!(fixture.emulator().compile(&source).unwrap().cached);
        assert_eq!(fixture.calls().len(), all);
    }

    #[cfg(unix)]
    #[test]
    fn a_changed_program_is_rebuilt_but_the_runtime_is_not() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", KERNEL);
        let emulator = fixture.emulator();
        let first = emulator.compile(&source).unwrap();
        fixture.write("k.cu", &KERNEL.replace("x[0] = 1", "x[0] = 2"));
        let second = emulator.compile(&source).unwrap();
        assert!(!second.cached);
        assert_ne!(second.executable, first.executable);
        let calls = fixture.calls();
        assert_eq!(
            calls
                .iter()
                .filter(|call| call.contains("cuda_emu.cpp"))
                .count(),
            1,
            "the runtime is built once: {calls:?}"
        );
        // The runtime's objects, then each program's compile and link.
        assert_eq!(
            calls.len(),
            embedded::runtime_sources().count() + 4,
            "{calls:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn bounds_checking_does_not_change_the_build() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", KERNEL);
        fixture.emulator().compile(&source).unwrap();
        let unchecked = Emulator::new(
            fixture.dir.path().join("cache"),
            EmulatorOptions {
                bounds_check: false,
                compiler: Some(fixture.compiler.clone()),
                ..EmulatorOptions::default()
            },
        )
        .unwrap();
        assert!(unchecked.compile(&source).unwrap().cached);
        // Neither does the thread order (told at run time).
        let reversed = Emulator::new(
            fixture.dir.path().join("cache"),
            EmulatorOptions {
                compiler: Some(fixture.compiler.clone()),
                schedule: Some("reverse".to_string()),
                ..EmulatorOptions::default()
            },
        )
        .unwrap();
        assert!(reversed.compile(&source).unwrap().cached);
    }

    #[cfg(unix)]
    #[test]
    fn a_program_that_synchronizes_without_shared_memory_is_built_for_lock_step() {
        let fixture = Fixture::new();
        let command = |name: &str, body: &str| {
            let source = fixture.write(
                name,
                &format!("__global__ void k(int* p) {{ {body} }}\nint main() {{}}\n"),
            );
            fixture.emulator().compile(&source).unwrap().command
        };
        let global = command(
            "global.cu",
            "p[threadIdx.x] = 1; __syncthreads(); p[0] += p[1];",
        );
        assert!(global.contains("-fsanitize=thread"), "{global}");
        let warp = command("warp.cu", "p[threadIdx.x] = 1; __syncwarp(); p[0] += p[1];");
        assert!(warp.contains("-fsanitize=thread"), "{warp}");
        let alone = command("alone.cu", "p[threadIdx.x] = 1;");
        assert!(!alone.contains("-fsanitize=thread"), "{alone}");
    }

    #[cfg(unix)]
    #[test]
    fn a_sanitize_build_is_instrumented_with_lines_and_kept_apart() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", KERNEL);
        let plain = fixture.emulator().compile(&source).unwrap();
        assert!(plain.command.contains(" -g1 "), "{}", plain.command);
        assert!(
            !plain.command.contains("-fsanitize=thread"),
            "{}",
            plain.command
        );
        // Every CUDA unit tells the shim of conversions that do not fit.
        assert!(
            plain.command.contains("-fsanitize=float-cast-overflow"),
            "{}",
            plain.command
        );
        let sanitizing = Emulator::new(
            fixture.dir.path().join("cache"),
            EmulatorOptions {
                compiler: Some(fixture.compiler.clone()),
                sanitize: Some(Sanitize {
                    tools: vec!["racecheck".to_string()],
                    leak_check: false,
                    error_exitcode: None,
                }),
                ..EmulatorOptions::default()
            },
        )
        .unwrap();
        let sanitized = sanitizing.compile(&source).unwrap();
        assert!(!sanitized.cached, "a build of its own");
        assert_ne!(sanitized.executable, plain.executable);
        for flag in [
            "-fsanitize=thread",
            " -g ",
            "-DCUDA_EMU_SANITIZE_BUILD=1",
            "-rdynamic",
        ] {
            assert!(
                sanitized.command.contains(flag),
                "{flag}: {}",
                sanitized.command
            );
        }
        assert!(!sanitized.command.contains("-g1"), "{}", sanitized.command);
    }

    #[cfg(unix)]
    #[test]
    fn compiler_errors_come_back_and_leave_no_entry() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", "int main() { COMPILE_ERROR; }\n");
        let emulator = fixture.emulator();
        for attempt in 1..=2 {
            match emulator.compile(&source) {
                Err(EmulateError::CompileFailed {
                    source_path,
                    stderr,
                }) => {
                    assert_eq!(source_path, source);
                    assert_eq!(stderr, "k.cu:3:5: error: boom\n");
                }
                other => panic!("attempt {attempt}: {other:?}"),
            }
        }
        // The failed program was tried again, not cached as a failure (the
        // runtime's objects were built once, beside the first try).
        assert_eq!(
            fixture.calls().len(),
            embedded::runtime_sources().count() + 2
        );
    }

    #[cfg(unix)]
    #[test]
    fn refused_programs_never_reach_the_compiler() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", "__device__ void f() {\n  asm(\"exit;\");\n}\n");
        let error = fixture.emulator().compile(&source).unwrap_err();
        assert!(
            matches!(
                &error,
                EmulateError::Rewrite(RewriteError::Unsupported {
                    line: 2,
                    column: 3,
                    feature: UnsupportedFeature::InlineAssemblyInstruction(_),
                    ..
                })
            ),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("k.cu:2:3: inline PTX"),
            "{error}"
        );
        assert!(error.to_string().contains("--backend gpu"), "{error}");
        assert!(fixture.calls().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_missing_program_names_its_path() {
        let fixture = Fixture::new();
        let missing = fixture.dir.path().join("nope.cu");
        let error = fixture.emulator().compile(&missing).unwrap_err();
        assert!(matches!(error, EmulateError::Io { .. }), "{error:?}");
        assert!(error.to_string().contains("nope.cu"), "{error}");
    }

    #[cfg(unix)]
    #[test]
    fn local_headers_are_rewritten_beside_the_program_and_key_the_cache() {
        let fixture = Fixture::new();
        fixture.write(
            "common/launch.cuh",
            "#include \"sizes.h\"\ninline void run() { k<<<1, kN>>>(nullptr); }\n",
        );
        fixture.write("common/sizes.h", "constexpr int kN = 4;\n");
        let source = fixture.write(
            "k.cu",
            "#include \"common/launch.cuh\"\n#include \"missing.h\"\nint main() { run(); }\n",
        );
        let emulator = fixture.emulator();
        let first = emulator.compile(&source).unwrap();
        let dir = first.executable.parent().unwrap();
        let header = std::fs::read_to_string(dir.join("common/launch.cuh")).unwrap();
        assert!(header.contains("#line 1 \""), "{header}");
        assert!(
            header.contains("::cuda_emu::launch(__FILE__, __LINE__, \"k\", "),
            "{header}"
        );
        assert!(header.contains("}, 1, kN)(nullptr)"), "{header}");
        assert!(dir.join("common/sizes.h").is_file());

        fixture.write("common/sizes.h", "constexpr int kN = 8;\n");
        assert!(
            !emulator.compile(&source).unwrap().cached,
            "a header changed"
        );
        assert!(emulator.compile(&source).unwrap().cached);
    }

    #[test]
    fn cuda_in_a_header_above_the_program_is_rewritten_like_one_beside_it() {
        // cuda-samples' MC_SingleAsianOptionP includes
        // "../inc/cudasharedmem.h", whose extern __shared__ arrays link only
        // rewritten: a header above the program's folder is rewritten too
        // (the program goes that many folders deep in its entry, under its
        // own folders' names, so the header's `../src/local.h` is found as
        // well). One included by an absolute path is compiled as it is, and
        // the build says so, naming it.
        let fixture = Fixture::new();
        fixture.write(
            "lesson/inc/shared.cuh",
            "#include \"../src/local.h\"\n\
             __device__ float* s() { extern __shared__ float a[]; return a; }\n\
             __global__ void mirror(float* o) {\n\
             \x20 s()[threadIdx.x] = kScale * threadIdx.x;\n\
             \x20 __syncthreads();\n\
             \x20 o[threadIdx.x] = s()[31 - threadIdx.x];\n\
             }\n",
        );
        fixture.write("lesson/src/local.h", "constexpr float kScale = 2.0f;\n");
        let absolute = fixture.write(
            "elsewhere/other.cuh",
            "__global__ void other(int* p) { *p = 1; }\n",
        );
        let source = fixture.write(
            "lesson/src/k.cu",
            &format!(
                "#include <cstdio>\n#include \"../inc/shared.cuh\"\n#include \"{}\"\n\
                 int main() {{\n\
                 \x20 float* o;\n\
                 \x20 cudaMallocManaged(&o, 32 * sizeof(float));\n\
                 \x20 mirror<<<1, 32, 32 * sizeof(float)>>>(o);\n\
                 \x20 cudaDeviceSynchronize();\n\
                 \x20 printf(\"%g %g\\n\", o[0], o[31]);\n\
                 }}\n",
                absolute.display()
            ),
        );
        let Some(emulator) = real_emulator(&fixture.dir.path().join("real-cache")) else {
            return;
        };
        let build = emulator.compile(&source).unwrap_or_else(|e| panic!("{e}"));
        let warned: Vec<&String> = build
            .warnings
            .iter()
            .filter(|w| w.contains("not rewritten"))
            .collect();
        assert_eq!(warned.len(), 1, "{:?}", build.warnings);
        assert!(warned[0].contains("other.cuh"), "{}", warned[0]);
        let ran = run_on_h200(&emulator, &build);
        assert_eq!(
            String::from_utf8_lossy(&ran.stdout),
            "62 0\n",
            "{}",
            String::from_utf8_lossy(&ran.stderr)
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_moved_book_does_not_recompile() {
        let fixture = Fixture::new();
        let here = fixture.write("book-a/k.cu", KERNEL);
        let moved = fixture.write("book-b/k.cu", KERNEL);
        let emulator = fixture.emulator();
        let shown = Path::new("kernels/k.cu");
        assert!(
            !emulator
                .compile_inputs(&BuildInputs::single(&here, shown))
                .unwrap()
                .cached
        );
        assert!(
            emulator
                .compile_inputs(&BuildInputs::single(&moved, shown))
                .unwrap()
                .cached
        );
    }

    #[cfg(unix)]
    #[test]
    fn racing_compiles_all_succeed() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", KERNEL);
        let emulator = fixture.emulator();
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| emulator.compile(&source).unwrap()))
                .collect();
            let executables: BTreeSet<PathBuf> = handles
                .into_iter()
                .map(|handle| handle.join().unwrap().executable)
                .collect();
            assert_eq!(executables.len(), 1);
        });
        assert!(emulator.compile(&source).unwrap().cached);
    }

    // ---- With the real compiler and shim: skipped when there is no compiler.

    /// An emulator using the system's compiler, or `None` (with the reason
    /// printed) when there is none.
    fn real_emulator(cache: &Path) -> Option<Emulator> {
        match Emulator::new(cache, EmulatorOptions::default()) {
            Ok(emulator) => Some(emulator),
            Err(error @ EmulateError::CompilerNotFound { .. }) => {
                eprintln!("skipped: {error}");
                None
            }
            Err(error) => panic!("{error}"),
        }
    }

    fn run_on_h200(emulator: &Emulator, compiled: &Build) -> std::process::Output {
        Command::new(&compiled.executable)
            .envs(emulator.environment(&DeviceProfile::h200()))
            .output()
            .unwrap()
    }

    /// Exercises the rewrite contract against the real shim: a template
    /// kernel with deduced and default arguments, dynamic shared memory
    /// with a launch split over lines, a refused launch, and `__LINE__`.
    const CONTRACT_PROGRAM: &str = r#"#include <cstdio>
template <class T>
__global__ void scale(T* x, T factor, int n, int offset = 0) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * factor + offset;
}
__global__ void reverse(int* x, int n) {
  extern __shared__ __align__(16) int tile[];
  int t = threadIdx.x;
  tile[t] = x[t];
  __syncthreads();
  x[t] = tile[n - 1 - t];
}
int main() {
  float h[5] = {1, 2, 3, 4, 5};
  float* d = nullptr;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<2, 4>>>(d, 2.0f, 5);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%g %g %g %g %g\n", h[0], h[1], h[2], h[3], h[4]);
  int v[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int* dv = nullptr;
  cudaMalloc(&dv, sizeof v);
  cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice);
  reverse<<<
      1, 8,
      8 * sizeof(int)>>>(dv, 8);
  cudaMemcpy(v, dv, sizeof v, cudaMemcpyDeviceToHost);
  for (int x : v) std::printf("%d ", x);
  std::printf("\n");
  scale<float><<<0, 4>>>(d, 1.0f, 5);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  std::printf("%s:%d\n", __FILE__, __LINE__);
  return 0;
}
"#;

    #[test]
    fn rewritten_programs_run_on_the_shim() {
        let dir = tempfile::tempdir().unwrap();
        let Some(emulator) = real_emulator(&dir.path().join("cache")) else {
            return;
        };
        let source = dir.path().join("contract.cu");
        std::fs::write(&source, CONTRACT_PROGRAM).unwrap();
        let compiled = emulator
            .compile(&source)
            .unwrap_or_else(|error| panic!("{error}"));
        let output = run_on_h200(&emulator, &compiled);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            format!(
                "2 4 6 8 10\n7 6 5 4 3 2 1 0 \ninvalid argument\n{}:{}\n",
                source.display(),
                1 + CONTRACT_PROGRAM
                    .lines()
                    .position(|line| line.contains("__LINE__"))
                    .unwrap()
            )
        );
    }

    #[test]
    fn compiler_errors_name_the_cuda_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let Some(emulator) = real_emulator(&dir.path().join("cache")) else {
            return;
        };
        let source = dir.path().join("bad.cu");
        std::fs::write(
            &source,
            "__global__ void k() {}\nint main() {\n  undeclared_name = 1;\n}\n",
        )
        .unwrap();
        match emulator.compile(&source) {
            Err(EmulateError::CompileFailed { stderr, .. }) => {
                let at = format!("{}:3:3: error:", source.display());
                assert!(stderr.contains(&at), "expected {at} in:\n{stderr}");
            }
            other => panic!("{other:?}"),
        }
    }
}
