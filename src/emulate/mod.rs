//! The CPU emulation backend: builds a whole CUDA program (host `main`
//! included) into a native executable that runs its kernels on the CPU.
//!
//! It exists so that a lesson's programs can be checked on machines without a
//! GPU: the `.cu` file is rewritten into C++ ([`rewrite`]), compiled by the
//! system's C++ compiler against a small CUDA runtime shim (C++ headers and one
//! runtime source in `src/emulate/shim/`, embedded in this binary), and cached
//! so that an unchanged program is never compiled twice (module `cache`). The
//! executable reads the device it pretends to be and its checking options
//! from environment variables ([`Emulator::environment`]); running it, and
//! comparing what it prints, is the caller's business.
//!
//! Compiler flags are chosen for agreement with the GPU, not for speed:
//! `-std=gnu++17` (ISO `-std=c++17` turns off the contraction of `a*b + c`
//! into a fused multiply-add, which nvcc does by default), `-march=x86-64-v3`
//! when the CPU has FMA so that the contraction happens, never `-ffast-math`
//! (it reorders sums), `-fno-strict-aliasing` because CUDA code routinely
//! reads a `float` array through `float4` pointers, and `-fno-builtin-printf`
//! so that device `printf` stays a call the shim sees (g++ would turn some into
//! `puts`).

mod cache;
pub mod rewrite;

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use thiserror::Error;

use self::cache::{Entry, Fingerprint, InstallError};
pub use self::rewrite::{RewriteError, RewrittenSource, UnsupportedFeature};

/// One file of the CUDA runtime shim, embedded at build time.
/// The whole-program command turned into "compile to `<stem>.o`": the
/// runtime objects, `-o` and the libraries left out.
fn object_args(args: &[OsString], stem: &str) -> Vec<OsString> {
    let mut compile: Vec<OsString> = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-o" {
            iter.next();
        } else if arg == "-lpthread" || Path::new(arg).extension().is_some_and(|e| e == "o") {
        } else {
            compile.push(arg.clone());
        }
    }
    compile.extend(["-c", "-o"].map(OsString::from));
    compile.push(OsString::from(format!("{stem}.o")));
    compile
}

/// The program's compile, run from the caller's directory with the cache
/// entry's files named by absolute paths. g++ quotes the source line of an
/// error from the file that `#line` names, looked up from its working
/// directory: from the entry it would find the rewritten copy of a local
/// header (two lines longer at the top) and quote the wrong line; from the
/// caller's directory it finds the original. Falls back to the entry when the
/// caller's directory is unknown.
fn from_callers_dir(
    dir: &Path,
    args: Vec<OsString>,
    cpp_name: &str,
    stem: &str,
) -> (PathBuf, Vec<OsString>) {
    let Ok(callers) = std::env::current_dir() else {
        return (dir.to_path_buf(), args);
    };
    let Ok(dir) = std::path::absolute(dir) else {
        return (callers, args);
    };
    let object = format!("{stem}.o");
    let args = args
        .into_iter()
        .map(|arg| {
            if arg == cpp_name || arg == object.as_str() {
                dir.join(&arg).into_os_string()
            } else {
                arg
            }
        })
        .collect();
    (callers, args)
}

/// The link step: the program's object, the runtime objects, `-lpthread`.
fn link_args(
    leading: &[String],
    args: &[OsString],
    runtime: &[PathBuf],
    stem: &str,
) -> Vec<OsString> {
    let mut link: Vec<OsString> = leading.iter().map(OsString::from).collect();
    // Keep architecture flags (-march...) for the link, as g++ expects.
    link.extend(
        args.iter()
            .filter(|a| a.to_string_lossy().starts_with("-m"))
            .cloned(),
    );
    link.push(OsString::from(format!("{stem}.o")));
    link.extend(runtime.iter().map(|o| o.clone().into_os_string()));
    link.extend(["-o", stem, "-lpthread"].map(OsString::from));
    link
}

/// The runtime's objects: where they go, and how they are built.
struct RuntimePlan {
    entry: PathBuf,
    commands: Vec<Vec<OsString>>,
    objects: Vec<PathBuf>,
}

struct ShimFile {
    name: &'static str,
    text: &'static str,
}

