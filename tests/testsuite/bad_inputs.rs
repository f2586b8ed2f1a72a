//! The bad-input corpus: malformed directives, snippet markers, evidence
//! files, book.toml settings, CUDA programs that crash, hang, fork, flood,
//! use what the emulator refuses or do not compile, and broken preprocessor
//! input. Each case runs the binary on a fresh copy of a small book and
//! asserts the exit code (never a panic), that stderr names the file (and
//! the line where there is one), that no file of the book changed, and that
//! no process it started is left running (every process we start inherits
//! a marker in its environment, which is looked for in /proc).

use crate::{copy_tree, repo_root};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// One bad input and what the tool must do with it.
struct Case {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>)>,
    fifos: Vec<&'static str>,
    links: Vec<(&'static str, &'static str)>,
    args: Vec<&'static str>,
    stdin: Option<Vec<u8>>,
    quiet_stdout: bool,
    /// The `says` texts are looked for on stdout, not stderr.
    says_on_stdout: bool,
    code: i32,
    says: Vec<&'static str>,
    never_says: Vec<&'static str>,
    env: Vec<(&'static str, String)>,
}

fn case(name: &'static str) -> Case {
    Case {
        name,
        files: Vec::new(),
        fifos: Vec::new(),
        links: Vec::new(),
        args: vec!["build"],
        stdin: None,
        quiet_stdout: false,
        says_on_stdout: false,
        code: 2,
        says: Vec::new(),
        never_says: Vec::new(),
        env: Vec::new(),
    }
}

impl Case {
    fn file(mut self, path: &'static str, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path, content.into()));
        self
    }
    fn chapter(self, content: &'static str) -> Self {
        self.file("src/chapter.md", content)
    }
    fn fifo(mut self, path: &'static str) -> Self {
        self.fifos.push(path);
        self
    }
    fn link(mut self, path: &'static str, target: &'static str) -> Self {
        self.links.push((path, target));
        self
    }
    fn args(mut self, args: &[&'static str]) -> Self {
        self.args = args.to_vec();
        self
    }
    /// `run --backend emulate --timeout 5 prog.cu` of `source`.
    fn program(self, source: &'static str) -> Self {
        self.file("prog.cu", source).args(&[
            "run",
            "--backend",
            "emulate",
            "--timeout",
            "5",
            "prog.cu",
        ])
    }
    /// mdBook's side of the protocol: `input` on stdin, no arguments;
    /// `$BOOK` in it is the book's folder.
    fn stdin(mut self, input: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(input.into());
        self.args = Vec::new();
        self
    }
    fn code(mut self, code: i32) -> Self {
        self.code = code;
        self
    }
    fn says(mut self, text: &'static str) -> Self {
        self.says.push(text);
        self
    }
    fn env(mut self, key: &'static str, value: impl Into<String>) -> Self {
        self.env.push((key, value.into()));
        self
    }
    fn never_says(mut self, text: &'static str) -> Self {
        self.never_says.push(text);
        self
    }
}

/// One emulator cache for the whole corpus, so that the runtime is compiled
/// once.
fn shared_cache() -> &'static Path {
    static CACHE: OnceLock<tempfile::TempDir> = OnceLock::new();
    CACHE.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let relative = path.strip_prefix(dir).unwrap().to_path_buf();
            if relative == Path::new("out") {
                continue; // the build's output
            }
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() {
                files.insert(relative, Some(std::fs::read(&path).unwrap()));
            } else {
                files.insert(relative, None); // FIFOs and links: not read
            }
        }
    }
    files
}

/// The processes (not zombies) whose environment holds `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let zombie = std::fs::read_to_string(entry.path().join("stat"))
            .ok()
            .and_then(|s| {
                s.rsplit_once(')')
                    .map(|(_, r)| r.trim_start().starts_with('Z'))
            })
            .unwrap_or(true);
        if !zombie && environ.split(|&b| b == 0).any(|v| v == marker.as_bytes()) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{pid}: {}",
                String::from_utf8_lossy(&cmdline).replace('\0', " ")
            ));
        }
    }
    found
}

/// The processes with `marker` once those killed a moment ago are gone:
/// they get up to 30 s (a generous bound for a loaded machine; a kill is
/// over in milliseconds, and the wait ends as soon as none is left). What
/// is still running then was not killed.
fn still_running(marker: &str) -> Vec<String> {
    let mut left = processes_with(marker);
    for _ in 0..600 {
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        left = processes_with(marker);
    }
    left
}

