//! The C++ compiler the emulator builds with: finding it, asking its
//! version, and the flags chosen for agreement with nvcc.
//!
//! Flags are chosen for agreement with the GPU, not for speed:
//! `-std=gnu++17` (ISO `-std=c++17` turns off the contraction of `a*b + c`
//! into a fused multiply-add, which nvcc does by default), `-march=x86-64-v3`
//! when the CPU has FMA so that the contraction happens, with GCC
//! `--param=avoid-fma-max-bits=0` so that its tuning leaves no
//! `acc += a*b` chain unfused (g++ 13's does), never `-ffast-math`
//! (it reorders sums), `-fno-strict-aliasing` because CUDA code routinely
//! reads a `float` array through `float4` pointers, and `-fno-builtin-printf`
//! so that device `printf` stays a call the shim sees (g++ would turn some into
//! `puts`).
//!
//! Asking `--version` starts a process on every build, a large part of a
//! warm build's cost; the answer is remembered in the cache, keyed by the
//! compiler file's identity (its resolved path, size, modification time and
//! inode: an upgrade replaces the file), see [`find_compiler`].
//!
//! It does not decide what is compiled or where (that is the [`Emulator`]'s
//! orchestration in `mod.rs`), nor how builds are cached (`cache`).
//!
//! [`Emulator`]: super::Emulator

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use super::EmulateError;
use crate::backend::tools::find_program;

/// The C++ compiler, as found.
#[derive(Debug, Clone)]
pub(super) struct Compiler {
    /// Absolute path of the program.
    pub(super) program: PathBuf,
    /// Arguments that came with it in `$CXX` (e.g. `CXX="g++-12 -m64"`).
    pub(super) leading_args: Vec<String>,
    /// Its whole `--version` output, for cache keys.
    pub(super) version: String,
}

impl Compiler {
    /// The first line of its `--version`.
    pub(super) fn first_version_line(&self) -> &str {
        first_line(&self.version)
    }

    /// A warning for the program's user when this is not the compiler the
    /// emulator's fidelity was measured with (see [`unmeasured_compiler`]).
    pub(super) fn fidelity_warning(&self) -> Option<String> {
        unmeasured_compiler(&self.version)
    }

    /// The flags for this compiler on this machine: [`compiler_flags`], with
    /// FMA when the CPU has it.
    pub(super) fn flags_for_this_cpu(&self) -> Vec<String> {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        compiler_flags(
            cfg!(target_arch = "x86_64") && has_fma_and_avx2(&cpuinfo),
            is_gnu(&self.version),
        )
    }

    /// Runs the compiler with `args` in `dir`, capturing what it says.
    pub(super) fn run(
        &self,
        dir: &Path,
        args: &[OsString],
    ) -> Result<std::process::Output, EmulateError> {
        let done = crate::backend::exec::run(
            Command::new(&self.program).args(args).current_dir(dir),
            compile_timeout(),
        );
        let done = match done {
            Ok(done) => done,
            Err(crate::backend::exec::ExecError::Start { source, .. })
            | Err(crate::backend::exec::ExecError::Wait { source, .. })
            | Err(crate::backend::exec::ExecError::Read { source, .. }) => {
                return Err(EmulateError::io("running the C++ compiler", &self.program)(
                    source,
                ));
            }
        };
        Ok(output_of(done))
    }

    /// The command line that runs it with `args`, for humans and cache keys.
    pub(super) fn command_line(&self, args: &[OsString]) -> String {
        display_command(&self.program, args)
    }
}

/// How long one compile may take: `$MDBOOK_EVIDENCE_COMPILE_TIMEOUT`
/// seconds, else 600. A compile past it is killed (with every process the
/// compiler started) and fails, saying so.
pub(super) fn compile_timeout() -> Duration {
    let seconds = std::env::var("MDBOOK_EVIDENCE_COMPILE_TIMEOUT")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(600);
    Duration::from_secs(seconds)
}