/// The shim, as written into the cache. A `.cpp` file is a runtime source,
/// compiled once into an object that every program links; the rest are
/// headers found through `-I`, one in a subfolder (`crt/host_defines.h`)
/// (`cooperative_groups.h`, `cuda_fp16.h`, `cuda_bf16.h` and `mma.h` only
/// stop the compile with an `#error` naming the missing feature). A test
/// checks this list against the directory and its subfolders.
const SHIM_FILES: &[ShimFile] = &[
    ShimFile {
        name: "cuda_runtime.h",
        text: include_str!("shim/cuda_runtime.h"),
    },
    ShimFile {
        name: "cuda_runtime_api.h",
        text: include_str!("shim/cuda_runtime_api.h"),
    },
    ShimFile {
        name: "cuda.h",
        text: include_str!("shim/cuda.h"),
    },
    ShimFile {
        name: "device_launch_parameters.h",
        text: include_str!("shim/device_launch_parameters.h"),
    },
    ShimFile {
        name: "driver_types.h",
        text: include_str!("shim/driver_types.h"),
    },
    ShimFile {
        name: "vector_types.h",
        text: include_str!("shim/vector_types.h"),
    },
    ShimFile {
        name: "vector_functions.h",
        text: include_str!("shim/vector_functions.h"),
    },
    ShimFile {
        name: "builtin_types.h",
        text: include_str!("shim/builtin_types.h"),
    },
    ShimFile {
        name: "host_defines.h",
        text: include_str!("shim/host_defines.h"),
    },
    ShimFile {
        name: "device_functions.h",
        text: include_str!("shim/device_functions.h"),
    },
    ShimFile {
        name: "cuda_profiler_api.h",
        text: include_str!("shim/cuda_profiler_api.h"),
    },
    ShimFile {
        name: "crt/host_defines.h",
        text: include_str!("shim/crt/host_defines.h"),
    },
    ShimFile {
        name: "cooperative_groups.h",
        text: include_str!("shim/cooperative_groups.h"),
    },
    ShimFile {
        name: "cuda_fp16.h",
        text: include_str!("shim/cuda_fp16.h"),
    },
    ShimFile {
        name: "cuda_bf16.h",
        text: include_str!("shim/cuda_bf16.h"),
    },
    ShimFile {
        name: "mma.h",
        text: include_str!("shim/mma.h"),
    },
    ShimFile {
        name: "cuda_emu.cpp",
        text: include_str!("shim/cuda_emu.cpp"),
    },
];

/// Bumped when the layout of the cache or the way programs are built changes
/// in a way the hashed inputs do not show.
const BUILD_SCHEME: &str = "mdbook-evidence emulate 1";

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
pub struct EmulatorOptions {
    /// Check every global-memory access against the allocations the program
    /// made (slower; catches out-of-bounds indices). Passed to the program
    /// at run time through [`Emulator::environment`].
    pub bounds_check: bool,
    /// The C++ compiler to use; `None` means `$CXX`, else `g++`, else `c++`.
    pub compiler: Option<PathBuf>,
}

impl Default for EmulatorOptions {
    fn default() -> Self {
        Self {
            bounds_check: true,
            compiler: None,
        }
    }
}

/// The GPU an emulated program reports through `cudaGetDeviceProperties`,
/// `cudaRuntimeGetVersion` and the like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceProfile {
    /// `cudaDeviceProp::name`, e.g. "NVIDIA H200".
    pub name: String,
    /// `(major, minor)`, e.g. `(9, 0)`.
    pub compute_capability: (u32, u32),
    /// As `cudaRuntimeGetVersion` returns it: 1000 * major + 10 * minor.
    pub runtime_version: u32,
}

impl DeviceProfile {
    /// The course's reference machine: an H200 with the CUDA 13.0 runtime.
    pub fn h200() -> Self {
        Self {
            name: "NVIDIA H200".to_string(),
            compute_capability: (9, 0),
            runtime_version: 13000,
        }
    }
}

/// A program built for the emulator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The executable, inside the cache; run it with [`Emulator::environment`].
    pub executable: PathBuf,
    /// True when the executable came from the cache and no compiler ran.
    pub cached: bool,
    /// The compiler command line that builds it, for humans (run in the
    /// directory of `executable`).
    pub command: String,
    /// The first line of the compiler's `--version`.
    pub compiler_version: String,
}

