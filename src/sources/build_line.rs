//! A program's nvcc command line, read the way nvcc reads it: which source
//! files make the program, and which flags matter when it is built for the
//! CPU instead (include folders, macros, forced includes, the language
//! standard, host libraries).
//!
//! The same reading serves the `// Build:` line of a lesson and the words
//! given to `mdbook-evidence run a.cu b.cpp -I ../Common`. Device-only flags
//! (`-arch`, `-gencode`, `-lineinfo`, `-rdc`...) are accepted and left to the
//! GPU build; a flag that would change what the program computes on the CPU
//! and that we cannot honour is an error naming it, rather than a build that
//! silently differs. Hand-written: nvcc's options are a fixed, documented
//! list, and all we need is to sort them.

use std::fmt;

/// What nvcc would build, as far as a CPU build needs to know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NvccCommand {
    /// Source files (`.cu`, `.cpp`, `.cc`, `.cxx`, `.c`), as written:
    /// relative to the folder nvcc runs in (the program's folder).
    pub sources: Vec<String>,
    /// `-I DIR`, in order.
    pub include_dirs: Vec<String>,
    /// `-isystem DIR`, in order.
    pub system_include_dirs: Vec<String>,
    /// `-D NAME[=VALUE]` and `-U NAME`, in order, as `-DNAME...`/`-UNAME`.
    pub macros: Vec<String>,
    /// `-include FILE`.
    pub forced_includes: Vec<String>,
    /// `-std=c++17` and the like, as given.
    pub std: Option<String>,
    /// `-x cu`: every source is CUDA, whatever its extension.
    pub all_cuda: bool,
    /// `-lNAME`.
    pub libraries: Vec<String>,
    /// `-L DIR`.
    pub library_dirs: Vec<String>,
    /// `-o FILE`.
    pub output: Option<String>,
    /// What was accepted but means something different on the CPU
    /// (`--use_fast_math`), for a note to the user.
    pub notes: Vec<String>,
}

/// A word of an nvcc line that cannot be honoured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildLineError {
    #[error("`{flag}` needs a value after it")]
    MissingValue { flag: String },
    #[error(
        "`{flag}` is not an nvcc option this tool knows; remove it, or build and run the program on a GPU with nvcc"
    )]
    UnknownFlag { flag: String },
    #[error("`-x {language}`: only `-x cu` is understood")]
    Language { language: String },
    #[error("no source file (`.cu`, `.cpp`, `.c`) among the words")]
    NoSource,
}

/// Flags that take a value in the next word (or after `=`), and only
/// matter on the GPU or for nvcc itself.
const DEVICE_FLAGS_WITH_VALUE: &[&str] = &[
    "-arch",
    "--gpu-architecture",
    "-code",
    "--gpu-code",
    "-gencode",
    "--generate-code",
    "-ccbin",
    "--compiler-bindir",
    "-Xcompiler",
    "--compiler-options",
    "-Xptxas",
    "--ptxas-options",
    "-Xlinker",
    "--linker-options",
    "-Xnvlink",
    "-maxrregcount",
    "--maxrregcount",
    "-rdc",
    "--relocatable-device-code",
    "-cudart",
    "--cudart",
    "-t",
    "--threads",
    "-diag-suppress",
    "--diag-suppress",
    "-fmad",
    "--fmad",
];

/// Flags without a value that only matter on the GPU or for nvcc's own
/// output (optimisation levels and warnings included: the CPU build has its
/// own, chosen for agreement with nvcc).
const DEVICE_FLAGS: &[&str] = &[
    "-lineinfo",
    "--generate-line-info",
    "-G",
    "--device-debug",
    "-g",
    "--debug",
    "-dc",
    "--device-c",
    "-m64",
    "-w",
    "--disable-warnings",
    "--expt-relaxed-constexpr",
    "--extended-lambda",
    "--expt-extended-lambda",
    "-extended-lambda",
    "-lcuda",
    "-lcudart",
    "-Werror",
    "-Wall",
    "-Wextra",
    "--keep",
    "-keep",
    "--resource-usage",
    "-res-usage",
    "-v",
    "--verbose",
];