/// A captured compiler run as a [`std::process::Output`]; a compile that
/// ran past [`compile_timeout`] fails with a line saying so on stderr.
fn output_of(done: crate::backend::exec::Captured) -> std::process::Output {
    use crate::evidence::Termination;
    let mut stderr = done.stderr;
    let raw = match done.termination {
        Termination::Exited(code) => (code & 0xff) << 8,
        Termination::Signaled(signal) => signal & 0x7f,
        Termination::TimedOut => {
            stderr.extend_from_slice(
                format!(
                    "mdbook-evidence: the C++ compiler ran past {} s and was killed \
                     (set MDBOOK_EVIDENCE_COMPILE_TIMEOUT to allow more)\n",
                    compile_timeout().as_secs()
                )
                .as_bytes(),
            );
            libc::SIGKILL
        }
    };
    #[cfg(unix)]
    let status = std::os::unix::process::ExitStatusExt::from_raw(raw);
    std::process::Output {
        status,
        stdout: done.stdout,
        stderr,
    }
}

/// The flags every emulated program and the runtime are compiled with, on
/// a CPU with or without `fma`, by GCC (`gnu`) or another compiler.
///
/// GCC's tuning (`-mtune=generic` since GCC 13) may leave a chain of
/// dependent multiply-adds unfused, to avoid the FMA unit's latency; nvcc
/// fuses every one, so `--param=avoid-fma-max-bits=0` turns that off
/// (measured: with g++ 13.3 the probes `multicore_matmul`, `pipeline_block`
/// and `pipeline_thread` differed from the H200 without it and match with it).
///
/// GCC's basic-block (SLP) vectorizer turns `x.re*y.re - x.im*y.im` beside
/// `x.re*y.im + x.im*y.re` into one `vfmaddsub` with FMA available, ignoring
/// `-ffp-contract=off` (g++ 12.2: a complex product in host code came out
/// fused, 2^-54 where nvcc's host compiler gives 0, the test
/// `host_code_rounds_the_products_of_a_complex_multiply`), so GCC builds
/// without it (`-fno-tree-slp-vectorize`); device code still contracts
/// through the scalar `fp-contract=fast` of `__device__`.
fn compiler_flags(fma: bool, gnu: bool) -> Vec<String> {
    let mut flags = vec!["-std=gnu++17", "-O2"];
    if fma {
        flags.push("-march=x86-64-v3");
        if gnu {
            flags.extend(["--param=avoid-fma-max-bits=0", "-fno-tree-slp-vectorize"]);
        }
    }
    flags.extend(["-fno-strict-aliasing", "-fno-builtin-printf"]);
    flags.into_iter().map(String::from).collect()
}