/// The C++ compiler, as found.
#[derive(Debug, Clone)]
struct Compiler {
    /// Absolute path of the program.
    program: PathBuf,
    /// Arguments that came with it in `$CXX` (e.g. `CXX="g++-12 -m64"`).
    leading_args: Vec<String>,
    /// Its whole `--version` output, for cache keys.
    version: String,
}

/// Builds CUDA programs into CPU executables, with a cache.
#[derive(Debug, Clone)]
pub struct Emulator {
    root: PathBuf,
    options: EmulatorOptions,
    compiler: Compiler,
    flags: Vec<String>,
    shim_hash: String,
}

/// Where the emulator keeps its builds unless told otherwise:
/// `$MDBOOK_EVIDENCE_CACHE`, else `$XDG_CACHE_HOME/mdbook-evidence`, else
/// `$HOME/.cache/mdbook-evidence`, else `mdbook-evidence` in the system's
/// temporary directory.
pub fn default_cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    cache_dir_from(
        var("MDBOOK_EVIDENCE_CACHE"),
        var("XDG_CACHE_HOME"),
        var("HOME"),
        std::env::temp_dir(),
    )
}

fn cache_dir_from(
    explicit: Option<OsString>,
    xdg_cache_home: Option<OsString>,
    home: Option<OsString>,
    temp: PathBuf,
) -> PathBuf {
    if let Some(dir) = explicit {
        PathBuf::from(dir)
    } else if let Some(dir) = xdg_cache_home {
        PathBuf::from(dir).join("mdbook-evidence")
    } else if let Some(home) = home {
        PathBuf::from(home).join(".cache").join("mdbook-evidence")
    } else {
        temp.join("mdbook-evidence")
    }
}

impl Emulator {
    /// An emulator that keeps its builds under `cache_dir/emulate/`. Finds
    /// the C++ compiler and asks its version now, so a missing compiler is
    /// reported before any program is read.
    pub fn new(
        cache_dir: impl Into<PathBuf>,
        options: EmulatorOptions,
    ) -> Result<Self, EmulateError> {
        let compiler = find_compiler(
            options.compiler.as_deref(),
            std::env::var_os("CXX").filter(|cxx| !cxx.is_empty()),
            std::env::var_os("PATH"),
        )?;
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let flags = compiler_flags(cfg!(target_arch = "x86_64") && has_fma_and_avx2(&cpuinfo));
        Ok(Self {
            root: cache_dir.into().join("emulate"),
            options,
            compiler,
            flags,
            shim_hash: shim_hash(),
        })
    }

    /// The options this emulator was made with.
    pub fn options(&self) -> &EmulatorOptions {
        &self.options
    }

    /// The first line of the compiler's `--version`.
    pub fn compiler_version(&self) -> &str {
        first_line(&self.compiler.version)
    }

    /// Builds the CUDA program at `source` (a whole program, with `main`),
    /// or finds it already built. Local headers it includes with `"..."`
    /// from beside it are rewritten and tracked too.
    pub fn compile(&self, source: &Path) -> Result<Compiled, EmulateError> {
        self.compile_shown_as(source, source)
    }