fn is_source(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    [".cu", ".cpp", ".cc", ".cxx", ".c", ".cu.cc"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

impl NvccCommand {
    /// Reads the words after `nvcc`.
    pub fn parse(words: &[String]) -> Result<NvccCommand, BuildLineError> {
        let mut command = NvccCommand::default();
        let mut words = words.iter().map(String::as_str);
        let value_of = |flag: &str, attached: &str, words: &mut dyn Iterator<Item = &str>| {
            if attached.is_empty() {
                words
                    .next()
                    .map(str::to_string)
                    .ok_or_else(|| BuildLineError::MissingValue {
                        flag: flag.to_string(),
                    })
            } else {
                Ok(attached.trim_start_matches('=').to_string())
            }
        };
        while let Some(word) = words.next() {
            let (name, attached) = match word.split_once('=') {
                Some((name, value)) if name.starts_with("--") || name == "-std" => (name, value),
                _ => (word, ""),
            };
            match name {
                "-o" | "--output-file" => {
                    command.output = Some(value_of(name, attached, &mut words)?);
                }
                "-I" | "--include-path" => {
                    command
                        .include_dirs
                        .push(value_of(name, attached, &mut words)?);
                }
                "-isystem" | "--system-include" => command
                    .system_include_dirs
                    .push(value_of(name, attached, &mut words)?),
                "-D" | "--define-macro" => command
                    .macros
                    .push(format!("-D{}", value_of(name, attached, &mut words)?)),
                "-U" | "--undefine-macro" => command
                    .macros
                    .push(format!("-U{}", value_of(name, attached, &mut words)?)),
                "-include" | "--pre-include" => command
                    .forced_includes
                    .push(value_of(name, attached, &mut words)?),
                "-L" | "--library-path" => command
                    .library_dirs
                    .push(value_of(name, attached, &mut words)?),
                "-l" | "--library" => command
                    .libraries
                    .push(value_of(name, attached, &mut words)?),
                "-x" | "--x" => {
                    let language = value_of(name, attached, &mut words)?;
                    if language != "cu" {
                        return Err(BuildLineError::Language { language });
                    }
                    command.all_cuda = true;
                }
                "-std" | "--std" => command.std = Some(value_of(name, attached, &mut words)?),
                "--use_fast_math" | "-use_fast_math" => command.notes.push(
                    "--use_fast_math only changes GPU code (fast intrinsics, flushed denormals); \
                     the CPU build keeps IEEE arithmetic, so results can differ from such a GPU run"
                        .to_string(),
                ),
                _ if DEVICE_FLAGS.contains(&name) => {}
                _ if DEVICE_FLAGS_WITH_VALUE.contains(&name) => {
                    value_of(name, attached, &mut words)?;
                }
                _ if word.starts_with("-arch=")
                    || word.starts_with("-code=")
                    || word.starts_with("-gencode=")
                    || word.starts_with("-rdc=")
                    || word.starts_with("-maxrregcount=")
                    || word.starts_with("-Xcompiler=") => {}
                _ if word.starts_with("-O") && word.len() <= 3 => {}
                _ if word.starts_with("-I") => command.include_dirs.push(word[2..].to_string()),
                _ if word.starts_with("-D") => command.macros.push(word.to_string()),
                _ if word.starts_with("-U") => command.macros.push(word.to_string()),
                _ if word.starts_with("-L") => command.library_dirs.push(word[2..].to_string()),
                _ if word.starts_with("-l") => command.libraries.push(word[2..].to_string()),
                _ if word.starts_with("-o") => command.output = Some(word[2..].to_string()),
                _ if word.starts_with('-') => {
                    return Err(BuildLineError::UnknownFlag {
                        flag: word.to_string(),
                    });
                }
                _ if is_source(word) => command.sources.push(word.to_string()),
                _ if word.ends_with(".o") || word.ends_with(".a") => {
                    return Err(BuildLineError::UnknownFlag {
                        flag: word.to_string(),
                    });
                }
                _ => {
                    return Err(BuildLineError::UnknownFlag {
                        flag: word.to_string(),
                    });
                }
            }
        }
        if command.sources.is_empty() {
            return Err(BuildLineError::NoSource);
        }
        Ok(command)
    }

    /// Whether `source` (one of [`NvccCommand::sources`]) is CUDA code.
    pub fn is_cuda(&self, source: &str) -> bool {
        self.all_cuda || source.to_ascii_lowercase().ends_with(".cu")
    }
}

impl fmt::Display for NvccCommand {
    /// The command again, as an nvcc line (for messages and a synthesised
    /// `// Build:` line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = vec!["nvcc".into()];
        if let Some(std) = &self.std {
            words.push(format!("-std={std}"));
        }
        if self.all_cuda {
            words.extend(["-x".into(), "cu".into()]);
        }
        for dir in &self.include_dirs {
            words.extend(["-I".into(), dir.clone()]);
        }
        for dir in &self.system_include_dirs {
            words.extend(["-isystem".into(), dir.clone()]);
        }
        words.extend(self.macros.iter().cloned());
        for file in &self.forced_includes {
            words.extend(["-include".into(), file.clone()]);
        }
        if let Some(output) = &self.output {
            words.extend(["-o".into(), output.clone()]);
        }
        words.extend(self.sources.iter().cloned());
        for dir in &self.library_dirs {
            words.push(format!("-L{dir}"));
        }
        for lib in &self.libraries {
            words.push(format!("-l{lib}"));
        }
        f.write_str(&shell_words::join(&words))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<NvccCommand, BuildLineError> {
        NvccCommand::parse(&shell_words::split(line).unwrap())
    }

    #[test]
    fn sources_and_the_flags_that_matter_on_the_cpu() {
        let c = parse(
            "-std=c++17 -O3 -arch=sm_90 -lineinfo -gencode arch=compute_90,code=sm_90 \
             -I ../Common -I../inc -isystem /opt/x -DN=4 -D FAST -UOLD -include pre.h \
             -o app main.cu helper.cpp util.c -L/usr/lib -lm -l pthread",
        )
        .unwrap();
        assert_eq!(c.sources, ["main.cu", "helper.cpp", "util.c"]);
        assert_eq!(c.include_dirs, ["../Common", "../inc"]);
        assert_eq!(c.system_include_dirs, ["/opt/x"]);
        assert_eq!(c.macros, ["-DN=4", "-DFAST", "-UOLD"]);
        assert_eq!(c.forced_includes, ["pre.h"]);
        assert_eq!(c.std.as_deref(), Some("c++17"));
        assert_eq!(c.output.as_deref(), Some("app"));
        assert_eq!(c.libraries, ["m", "pthread"]);
        assert_eq!(c.library_dirs, ["/usr/lib"]);
        assert!(c.is_cuda("main.cu") && !c.is_cuda("helper.cpp"));
        assert!(c.notes.is_empty());
    }

    #[test]
    fn device_only_flags_are_accepted_and_fast_math_is_noted() {
        let c = parse("-x cu -rdc=true --use_fast_math -Xcompiler -fopenmp -G a.cpp").unwrap();
        assert!(c.all_cuda && c.is_cuda("a.cpp"));
        assert_eq!(c.notes.len(), 1);
        assert!(c.notes[0].contains("--use_fast_math"));
    }

    #[test]
    fn what_cannot_be_honoured_is_named() {
        assert_eq!(
            parse("--frobnicate a.cu").unwrap_err(),
            BuildLineError::UnknownFlag {
                flag: "--frobnicate".into()
            }
        );
        assert_eq!(
            parse("a.cu -I").unwrap_err(),
            BuildLineError::MissingValue { flag: "-I".into() }
        );
        assert_eq!(parse("-O3 -o x").unwrap_err(), BuildLineError::NoSource);
        assert!(matches!(
            parse("-x c++ a.cpp").unwrap_err(),
            BuildLineError::Language { .. }
        ));
    }

    #[test]
    fn it_writes_itself_back_as_an_nvcc_line() {
        let c = parse("-I ../Common -o app a.cu b.cpp").unwrap();
        assert_eq!(c.to_string(), "nvcc -I ../Common -o app a.cu b.cpp");
        assert_eq!(parse(&c.to_string()[5..]).unwrap(), c);
    }
}