/// Whether a `--version` text is GCC's (g++, or Debian's `c++` link to
/// it), whose options the flags may use.
fn is_gnu(version: &str) -> bool {
    let line = first_line(version);
    line.contains("g++") || line.contains("(GCC)") || version.contains("Free Software Foundation")
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
/// separated by spaces), else `g++`, else `c++` on `path_var`; and asks its
/// version, or finds the answer remembered under `versions` (a folder of the
/// cache) for this very compiler file.
pub(super) fn find_compiler(
    explicit: Option<&Path>,
    cxx: Option<OsString>,
    path_var: Option<OsString>,
    versions: Option<&Path>,
) -> Result<Compiler, EmulateError> {
    let search = |program: &Path| find_program(program, path_var.as_deref());
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
    let remembered = versions.and_then(|dir| Some(dir.join(identity(&program, &leading_args)?)));
    if let Some(version) = remembered
        .as_deref()
        .and_then(|file| std::fs::read_to_string(file).ok())
        .filter(|version| !version.is_empty())
    {
        return Ok(Compiler {
            program,
            leading_args,
            version,
        });
    }
    let output = crate::backend::exec::run(
        Command::new(&program).args(&leading_args).arg("--version"),
        Duration::from_secs(60),
    )
    .map(output_of)
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
    let version = String::from_utf8_lossy(&output.stdout).into_owned();
    if let Some(file) = remembered {
        let _ = crate::sources::files::write_atomically(&file, version.as_bytes());
    }
    Ok(Compiler {
        program,
        leading_args,
        version,
    })
}

/// A name for this compiler file as it is now: a new file (an upgrade,
/// another target of a link) or other leading arguments give another name.
/// `None` when the file cannot be inspected (then nothing is remembered).
fn identity(program: &Path, leading_args: &[String]) -> Option<String> {
    let resolved = std::fs::canonicalize(program).ok()?;
    let meta = std::fs::metadata(&resolved).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    let mut key = super::cache::Fingerprint::new("compiler version");
    key.add("path", resolved.as_os_str().as_encoded_bytes());
    key.add("size", &meta.len().to_le_bytes());
    key.add("modified", &modified.as_nanos().to_le_bytes());
    #[cfg(unix)]
    key.add(
        "inode",
        &std::os::unix::fs::MetadataExt::ino(&meta).to_le_bytes(),
    );
    for arg in leading_args {
        key.add("argument", arg.as_bytes());
    }
    Some(key.finish())
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// What the compiler said: stderr, and stdout when it printed there.
pub(super) fn compiler_messages(output: &std::process::Output) -> String {
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

/// A command line a human can paste into a shell, each word quoted by
/// `shell_words`. That crate quotes any word holding an `=` (at the start of
/// a line it would be a variable assignment); after the program it is plain,
/// so each side of a flag's `=` is quoted on its own and `-std=gnu++17`
/// reads as typed.
fn display_command(program: &Path, args: &[OsString]) -> String {
    std::iter::once(program.as_os_str())
        .chain(args.iter().map(OsString::as_os_str))
        .map(shell_word)
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_word(word: &OsStr) -> String {
    let word = word.to_string_lossy();
    if word.is_empty() {
        return shell_words::quote("").into_owned();
    }
    word.split('=')
        .map(|part| {
            if part.is_empty() {
                part.into()
            } else {
                shell_words::quote(part)
            }
        })
        .collect::<Vec<_>>()
        .join("=")
}

/// The compilers the emulator's bit-exactness was measured with: the H200
/// probes of `tests/cuda` and the cuda-samples conformance set
/// (`tests/conformance`) come out identical with g++ 12 (this machine and
/// CI) and with g++ 13.3 (the GPU host, 2026-12-02). g++ 13 differed on
/// dct8x8, scalarProd and three probes until [`compiler_flags`] turned off
/// its avoidance of FMA chains; a build with any other compiler says so,
/// instead of differing without a word.
pub(super) const MEASURED_COMPILER: &str = "g++ 12 or 13";

/// The GCC major versions of [`MEASURED_COMPILER`].
const MEASURED_GCC_MAJORS: [&str; 2] = ["12", "13"];

/// The warning for a compiler whose `--version` text is `version`, or
/// `None` for a measured one (GCC, major version 12 or 13).
pub(super) fn unmeasured_compiler(version: &str) -> Option<String> {
    let line = first_line(version);
    let major = line
        .split_whitespace()
        .last()
        .and_then(|version| version.split('.').next());
    if is_gnu(version) && major.is_some_and(|major| MEASURED_GCC_MAJORS.contains(&major)) {
        return None;
    }
    Some(format!(
        "the CPU emulator's agreement with the H200 was measured with {MEASURED_COMPILER}; this \
         build uses `{line}`, with which the floating-point results of CUDA code may differ \
         from the H200's in their last digits; set CXX to a g++ 12 or 13 for results measured \
         against the GPU"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emulate::tests::Fixture;

    #[test]
    fn only_g_plus_plus_12_and_13_are_measured_compilers() {
        assert_eq!(
            unmeasured_compiler("g++ (Debian 12.2.0-14+deb12u1) 12.2.0"),
            None
        );
        assert_eq!(unmeasured_compiler("g++-12 (GCC) 12.3.1"), None);
        assert_eq!(
            unmeasured_compiler("g++ (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0"),
            None
        );
        // The whole `--version` text, as the compiler prints it.
        assert_eq!(
            unmeasured_compiler(
                "c++ (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022 Free Software \
                 Foundation, Inc.\nThis is free software; see the source for copying \
                 conditions.  There is NO\nwarranty; not even for MERCHANTABILITY or FITNESS \
                 FOR A PARTICULAR PURPOSE.\n"
            ),
            None
        );
        for other in [
            "g++ (GCC) 14.2.1",
            "g++ (GCC) 11.4.0",
            "clang version 13.0.0",
            "Ubuntu clang version 18.1.3 (1ubuntu1)",
            "fake-c++ (Test) 1.0",
        ] {
            let warning = unmeasured_compiler(other).expect(other);
            assert!(warning.contains(first_line(other)), "{warning}");
            assert!(warning.contains("g++ 12 or 13"), "{warning}");
        }
    }

    #[test]
    fn gcc_is_known_by_its_version_text() {
        assert!(is_gnu("g++ (Ubuntu 13.3.0-6ubuntu2~24.04.1) 13.3.0\n"));
        assert!(is_gnu(
            "c++ (Debian 12.2.0-14+deb12u1) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n"
        ));
        assert!(!is_gnu(
            "Ubuntu clang version 18.1.3 (1ubuntu1)\nTarget: x86_64-pc-linux-gnu\n"
        ));
        assert!(!is_gnu("fake-c++ (Test) 1.0\n"));
    }

    #[test]
    fn a_missing_compiler_is_reported_with_what_was_tried() {
        let error =
            find_compiler(Some(Path::new("/nonexistent/c++")), None, None, None).unwrap_err();
        assert!(
            matches!(error, EmulateError::CompilerNotFound { .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("/nonexistent/c++"), "{error}");

        let error = find_compiler(
            None,
            Some("no-such-cxx -m64".into()),
            Some("/nonexistent".into()),
            None,
        )
        .unwrap_err();
        assert!(
            error.to_string().contains("`no-such-cxx -m64` from $CXX"),
            "{error}"
        );

        let error = find_compiler(None, None, Some("/nonexistent".into()), None).unwrap_err();
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
        let compiler = find_compiler(None, Some("fake-c++ -m64".into()), Some(bin), None).unwrap();
        assert_eq!(compiler.program, fixture.compiler);
        assert_eq!(compiler.leading_args, vec!["-m64"]);
        assert!(compiler.version.starts_with("fake-c++ (Test) 1.0\n"));
    }

    #[cfg(unix)]
    #[test]
    fn the_version_is_remembered_for_the_same_compiler_file_only() {
        let fixture = Fixture::new();
        let versions = tempfile::tempdir().unwrap();
        let find = || {
            find_compiler(Some(&fixture.compiler), None, None, Some(versions.path()))
                .unwrap()
                .version
        };
        assert!(find().starts_with("fake-c++ (Test) 1.0\n"));
        assert_eq!(std::fs::read_dir(versions.path()).unwrap().count(), 1);
        // Remembered: the answer no longer comes from running the compiler.
        let remembered = std::fs::read_dir(versions.path())
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        std::fs::write(&remembered, "remembered 9.9\n").unwrap();
        assert_eq!(find(), "remembered 9.9\n");
        // An upgrade (a new compiler file) is asked again.
        let script = std::fs::read_to_string(&fixture.compiler).unwrap();
        std::fs::remove_file(&fixture.compiler).unwrap();
        std::fs::write(&fixture.compiler, script.replace("1.0", "2.0")).unwrap();
        std::fs::set_permissions(
            &fixture.compiler,
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        assert!(find().starts_with("fake-c++ (Test) 2.0\n"), "{}", find());
    }

    #[test]
    fn flags_contract_multiply_adds_only_with_fma() {
        assert_eq!(
            compiler_flags(true, true),
            [
                "-std=gnu++17",
                "-O2",
                "-march=x86-64-v3",
                "--param=avoid-fma-max-bits=0",
                "-fno-tree-slp-vectorize",
                "-fno-strict-aliasing",
                "-fno-builtin-printf"
            ]
        );
        assert_eq!(
            compiler_flags(true, false),
            [
                "-std=gnu++17",
                "-O2",
                "-march=x86-64-v3",
                "-fno-strict-aliasing",
                "-fno-builtin-printf"
            ]
        );
        for gnu in [true, false] {
            assert_eq!(
                compiler_flags(false, gnu),
                [
                    "-std=gnu++17",
                    "-O2",
                    "-fno-strict-aliasing",
                    "-fno-builtin-printf"
                ]
            );
        }
        let cpuinfo = "processor\t: 0\nflags\t\t: fpu sse2 avx2 bmi2 fma\n";
        assert!(has_fma_and_avx2(cpuinfo));
        assert!(!has_fma_and_avx2("flags\t\t: fpu sse2 avx\n"));
        assert!(!has_fma_and_avx2("flags\t\t: fpu avx2 fma4\n"));
        assert!(!has_fma_and_avx2(""));
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
    fn flags_keep_their_equals_sign_plain() {
        let args = ["-std=gnu++17", "-DNAME=a b", "-D=", ""].map(OsString::from);
        assert_eq!(
            display_command(Path::new("g++"), &args),
            "g++ -std=gnu++17 -DNAME='a b' -D= ''"
        );
    }
}