    /// Like [`Emulator::compile`], but names the program `shown` in `#line`
    /// (hence in compiler errors, `__FILE__` and refusals): a book passes
    /// the path relative to its root, so that messages read well and the
    /// cache key does not depend on how the current directory was spelled.
    pub fn compile_shown_as(&self, source: &Path, shown: &Path) -> Result<Compiled, EmulateError> {
        let text = std::fs::read_to_string(source)
            .map_err(EmulateError::io("reading the CUDA program", source))?;
        let main = rewrite::rewrite(shown, &text)?;
        let headers = local_headers(source, &main)?;

        let shim_dir = self.install_shim()?;
        let runtime = self.runtime_plan(&shim_dir);
        let runtime_objects = &runtime.objects;

        let stem = source
            .file_stem()
            .and_then(OsStr::to_str)
            .filter(|stem| {
                !stem.is_empty()
                    && stem
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            })
            .unwrap_or("program")
            .to_string();
        let cpp_name = format!("{stem}.cpp");
        let source_dir = source
            .parent()
            .filter(|dir| !dir.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let source_dir = std::path::absolute(source_dir)
            .map_err(EmulateError::io("finding the directory of", source))?;

        let mut args = self.common_args(&shim_dir);
        // nvcc searches the program's own directory for `#include <...>`
        // too (cuda-samples' interval includes <boost/...> from beside it).
        args.push(OsString::from("-iquote"));
        args.push(source_dir.clone().into_os_string());
        args.push(OsString::from("-I"));
        args.push(source_dir.into_os_string());
        args.push(OsString::from(&cpp_name));
        args.extend(
            runtime_objects
                .iter()
                .map(|object| object.clone().into_os_string()),
        );
        args.extend(["-o", &stem, "-lpthread"].map(OsString::from));
        let command = display_command(&self.compiler.program, &args);

        let mut key = Fingerprint::new(BUILD_SCHEME);
        key.add("program", main.cpp.as_bytes());
        for header in &headers {
            key.add(
                "header path",
                header.relative_path.as_os_str().as_encoded_bytes(),
            );
            key.add("header", &header.content);
        }
        key.add("shim", self.shim_hash.as_bytes());
        key.add(
            "compiler",
            self.compiler.program.as_os_str().as_encoded_bytes(),
        );
        key.add("compiler version", self.compiler.version.as_bytes());
        key.add("command", command.as_bytes());
        let entry = self.root.join("programs").join(key.finish());
        let executable = entry.join(&stem);

        let built = cache::install(&entry, |dir| {
            std::fs::write(dir.join(&cpp_name), &main.cpp)
                .map_err(EmulateError::io("writing", &dir.join(&cpp_name)))?;
            for header in headers.iter().filter(|header| header.rewritten) {
                let path = dir.join(&header.relative_path);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(EmulateError::io("creating", parent))?;
                }
                std::fs::write(&path, &header.content)
                    .map_err(EmulateError::io("writing", &path))?;
            }
            log::info!("emulate: compiling {}: {command}", source.display());
            // The program's own compile (the slow part) runs while the
            // runtime object is built, if it is not cached yet; then link.
            let (runtime_built, compiled) = std::thread::scope(|scope| {
                let runtime_built = scope.spawn(|| self.build_runtime(&runtime));
                let (compile_dir, compile_args) =
                    from_callers_dir(dir, object_args(&args, &stem), &cpp_name, &stem);
                let compiled = self.run_compiler(&compile_dir, &compile_args);
                (
                    runtime_built.join().expect("runtime build thread"),
                    compiled,
                )
            });
            let compiled = compiled?;
            if !compiled.status.success() {
                return Err(EmulateError::CompileFailed {
                    source_path: source.to_path_buf(),
                    stderr: compiler_messages(&compiled),
                });
            }
            runtime_built?;
            let output = self.run_compiler(
                dir,
                &link_args(&self.compiler.leading_args, &args, runtime_objects, &stem),
            )?;
            if !output.status.success() || !dir.join(&stem).is_file() {
                return Err(EmulateError::CompileFailed {
                    source_path: source.to_path_buf(),
                    stderr: compiler_messages(&output),
                });
            }
            Ok(())
        })?;
        if built == Entry::Found {
            log::debug!(
                "emulate: {} is cached at {}",
                source.display(),
                executable.display()
            );
        }
        Ok(Compiled {
            executable,
            cached: built == Entry::Found,
            command,
            compiler_version: self.compiler_version().to_string(),
        })
    }

    /// The environment to run a compiled program with, so that it reports
    /// `device` and checks what the options ask.
    pub fn environment(&self, device: &DeviceProfile) -> Vec<(String, String)> {
        let (major, minor) = device.compute_capability;
        vec![
            ("CUDA_EMU_DEVICE_NAME".to_string(), device.name.clone()),
            ("CUDA_EMU_CC".to_string(), format!("{major}.{minor}")),
            (
                "CUDA_EMU_RUNTIME_VERSION".to_string(),
                device.runtime_version.to_string(),
            ),
            (
                "CUDA_EMU_BOUNDS_CHECK".to_string(),
                if self.options.bounds_check { "1" } else { "0" }.to_string(),
            ),
        ]
    }