fn check(case: Case) -> Result<(), String> {
    let book = tempfile::tempdir().unwrap();
    copy_tree(&repo_root().join("tests/fixtures/small-book"), book.path());
    for (path, content) in &case.files {
        let path = book.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        if content.starts_with(b"#!") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    for fifo in &case.fifos {
        let path = std::ffi::CString::new(book.path().join(fifo).to_str().unwrap()).unwrap();
        // SAFETY: a plain system call on a path we own.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    }
    for (path, target) in &case.links {
        std::os::unix::fs::symlink(target, book.path().join(path)).unwrap();
    }
    let before = snapshot(book.path());
    let marker = format!(
        "MDBOOK_EVIDENCE_CORPUS_CASE={}-{}",
        case.name,
        std::process::id()
    );
    let (key, value) = marker.split_once('=').unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"));
    command
        .args(&case.args)
        .current_dir(book.path())
        .env(key, value)
        .env("MDBOOK_EVIDENCE_CACHE", shared_cache())
        .env_remove("EVIDENCE_REQUIRE_GPU")
        .envs(
            case.env
                .iter()
                .map(|(k, v)| (k, v.replace("$BOOK", book.path().to_str().unwrap()))),
        )
        .stdin(if case.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(if case.quiet_stdout {
            Stdio::null()
        } else {
            Stdio::piped()
        })
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    if let Some(input) = &case.stdin {
        use std::io::Write;
        let book_path = book.path().to_str().unwrap();
        let input = String::from_utf8_lossy(input).replace("$BOOK", book_path);
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(input.as_bytes());
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut problems = Vec::new();
    let code = output.status.code();
    if code != Some(case.code) {
        problems.push(format!("exit {code:?}, expected {}", case.code));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let (said, said_where) = if case.says_on_stdout {
        (&stdout, "stdout")
    } else {
        (&stderr, "stderr")
    };
    for expected in &case.says {
        if !said.contains(expected) {
            problems.push(format!("{said_where} does not say `{expected}`"));
        }
    }
    for unexpected in &case.never_says {
        if stderr.contains(unexpected) {
            problems.push(format!("stderr says `{unexpected}`"));
        }
    }
    if stderr.contains("panicked") {
        problems.push("panicked".into());
    }
    if snapshot(book.path()) != before {
        problems.push("the book's files changed".into());
    }
    let left = still_running(&marker);
    if !left.is_empty() {
        problems.push(format!("left running: {left:?}"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: {}\n--- stderr:\n{stderr}",
            case.name,
            problems.join("; ")
        ))
    }
}

fn run_all(cases: Vec<Case>) -> usize {
    let count = cases.len();
    let failures: Vec<String> = cases.into_iter().filter_map(|c| check(c).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    count
}

const SCALE_WITH_SNIPPET: &str = "// Build: nvcc -o scale scale.cu\n#include <cstdio>\n// snippet: kernel\n__global__ void scale() {}\n// end snippet\nint main() { std::puts(\"ok\"); }\n";

fn directive_cases() -> Vec<Case> {
    vec![
        case("unknown snippet").chapter("# C\n\n{{#snippet kernels/scale.cu:kernal}}\n")
            .says("src/chapter.md:3").says("kernels/scale.cu").says("did you mean `kernel`"),
        case("missing snippet file").chapter("{{#snippet kernels/missing.cu:x}}\n")
            .says("src/chapter.md:1").says("kernels/missing.cu"),
        case("snippet above the root").chapter("{{#snippet ../outside.cu:x}}\n")
            .says("src/chapter.md:1").says("leaves the book root"),
        case("snippet absolute").chapter("{{#snippet /etc/passwd:x}}\n")
            .says("src/chapter.md:1").says("absolute path"),
        case("snippet without a name").chapter("{{#snippet kernels/scale.cu}}\n")
            .says("src/chapter.md:1").says("names no snippet"),
        case("snippet without a file").chapter("{{#snippet :x}}\n")
            .says("src/chapter.md:1").says("needs both a file and a snippet name"),
        case("snippet with two arguments").chapter("{{#snippet a.cu:x b}}\n")
            .says("src/chapter.md:1").says("takes one argument"),
        case("unclosed directive").chapter("x\n{{#snippet kernels/scale.cu:kernel\n")
            .says("src/chapter.md:2").says("is not closed"),
        case("evidence without arguments").chapter("{{#evidence}}\n")
            .says("src/chapter.md:1").says("takes a program"),
        case("unknown evidence view").chapter("{{#evidence kernels/scale.cu table}}\n")
            .says("src/chapter.md:1").says("unknown evidence view `table`"),
        case("evidence above the root").chapter("{{#evidence ../../x.cu}}\n")
            .says("src/chapter.md:1").says("leaves the book root"),
        case("evidence of a missing program, reproduction on")
            .file("book.toml", "[book]\nsrc = \"src\"\n[build]\nbuild-dir = \"out\"\n[preprocessor.evidence]\nreproduce = \"emulate\"\n")
            .chapter("x\n\n{{#evidence kernels/nope.cu}}\n")
            .says("src/chapter.md:3").says("kernels/nope.cu"),
        case("tolerance without arguments").chapter("{{#tolerance}}\n")
            .says("src/chapter.md:1").says("takes `dtypes` or a lesson program"),
        case("tolerance of a missing program").chapter("{{#tolerance kernels/missing.cu}}\n")
            .says("src/chapter.md:1").says("kernels/missing.cu"),
        case("drift with two lessons").chapter("{{#drift a b}}\n")
            .says("src/chapter.md:1").says("takes a lesson name"),
        case("drift of a path").chapter("{{#drift ../../etc}}\n")
            .says("src/chapter.md:1").says("not a lesson name"),
        case("drift of an unknown lesson").chapter("{{#drift nolesson}}\n")
            .says("src/chapter.md:1").says("no lesson `nolesson`"),
        case("misspelled directive").chapter("# C\n{{#snipet kernels/scale.cu:kernel}}\n")
            .says("src/chapter.md:2").says("did you mean `{{#snippet`"),
        case("snippet of a FIFO").chapter("{{#snippet kernels/fifo.cu:x}}\n").fifo("kernels/fifo.cu")
            .says("src/chapter.md:1").says("kernels/fifo.cu is a FIFO"),
        case("snippet through a link out").chapter("{{#snippet kernels/link.cu:x}}\n")
            .link("kernels/link.cu", "/etc/hostname")
            .says("src/chapter.md:1").says("outside the book root"),
        case("snippet of /dev/zero through a link").chapter("{{#snippet kernels/zero.cu:x}}\n")
            .link("kernels/zero.cu", "/dev/zero")
            .says("src/chapter.md:1").says("outside the book root"),
        case("snippet of a folder").chapter("{{#snippet kernels:x}}\n")
            .says("src/chapter.md:1").says("kernels is a folder"),
        case("several bad directives").chapter("{{#drift a b}}\nok\n{{#evidence}}\n")
            .says("src/chapter.md:1").says("src/chapter.md:3").says("2 directives"),
    ]
}

fn template_cases() -> Vec<Case> {
    vec![
        case("template override through a link out")
            .file("theme/evidence/.keep", "")
            .link("theme/evidence/transcript.hbs", "/etc/hostname")
            .says("theme/evidence/transcript.hbs")
            .says("outside the book root"),
        case("template override is a FIFO")
            .file("theme/evidence/.keep", "")
            .fifo("theme/evidence/checks.hbs")
            .says("theme/evidence/checks.hbs is a FIFO"),
        case("template override does not parse")
            .file("theme/evidence/gates.hbs", "{{#if}")
            .says("theme/evidence/gates.hbs"),
    ]
}

fn marker_cases() -> Vec<Case> {
    let with = |name, source: &'static str| {
        case(name)
            .file("kernels/scale.cu", source)
            .chapter("{{#snippet kernels/scale.cu:kernel}}\n")
    };
    vec![
        with("unclosed snippet", "// snippet: kernel\nint x;\n").says("kernels/scale.cu:1"),
        with(
            "duplicate snippet",
            "// snippet: kernel\n// end snippet\n// snippet: kernel\n// end snippet\n",
        )
        .says("kernels/scale.cu:3"),
        with("end without a start", "int x;\n// end snippet\n").says("kernels/scale.cu:2"),
        with(
            "nested snippet",
            "// snippet: kernel\n// snippet: inner\n// end snippet\n// end snippet\n",
        )
        .says("kernels/scale.cu:2"),
        with("snippet without a name", "// snippet:\n// end snippet\n").says("kernels/scale.cu:1"),
        // A source that is not UTF-8 is no longer a bad input: it is read one
        // character per byte, as nvcc reads a Latin-1 comment (issue 17;
        // tests/cuda/source_latin1.cu).
    ]
}

/// Sources the drift check reads (`drift scale` on a lesson and its
/// starter): what it cannot read is an error at the file and line (exit 2),
/// what it can read is compared (0: no drift).
fn source_cases() -> Vec<Case> {
    let pair = |name, lesson: &'static str, starter: &'static str| {
        case(name)
            .file("kernels/scale.cu", lesson)
            .file("starter/scale.cu", starter)
            .args(&["drift", "scale"])
    };
    const MISSING_BRACE: &str = "#include <cstdio>\n\nvoid fill(int* x) {\n  for (int i = 0; i < 4; ++i) {\n    x[i] = i;\n  x[0] = 1;\n}\n\nint main() {}\n";
    const BRANCHED: &str = "#include <cstdio>\n#if FAST\nint f(int x) {\n#else\nint f(long x) {\n#endif\n  return 1;\n}\nint main() {}\n";
    vec![
        pair(
            "exercise region never closed",
            "int a;\n// exercise: begin\nint b;\n",
            "int a;\n",
        )
        .says("kernels/scale.cu:2")
        .says("never closed"),
        pair(
            "misspelled exercise marker",
            "int a;\n// exercise: bgin\nint b;\n",
            "int a;\n",
        )
        .says("kernels/scale.cu:2")
        .says("not an exercise marker"),
        pair(
            "exercise end without begin",
            "int a;\n",
            "int a;\n// exercise: end\n",
        )
        .says("starter/scale.cu:2")
        .says("without a `// exercise: begin`"),
        pair(
            "comment never closed in the starter",
            "int a;\n",
            "int a;\n\n/* open\nint b;\n",
        )
        .says("starter/scale.cu:3")
        .says("never closed"),
        pair("a stray closing brace", "int a;\n}\n", "int a;\n}\n")
            .says("kernels/scale.cu:2")
            .says("closes nothing"),
        // Issue 16: reported at line 60 of a lesson as lines 191 and 52.
        pair("a missing closing brace", MISSING_BRACE, MISSING_BRACE)
            .says("kernels/scale.cu:4")
            .says("probably never closed")
            .says("missing between lines 4 and 7"),
        pair("a head written per #if branch", BRANCHED, BRANCHED)
            .code(0)
            .says("no drift"),
        pair(
            "a byte-order mark on one side",
            "\u{feff}// scale\nint a;\n",
            "// scale\nint a;\n",
        )
        .code(0)
        .says("no drift"),
        case("lesson without a starter")
            .args(&["drift", "scale"])
            .says("starter/scale.cu"),
    ]
    .into_iter()
    // `drift` reports on stdout; its errors go to stderr.
    .map(|c| {
        if c.code == 0 {
            Case {
                says_on_stdout: true,
                ..c
            }
        } else {
            c
        }
    })
    .collect()
}

fn testing_evidence() -> String {
    std::fs::read_to_string(repo_root().join("evidence/kernels/testing.cu.toml")).unwrap()
}

fn evidence_cases() -> Vec<Case> {
    let testing = std::fs::read(repo_root().join("kernels/testing.cu")).unwrap();
    let with = |name, evidence: Vec<u8>| {
        case(name)
            .file("kernels/testing.cu", testing.clone())
            .file("evidence/kernels/testing.cu.toml", evidence)
            .chapter("# C\n\n{{#evidence kernels/testing.cu}}\n")
    };
    let good = testing_evidence();
    let sha = good
        .lines()
        .find(|l| l.starts_with("sha256 = "))
        .unwrap()
        .to_string();
    let program_line = good
        .lines()
        .find(|l| l.starts_with("program = "))
        .unwrap()
        .to_string();
    let format_line = good
        .lines()
        .find(|l| l.starts_with("format = "))
        .unwrap()
        .to_string();
    vec![
        with("evidence not TOML", b"this is = = not toml\n".to_vec())
            .says("evidence/kernels/testing.cu.toml:1")
            .says("src/chapter.md:3"),
        with("evidence not TOML, reproduction on", b"this is = = not toml\n".to_vec())
            .file("book.toml", "[book]\nsrc = \"src\"\n[build]\nbuild-dir = \"out\"\n[preprocessor.evidence]\nreproduce = \"emulate\"\n")
            .says("evidence/kernels/testing.cu.toml:1").says("src/chapter.md:3")
            .never_says("reproducing the evidence"),
        with(
            "evidence of another format",
            good.replace(&format_line, "format = 999").into_bytes(),
        )
        .says("evidence/kernels/testing.cu.toml")
        .says("format 999"),
        with(
            "evidence for another program",
            good.replace(&program_line, "program = \"kernels/other.cu\"")
                .into_bytes(),
        )
        .says("evidence/kernels/testing.cu.toml")
        .says("recorded for `kernels/other.cu`"),
        with(
            "evidence truncated",
            good.as_bytes()[..good.len() / 2].to_vec(),
        )
        .says("evidence/kernels/testing.cu.toml"),
        with("evidence not UTF-8", b"\xff\xfe\n".to_vec())
            .says("evidence/kernels/testing.cu.toml")
            .says("not UTF-8"),
        with("evidence empty", Vec::new()).says("evidence/kernels/testing.cu.toml"),
        // A non-hex hash with multi-byte characters: stale, and no panic.
        with(
            "evidence with a non-hex hash",
            good.replace(&sha, "sha256 = \"ééééééééééééééééééé\"")
                .into_bytes(),
        )
        .code(0),
        case("evidence is a FIFO")
            .file("kernels/testing.cu", testing.clone())
            .fifo("evidence/kernels/testing.cu.toml")
            .file("evidence/kernels/.keep", "")
            .chapter("{{#evidence kernels/testing.cu}}\n")
            .says("evidence/kernels/testing.cu.toml is a FIFO"),
        case("evidence is a folder")
            .file("kernels/testing.cu", testing.clone())
            .file("evidence/kernels/testing.cu.toml/x", "")
            .chapter("{{#evidence kernels/testing.cu}}\n")
            .says("evidence/kernels/testing.cu.toml is a folder"),
        case("verify with evidence for a deleted program")
            .file("evidence/kernels/gone.cu.toml", good.clone())
            .args(&["verify"])
            .code(1)
            .says("evidence/kernels/gone.cu.toml")
            .says("does not exist"),
        case("evidence for a deleted program")
            .file("evidence/kernels/gone.cu.toml", good.clone())
            .code(0)
            .says("evidence/kernels/gone.cu.toml")
            .says("does not exist"),
    ]
}

fn book_toml_cases() -> Vec<Case> {
    let toml = |name, table: &'static str| {
        case(name).file(
            "book.toml",
            format!("[book]\nsrc = \"src\"\n[build]\nbuild-dir = \"out\"\n[preprocessor.evidence]\n{table}\n"),
        )
    };
    vec![
        toml("unknown key", "reproduse = \"never\"")
            .says("book.toml")
            .says("did you mean `reproduce`"),
        toml("zero timeout", "timeout = 0")
            .says("book.toml")
            .says("timeout = 0"),
        toml("absolute evidence-dir", "evidence-dir = \"/tmp\"")
            .says("book.toml")
            .says("evidence-dir"),
        toml("kernels-dir above the root", "kernels-dir = \"../..\"")
            .says("book.toml")
            .says("kernels-dir"),
        toml("starter-dir through a link out", "starter-dir = \"st\"")
            .link("st", "/tmp")
            .says("book.toml")
            .says("starter-dir")
            .says("outside the book root"),
        toml("bad reproduce value", "reproduce = \"sometimes\"")
            .says("book.toml")
            .says("sometimes"),
        toml("bad drift value", "drift = \"maybe\"")
            .says("book.toml")
            .says("maybe"),
        toml("timeout of the wrong type", "timeout = \"ten\"").says("book.toml"),
        case("book.toml not TOML")
            .file("book.toml", "[book\n")
            .says("book.toml"),
        case("drift of a path on the command line")
            .args(&["drift", "../../x"])
            .says("`../../x` is not a lesson name"),
        case("drift of an unknown lesson on the command line")
            .args(&["drift", "nope"])
            .says("no lesson `nope`"),
        case("verify of a program outside the root")
            .args(&["verify", "../x.cu"])
            .says("leaves the book root"),
        case("record of an absolute program")
            .args(&["record", "/etc/passwd"])
            .says("absolute path"),
    ]
}

fn program_cases() -> Vec<Case> {
    vec![
        case("host crash").program("int main() { *(volatile int*)0 = 1; }\n").code(139)
            .says("prog.cu was killed by signal 11"),
        case("abort").program("#include <cstdlib>\nint main() { std::abort(); }\n").code(134)
            .says("prog.cu was killed by signal 6"),
        case("exit status passed through").program("int main() { return 3; }\n").code(3)
            .says("running prog.cu"),
        case("hang").program("int main() { for (;;) {} }\n").code(124).says("prog.cu ran past 5 s"),
        case("fork, child outlives the parent")
            .program("#include <unistd.h>\nint main() { if (fork() == 0) { sleep(1000); } return 0; }\n")
            .code(0).says("running prog.cu"),
        case("fork, both sleep")
            .program("#include <unistd.h>\nint main() { fork(); sleep(1000); }\n")
            .code(124).says("prog.cu ran past 5 s"),
        case("fork, then the child forks and all sleep")
            .program("#include <unistd.h>\nint main() { if (fork() == 0) fork(); sleep(1000); }\n")
            .code(124).says("prog.cu ran past 5 s"),
        case("kernel that hangs")
            .program("__global__ void k() { for (;;) {} }\nint main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); }\n")
            .code(124).says("prog.cu ran past 5 s"),
        case("kernel trap")
            .program("__global__ void k() { __trap(); }\nint main() { k<<<1, 1>>>(); return cudaDeviceSynchronize() != cudaSuccess; }\n")
            .code(1).says("prog.cu:1").says("__trap()"),
        case("device assert")
            .program("#include <cassert>\n__global__ void k() {\n  assert(threadIdx.x == 5);\n}\nint main() { k<<<1, 1>>>(); return cudaDeviceSynchronize() != cudaSuccess; }\n")
            .code(1).says("prog.cu:3").says("Assertion `threadIdx.x == 5` failed"),
        case("kernel stack overflow")
            .program("__device__ int r(int n) { volatile int a[64]; a[n % 64] = n; return n ? r(n + 1) + a[0] : 0; }\n__global__ void k(int* p) { p[0] = r(1); }\nint main() { int* p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); return cudaDeviceSynchronize() != cudaSuccess; }\n")
            .code(1).says("running prog.cu").says("stack overflow in kernel k"),
        case("flood").program("#include <cstdio>\nint main() { for (;;) std::puts(\"0123456789012345678901234567890123456789\"); }\n")
            .code(124),
        case("inline PTX").program("int main() {\n  asm(\"nop\");\n}\n").says("prog.cu:2").says("inline PTX `nop`"),
        case("inline PTX shuffle of no width")
            .program("__global__ void k(unsigned* o) {\n  unsigned r;\n  asm volatile(\"shfl.sync.bfly.b32 %0, %1, 1, %2, -1;\" : \"=r\"(r) : \"r\"(threadIdx.x), \"r\"(0x1e));\n  o[threadIdx.x] = r;\n}\nint main() { unsigned* o; cudaMalloc(&o, 128); k<<<1, 32>>>(o); return cudaDeviceSynchronize() != cudaSuccess; }\n")
            .code(1).says("prog.cu:3: inline PTX: shfl.sync with a c operand that is no __shfl_*_sync width"),
        case("unsupported: cluster dims on a template kernel")
            .program("template <int N>\n__global__ void __cluster_dims__(N, 1, 1) k() {}\nint main() { k<2><<<2, 1>>>(); cudaDeviceSynchronize(); }\n")
            .says("prog.cu:2:17").says("`__cluster_dims__ on a template kernel`").says("--backend gpu"),
        case("unsupported: __CUDA_ARCH__ in a host-device function called from a kernel")
            .program("__host__ __device__ int f() {\n#if __CUDA_ARCH__ >= 900\n  return 1;\n#endif\n  return 0;\n}\n__global__ void k(int* p) { p[0] = f(); }\nint main() { int* p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaDeviceSynchronize(); return f(); }\n")
            .code(1).says("prog.cu:2: a __host__ __device__ function that tests __CUDA_ARCH__").says("called from device code"),
        case("kernel does not compile")
            .program("__global__ void k(int* p) {\n  p[0] = undefined_name;\n}\nint main() {}\n")
            .code(1).says("prog.cu:2:10").says("undefined_name").says("prog.cu did not compile"),
        case("included header does not compile")
            .program("#include \"h.cuh\"\nint main() { return f(); }\n")
            .file("h.cuh", "inline int f() {\n  return nope;\n}\n")
            .code(1).says("h.cuh:2").says("prog.cu did not compile"),
        // Issue 16: a byte-order mark came after the rewritten file's
        // `#line` and g++ refused it ("stray '#' in program").
        case("source with a byte-order mark")
            .program("\u{feff}#include <cstdio>\nint main() { std::puts(\"ok\"); }\n")
            .code(0).says("running prog.cu").never_says("stray"),
        case("does not compile").program("int main() {\n  return nope;\n}\n").code(1)
            .says("prog.cu:2").says("did not compile"),
        case("kernel memory fault")
            .program("#include <cstdio>\n__global__ void k(int* p) { p[1 << 30] = 1; }\nint main() { int* p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaDeviceSynchronize(); }\n")
            .code(1).says("prog.cu:3"),
        case("divergent warp barrier")
            .program("__global__ void k() { if (threadIdx.x < 3) __syncwarp(); else __syncthreads(); }\nint main() { k<<<1, 32>>>(); cudaDeviceSynchronize(); }\n")
            .code(1).says("divergent warp operation __syncwarp at prog.cu:1"),
        case("includes /dev/zero").program("#include \"/dev/zero\"\nint main() {}\n")
            .says("/dev/zero is a character device"),
        case("includes /dev/zero through ..")
            .program("#include \"../../../../../../../../../../dev/zero\"\nint main() {}\n")
            .says("is a character device"),
        case("includes a FIFO").program("#include \"pipe.h\"\nint main() {}\n").fifo("pipe.h")
            .says("pipe.h is a FIFO"),
        case("program is a FIFO").fifo("fifo.cu").args(&["run", "--backend", "emulate", "fifo.cu"])
            .says("fifo.cu is a FIFO"),
        case("program is /dev/zero").args(&["run", "--backend", "emulate", "/dev/zero"])
            .says("/dev/zero is a character device"),
        case("compiler that hangs")
            .program("int main() {}\n")
            .file("slow-c++", "#!/bin/sh\ncase \" $* \" in *\" --version \"*) echo slow 1.0; exit 0 ;; esac\nsleep 1000\n")
            .env("CXX", "$BOOK/slow-c++")
            .env("MDBOOK_EVIDENCE_COMPILE_TIMEOUT", "1")
            .code(1)
            .says("the C++ compiler ran past 1 s and was killed"),
        case("run with a zero timeout")
            .program("int main() {}\n")
            .args(&["run", "--timeout", "0", "prog.cu"])
            .says("--timeout"),
        case("program is missing").args(&["run", "--backend", "emulate", "missing.cu"])
            .says("missing.cu"),
    ]
    .into_iter()
    .map(|c| if c.name == "flood" { Case { quiet_stdout: true, ..c } } else { c })
    .collect()
}

/// The preprocessor's context as mdBook sends it, for the small book at
/// `$BOOK` (replaced by the book's folder when the case runs).
fn protocol_context() -> mdbook_preprocessor::PreprocessorContext {
    let md = mdbook_driver::MDBook::load(repo_root().join("tests/fixtures/small-book")).unwrap();
    mdbook_preprocessor::PreprocessorContext::new(
        PathBuf::from("$BOOK"),
        md.config.clone(),
        "html".into(),
    )
}

/// `[context, book]` as mdBook sends it, the one chapter holding `chapter`.
fn protocol_input(chapter: &str) -> Vec<u8> {
    let mut md =
        mdbook_driver::MDBook::load(repo_root().join("tests/fixtures/small-book")).unwrap();
    md.book
        .for_each_chapter_mut(|c| c.content = chapter.to_string());
    serde_json::to_vec(&(&protocol_context(), &md.book)).unwrap()
}

fn protocol_cases() -> Vec<Case> {
    vec![
        case("preprocessor input not JSON")
            .stdin(b"not json")
            .says("mdBook's JSON input"),
        case("preprocessor input empty")
            .stdin(b"")
            .says("mdBook's JSON input"),
        case("preprocessor input of the wrong shape")
            .stdin(b"[1, 2]")
            .says("mdBook's JSON input"),
        case("preprocessor input truncated")
            .stdin(&protocol_input("# C\n")[..200])
            .says("mdBook's JSON input"),
        case("preprocessor input without the book")
            .stdin(serde_json::to_vec(&[&protocol_context()]).unwrap())
            .says("mdBook's JSON input"),
        case("preprocessor: a bad directive in a chapter")
            .stdin(protocol_input(
                "# C\n\n{{#snippet kernels/scale.cu:kernal}}\n",
            ))
            .says("chapter.md:3")
            .says("did you mean `kernel`"),
        case("preprocessor: evidence of a missing program")
            .stdin(protocol_input("# C\n{{#evidence kernels/nope.cu}}\n"))
            .says("chapter.md:2")
            .says("kernels/nope.cu"),
        case("preprocessor: a root that does not exist")
            .stdin(
                String::from_utf8(protocol_input("{{#snippet kernels/scale.cu:kernel}}\n"))
                    .unwrap()
                    .replace("$BOOK", "$BOOK/nowhere"),
            )
            .says("chapter.md:1")
            .says("kernels/scale.cu"),
        case("supports without a renderer")
            .args(&["supports"])
            .says("<RENDERER>"),
        case("unknown subcommand")
            .args(&["frobnicate"])
            .says("frobnicate"),
    ]
}

#[test]
fn bad_directives() {
    run_all(directive_cases());
}

#[test]
fn bad_template_overrides() {
    run_all(template_cases());
}

#[test]
fn bad_snippet_markers() {
    run_all(marker_cases());
}

#[test]
fn bad_lesson_and_starter_sources() {
    run_all(source_cases());
}

#[test]
fn bad_evidence_files() {
    run_all(evidence_cases());
}

#[test]
fn bad_book_toml_and_command_lines() {
    run_all(book_toml_cases());
}

#[test]
fn bad_cuda_programs() {
    run_all(program_cases());
}

#[test]
fn bad_preprocessor_input() {
    run_all(protocol_cases());
}

#[test]
fn the_corpus_has_at_least_sixty_cases() {
    let count = directive_cases().len()
        + marker_cases().len()
        + source_cases().len()
        + template_cases().len()
        + evidence_cases().len()
        + book_toml_cases().len()
        + program_cases().len()
        + protocol_cases().len();
    assert!(count >= 60, "{count} cases");
}

/// A starter or lesson ending in an unclosed `(` panicked the definition
/// scanner (now src/cxx/definitions.rs, on the shared lexer).
#[test]
fn an_unclosed_parenthesis_does_not_panic() {
    run_all(
        ["int (\n", "int x = (\n", "(\n"]
            .into_iter()
            .flat_map(|source| {
                [
                    case("drift of an unclosed parenthesis")
                        .file("kernels/scale.cu", source)
                        .file("starter/scale.cu", source)
                        .args(&["drift", "scale"])
                        .code(0),
                    case("build with an unclosed parenthesis")
                        .file("kernels/scale.cu", source)
                        .file("starter/scale.cu", source)
                        .chapter("hi\n")
                        .code(0),
                ]
            })
            .collect(),
    );
}

#[test]
fn the_corpus_book_is_left_as_it_was_by_a_good_build() {
    // The harness itself: a good build passes every check.
    run_all(vec![
        case("good build")
            .file("kernels/scale.cu", SCALE_WITH_SNIPPET)
            .chapter("{{#snippet kernels/scale.cu:kernel}}\n")
            .code(0),
    ]);
}

/// Ctrl-C (SIGINT, and SIGTERM likewise) while a program runs: the tool
/// ends by that signal, and the program and what it forked are gone. And
/// `kill -9` of the tool, which it cannot catch: the program and what it
/// forked die with it (the direct child by its parent-death signal, its
/// group through the watcher; src/backend/exec.rs).
///
/// The program prints one line from each of its three processes (a child
/// and a grandchild) after forking, and the tool is signalled only once all
/// three lines are read, so every process exists and the tool has started
/// it (its group is known before the program runs a line: before, a signal
/// that came between the start of the program and the tool listing its
/// group left the forked child running, which made this test flaky under
/// load).
#[test]
fn an_interrupt_stops_the_program_and_everything_it_started() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGKILL] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("prog.cu"),
            "#include <cstdio>\n#include <unistd.h>\nint main() {\n  if (fork() == 0) fork();\n  std::puts(\"started\");\n  std::fflush(stdout);\n  sleep(1000);\n}\n",
        )
        .unwrap();
        let marker = format!(
            "MDBOOK_EVIDENCE_CORPUS_CASE=interrupt-{signal}-{}",
            std::process::id()
        );
        let (key, value) = marker.split_once('=').unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"));
        command
            .args(["run", "--backend", "emulate", "--timeout", "600", "prog.cu"])
            .current_dir(dir.path())
            .env(key, value)
            .env("MDBOOK_EVIDENCE_CACHE", shared_cache())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // The tool keeps a signal ignored that it was started with ignored
        // (as `nohup` expects), and a test run from a background job of a
        // non-interactive shell inherits SIGINT ignored: the tool under test
        // gets the default disposition, whatever ran the tests.
        // SAFETY: signal is async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, || {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut child = command.spawn().unwrap();
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        for _ in 0..3 {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            assert_eq!(line, "started\n", "signal {signal}");
        }
        let running = processes_with(&marker);
        assert!(running.len() >= 4, "the tool and 3 processes: {running:?}");
        // SAFETY: a plain system call on our own child.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "{status}");
        let left = still_running(&marker);
        assert!(left.is_empty(), "signal {signal}: left running: {left:?}");
    }
}