    /// Writes the embedded shim into `emulate/shim-<hash>/` once.
    fn install_shim(&self) -> Result<PathBuf, EmulateError> {
        let dir = self.root.join(format!("shim-{}", self.shim_hash));
        cache::install(&dir, |staging| {
            for file in SHIM_FILES {
                let path = staging.join(file.name);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(EmulateError::io("creating", parent))?;
                }
                std::fs::write(&path, file.text).map_err(EmulateError::io("writing", &path))?;
            }
            Ok::<(), EmulateError>(())
        })?;
        Ok(dir)
    }

    /// Compiles the shim's runtime sources once per shim, compiler and flags;
    /// returns the objects to link.
    /// Where the runtime's objects are (or will be) and the commands that
    /// build them; nothing is built here.
    fn runtime_plan(&self, shim_dir: &Path) -> RuntimePlan {
        let sources: Vec<&str> = SHIM_FILES
            .iter()
            .map(|file| file.name)
            .filter(|name| name.ends_with(".cpp"))
            .collect();
        let mut commands = Vec::new();
        for source in &sources {
            let mut args = self.common_args(shim_dir);
            args.push(OsString::from("-c"));
            args.push(shim_dir.join(source).into_os_string());
            args.push(OsString::from("-o"));
            args.push(OsString::from(object_name(source)));
            commands.push(args);
        }
        let mut key = Fingerprint::new(BUILD_SCHEME);
        key.add("shim", self.shim_hash.as_bytes());
        key.add(
            "compiler",
            self.compiler.program.as_os_str().as_encoded_bytes(),
        );
        key.add("compiler version", self.compiler.version.as_bytes());
        for args in &commands {
            key.add(
                "command",
                display_command(&self.compiler.program, args).as_bytes(),
            );
        }
        let entry = self.root.join(format!("runtime-{}", key.finish()));
        let objects = sources
            .iter()
            .map(|source| entry.join(object_name(source)))
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
                let command = display_command(&self.compiler.program, args);
                log::info!("emulate: building the runtime: {command}");
                let output = self.run_compiler(dir, args)?;
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

    fn run_compiler(
        &self,
        dir: &Path,
        args: &[OsString],
    ) -> Result<std::process::Output, EmulateError> {
        Command::new(&self.compiler.program)
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(EmulateError::io(
                "running the C++ compiler",
                &self.compiler.program,
            ))
    }
}

/// `cuda_emu.cpp` -> `cuda_emu.o`.
fn object_name(source: &str) -> String {
    format!("{}.o", source.strip_suffix(".cpp").unwrap_or(source))
}

/// A hash of the embedded shim's file names and contents.
fn shim_hash() -> String {
    let mut fingerprint = Fingerprint::new("shim");
    for file in SHIM_FILES {
        fingerprint.add(file.name, file.text.as_bytes());
    }
    fingerprint.finish()
}

/// The flags every emulated program and the runtime are compiled with.
fn compiler_flags(fma: bool) -> Vec<String> {
    let mut flags = vec!["-std=gnu++17", "-O2"];
    if fma {
        flags.push("-march=x86-64-v3");
    }
    flags.extend(["-fno-strict-aliasing", "-fno-builtin-printf"]);
    flags.into_iter().map(String::from).collect()
}

/// Whether `/proc/cpuinfo` text lists both `fma` and `avx2` among the flags.
fn has_fma_and_avx2(cpuinfo: &str) -> bool {
    cpuinfo
        .lines()
        .find(|line| line.starts_with("flags"))
        .and_then(|line| line.split_once(':'))
        .is_some_and(|(_, flags)| {
            let words: Vec<&str> = flags.split_whitespace().collect();
            words.contains(&"fma") && words.contains(&"avx2")
        })
}

/// Finds the compiler: `explicit`, else `$CXX` (a program and arguments
/// separated by spaces), else `g++`, else `c++` on `path_var`.
fn find_compiler(
    explicit: Option<&Path>,
    cxx: Option<OsString>,
    path_var: Option<OsString>,
) -> Result<Compiler, EmulateError> {
    let search = |program: &Path| -> Option<PathBuf> {
        if program.components().count() > 1 {
            return program
                .is_file()
                .then(|| std::path::absolute(program).ok())
                .flatten();
        }
        std::env::split_paths(path_var.as_deref().unwrap_or_default())
            .map(|dir| dir.join(program))
            .find(|candidate| is_executable(candidate))
    };
    let (program, leading_args) = if let Some(explicit) = explicit {
        let found = search(explicit).ok_or_else(|| EmulateError::CompilerNotFound {
            searched: format!("`{}`, as configured", explicit.display()),
        })?;
        (found, Vec::new())
    } else if let Some(cxx) = cxx {
        let cxx = cxx.to_string_lossy().into_owned();
        let mut words = cxx.split_whitespace().map(String::from);
        let name = words.next().unwrap_or_default();
        let found = search(Path::new(&name)).ok_or_else(|| EmulateError::CompilerNotFound {
            searched: format!("`{cxx}` from $CXX"),
        })?;
        (found, words.collect())
    } else {
        let found = ["g++", "c++"]
            .iter()
            .find_map(|name| search(Path::new(name)))
            .ok_or_else(|| EmulateError::CompilerNotFound {
                searched: "$CXX (unset), `g++` and `c++` on $PATH".to_string(),
            })?;
        (found, Vec::new())
    };
    let output = Command::new(&program)
        .args(&leading_args)
        .arg("--version")
        .output()
        .map_err(|error| EmulateError::CompilerBroken {
            compiler: program.clone(),
            reason: error.to_string(),
        })?;
    if !output.status.success() {
        return Err(EmulateError::CompilerBroken {
            compiler: program,
            reason: compiler_messages(&output),
        });
    }
    Ok(Compiler {
        program,
        leading_args,
        version: String::from_utf8_lossy(&output.stdout).into_owned(),
    })
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// What the compiler said: stderr, and stdout when it printed there.
fn compiler_messages(output: &std::process::Output) -> String {
    let mut messages = String::from_utf8_lossy(&output.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !stdout.trim().is_empty() {
        messages.push_str(&stdout);
    }
    if messages.trim().is_empty() {
        messages = format!(
            "(the compiler printed nothing; it exited with {})",
            output.status
        );
    }
    messages
}

/// A command line a human can paste into a shell.
fn display_command(program: &Path, args: &[OsString]) -> String {
    let mut line = shell_word(program.as_os_str());
    for arg in args {
        line.push(' ');
        line.push_str(&shell_word(arg));
    }
    line
}

fn shell_word(word: &OsStr) -> String {
    let word = word.to_string_lossy();
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@%".contains(c));
    if plain {
        word.into_owned()
    } else {
        let mut quoted = String::from("'");
        for c in word.chars() {
            if c == '\'' {
                quoted.push_str("'\\''");
            } else {
                quoted.push(c);
            }
        }
        quoted.push('\'');
        quoted
    }
}

/// A header the program includes with `"..."`, found beside it.
#[derive(Debug)]
struct LocalHeader {
    /// Where it goes beside the rewritten program, relative to the program.
    relative_path: PathBuf,
    /// Its rewritten text, or its bytes as they are when it cannot be
    /// placed beside the program (a path with `..`): then g++ finds the
    /// original through `-iquote`, and its content only keys the cache.
    content: Vec<u8>,
    rewritten: bool,
}

/// The local headers `main` includes, directly or through each other,
/// rewritten like the program itself. Headers that do not exist beside the
/// program are left to the compiler to find or report.
fn local_headers(source: &Path, main: &RewrittenSource) -> Result<Vec<LocalHeader>, EmulateError> {
    let base = source.parent().unwrap_or(Path::new(""));
    let mut headers = Vec::new();
    let mut seen = BTreeSet::new();
    let mut pending: Vec<(PathBuf, String)> = main
        .local_includes
        .iter()
        .map(|name| (PathBuf::new(), name.clone()))
        .collect();
    while let Some((includer_dir, name)) = pending.pop() {
        let Some(relative_path) = normal_relative(&includer_dir.join(&name)) else {
            let path = base.join(&includer_dir).join(&name);
            if seen.insert(path.clone())
                && let Ok(content) = std::fs::read(&path)
            {
                headers.push(LocalHeader {
                    relative_path: path,
                    content,
                    rewritten: false,
                });
            }
            continue;
        };
        if !seen.insert(relative_path.clone()) {
            continue;
        }
        let path = base.join(&relative_path);
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path)
            .map_err(EmulateError::io("reading the header", &path))?;
        let rewritten = rewrite::rewrite(&path, &text)?;
        let dir = relative_path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        pending.extend(
            rewritten
                .local_includes
                .iter()
                .map(|name| (dir.clone(), name.clone())),
        );
        headers.push(LocalHeader {
            relative_path,
            content: rewritten.cpp.into_bytes(),
            rewritten: true,
        });
    }
    headers.sort_by(|a, b| a.relative_path.cmp(&b.relative_path));
    Ok(headers)
}

/// `path` with `.` removed, when it stays below its starting directory.
fn normal_relative(path: &Path) -> Option<PathBuf> {
    let mut normal = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => normal.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!normal.as_os_str().is_empty()).then_some(normal)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    struct Fixture {
        dir: tempfile::TempDir,
        compiler: PathBuf,
    }

    impl Fixture {
        #[cfg(unix)]
        fn new() -> Self {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let compiler = dir.path().join("bin/fake-c++");
            std::fs::create_dir_all(compiler.parent().unwrap()).unwrap();
            std::fs::write(&compiler, FAKE_COMPILER).unwrap();
            std::fs::set_permissions(&compiler, std::fs::Permissions::from_mode(0o755)).unwrap();
            Self { dir, compiler }
        }

        fn emulator(&self) -> Emulator {
            let options = EmulatorOptions {
                compiler: Some(self.compiler.clone()),
                ..EmulatorOptions::default()
            };
            Emulator::new(self.dir.path().join("cache"), options).unwrap()
        }

        fn write(&self, name: &str, text: &str) -> PathBuf {
            let path = self.dir.path().join("src").join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            path
        }

        /// The compiler calls so far, `--version` aside.
        fn calls(&self) -> Vec<String> {
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
        let calls = fixture.calls();
        // The runtime object and the program's object (in parallel, in
        // either order), then the link.
        assert_eq!(calls.len(), 3, "{calls:?}");
        assert!(
            calls[..2]
                .iter()
                .any(|c| c.contains("cuda_emu.cpp") && c.ends_with("-o cuda_emu.o")),
            "{calls:?}"
        );
        // The program compiles from the caller's directory, naming the
        // entry's files by absolute paths (see `from_callers_dir`).
        assert!(
            calls[..2]
                .iter()
                .any(|c| c.contains("/k.cpp -c -o /") && c.ends_with("/k.o")),
            "{calls:?}"
        );
        assert!(
            calls[2].contains("k.o") && calls[2].ends_with("-o k -lpthread"),
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
            3,
            "no compiler call for a cached program"
        );

        // A fresh emulator on the same cache finds it too.
        assert!(fixture.emulator().compile(&source).unwrap().cached);
        assert_eq!(fixture.calls().len(), 3);
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
        assert_eq!(calls.len(), 5, "{calls:?}");
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
            },
        )
        .unwrap();
        assert!(unchecked.compile(&source).unwrap().cached);
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
        // The failed program was tried again, not cached as a failure.
        assert_eq!(fixture.calls().len(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn refused_programs_never_reach_the_compiler() {
        let fixture = Fixture::new();
        let source = fixture.write("k.cu", "__device__ void f() {\n  asm(\"trap;\");\n}\n");
        let error = fixture.emulator().compile(&source).unwrap_err();
        assert!(
            matches!(
                &error,
                EmulateError::Rewrite(RewriteError::Unsupported {
                    line: 2,
                    column: 3,
                    feature: UnsupportedFeature::InlineAssembly,
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

    #[test]
    fn a_missing_compiler_is_reported_with_what_was_tried() {
        let error = find_compiler(Some(Path::new("/nonexistent/c++")), None, None).unwrap_err();
        assert!(
            matches!(error, EmulateError::CompilerNotFound { .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("/nonexistent/c++"), "{error}");

        let error = find_compiler(
            None,
            Some("no-such-cxx -m64".into()),
            Some("/nonexistent".into()),
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("`no-such-cxx -m64` from $CXX"),
            "{error}"
        );

        let error = find_compiler(None, None, Some("/nonexistent".into())).unwrap_err();
        assert!(
            error.to_string().contains("`g++` and `c++` on $PATH"),
            "{error}"
        );
        assert!(
            error.to_string().contains("install g++ or set $CXX"),
            "{error}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn cxx_may_carry_arguments() {
        let fixture = Fixture::new();
        let bin = fixture.compiler.parent().unwrap().as_os_str().to_owned();
        let compiler = find_compiler(None, Some("fake-c++ -m64".into()), Some(bin)).unwrap();
        assert_eq!(compiler.program, fixture.compiler);
        assert_eq!(compiler.leading_args, vec!["-m64"]);
        assert!(compiler.version.starts_with("fake-c++ (Test) 1.0\n"));
    }

    #[test]
    fn flags_contract_multiply_adds_only_with_fma() {
        assert_eq!(
            compiler_flags(true),
            [
                "-std=gnu++17",
                "-O2",
                "-march=x86-64-v3",
                "-fno-strict-aliasing",
                "-fno-builtin-printf"
            ]
        );
        assert_eq!(
            compiler_flags(false),
            [
                "-std=gnu++17",
                "-O2",
                "-fno-strict-aliasing",
                "-fno-builtin-printf"
            ]
        );
        let cpuinfo = "processor\t: 0\nflags\t\t: fpu sse2 avx2 bmi2 fma\n";
        assert!(has_fma_and_avx2(cpuinfo));
        assert!(!has_fma_and_avx2("flags\t\t: fpu sse2 avx\n"));
        assert!(!has_fma_and_avx2("flags\t\t: fpu avx2 fma4\n"));
        assert!(!has_fma_and_avx2(""));
    }

    #[test]
    fn the_cache_dir_follows_the_environment() {
        let temp = PathBuf::from("/tmp");
        assert_eq!(
            cache_dir_from(
                Some("/c".into()),
                Some("/x".into()),
                Some("/h".into()),
                temp.clone()
            ),
            PathBuf::from("/c")
        );
        assert_eq!(
            cache_dir_from(None, Some("/x".into()), Some("/h".into()), temp.clone()),
            PathBuf::from("/x/mdbook-evidence")
        );
        assert_eq!(
            cache_dir_from(None, None, Some("/h".into()), temp.clone()),
            PathBuf::from("/h/.cache/mdbook-evidence")
        );
        assert_eq!(
            cache_dir_from(None, None, None, temp),
            PathBuf::from("/tmp/mdbook-evidence")
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_environment_describes_the_device_and_checks() {
        let fixture = Fixture::new();
        assert_eq!(
            fixture.emulator().environment(&DeviceProfile::h200()),
            [
                ("CUDA_EMU_DEVICE_NAME", "NVIDIA H200"),
                ("CUDA_EMU_CC", "9.0"),
                ("CUDA_EMU_RUNTIME_VERSION", "13000"),
                ("CUDA_EMU_BOUNDS_CHECK", "1"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
        );
    }

    #[test]
    fn commands_quote_what_a_shell_would_split() {
        let args = ["-I", "/a b/shim", "it's"].map(OsString::from);
        assert_eq!(
            display_command(Path::new("/usr/bin/g++"), &args),
            "/usr/bin/g++ -I '/a b/shim' 'it'\\''s'"
        );
    }

    #[test]
    fn every_shim_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/emulate/shim");
        // Files of the shim and of its subfolders (crt/), as `crt/name`.
        let mut on_disk = BTreeSet::new();
        let mut pending = vec![(dir.clone(), String::new())];
        while let Some((folder, prefix)) = pending.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let entry = entry.unwrap();
                let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
                if entry.file_type().unwrap().is_dir() {
                    pending.push((entry.path(), format!("{name}/")));
                } else {
                    on_disk.insert(name);
                }
            }
        }
        let embedded: BTreeSet<String> = SHIM_FILES.iter().map(|f| f.name.to_string()).collect();
        assert_eq!(embedded, on_disk, "update SHIM_FILES in src/emulate/mod.rs");
    }

    #[test]
    fn header_paths_stay_below_the_program() {
        assert_eq!(
            normal_relative(Path::new("./a/b.h")),
            Some(PathBuf::from("a/b.h"))
        );
        assert_eq!(normal_relative(Path::new("../b.h")), None);
        assert_eq!(normal_relative(Path::new("/b.h")), None);
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

    fn run_on_h200(emulator: &Emulator, compiled: &Compiled) -> std::process::Output {
        Command::new(&compiled.executable)
            .envs(emulator.environment(&DeviceProfile::h200()))
            .output()
            .unwrap()
    }

    #[test]
    fn the_testing_lesson_prints_what_the_h200_printed() {
        let cache = tempfile::tempdir().unwrap();
        let Some(emulator) = real_emulator(cache.path()) else {
            return;
        };
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/testing.cu");
        let compiled = emulator
            .compile(&source)
            .unwrap_or_else(|error| panic!("{error}"));
        assert!(!compiled.cached);
        let output = run_on_h200(&emulator, &compiled);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{}\n{stderr}", output.status);
        assert_eq!(stderr, "");
        let expected = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/h200/testing.stdout"),
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
        assert!(emulator.compile(&source).unwrap().cached);
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