/// `kill -9` of the tool while the C++ compiler runs: the compiler and
/// what it started (as g++ starts cc1plus, as and ld) die with the tool.
#[test]
fn kill_9_during_a_compile_leaves_no_compiler_running() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.cu"), "int main() {}\n").unwrap();
    let started = dir.path().join("compiling");
    let compiler = dir.path().join("slow-c++");
    std::fs::write(
        &compiler,
        format!(
            "#!/bin/sh\ncase \" $* \" in *\" --version \"*) echo slow 1.0; exit 0 ;; esac\n\
             sleep 1000 &\necho $! > {}\nwait\n",
            started.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&compiler, std::fs::Permissions::from_mode(0o755)).unwrap();
    let marker = format!(
        "MDBOOK_EVIDENCE_CORPUS_CASE=kill-compile-{}",
        std::process::id()
    );
    let (key, value) = marker.split_once('=').unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mdbook-evidence"))
        .args(["run", "--backend", "emulate", "prog.cu"])
        .current_dir(dir.path())
        .env(key, value)
        .env("MDBOOK_EVIDENCE_CACHE", shared_cache())
        .env("CXX", &compiler)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The compiler has started its child once the pid file holds a line
    // (a generous bound: ten minutes).
    let mut waited = 0;
    while !std::fs::read_to_string(&started).is_ok_and(|s| s.ends_with('\n')) {
        assert!(waited < 12_000, "the compiler never started");
        assert!(child.try_wait().unwrap().is_none(), "the tool ended first");
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGKILL));
    let left = still_running(&marker);
    assert!(left.is_empty(), "left running: {left:?}");
}
