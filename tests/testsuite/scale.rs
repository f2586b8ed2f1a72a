//! What a build and a check say, for people and for machines: the summary
//! line and reuse of unchanged reproductions, search in the built book,
//! `verify --format json` and `--format junit`, plain logs off a terminal,
//! exit codes, and `install`.

use crate::{course_copy, fixture, tool};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_mdbook-evidence");

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).to_string()
}

#[test]
fn a_build_says_what_it_reproduced_and_reuses_what_did_not_change() {
    let book = course_copy();
    let fresh = tool(book.path(), &["build", "--reproduce", "emulate", "--fresh"]);
    assert!(fresh.status.success(), "{}", stderr(&fresh));
    assert!(
        stderr(&fresh)
            .contains("reproduced 3 programs by CPU emulation: identical; 0 reused; 0 stale"),
        "{}",
        stderr(&fresh)
    );
    let warm = tool(book.path(), &["build", "--reproduce", "emulate"]);
    assert!(warm.status.success(), "{}", stderr(&warm));
    assert!(
        stderr(&warm)
            .contains("reproduced 0 programs by CPU emulation: nothing ran; 3 reused; 0 stale"),
        "{}",
        stderr(&warm)
    );
    // The chapter still says how and when the evidence was reproduced.
    let html = std::fs::read_to_string(book.path().join("target/book/day66-testing.html")).unwrap();
    assert!(html.contains("Reproduced by CPU emulation"));

    // Edited evidence is compared again (here it no longer matches), and
    // put back it is reused again.
    let evidence = book.path().join("evidence/starter/testing.cu.toml");
    let recorded = std::fs::read_to_string(&evidence).unwrap();
    let wrong = recorded.replacen("got 11815.500000", "got 11815.250000", 1);
    assert_ne!(recorded, wrong);
    std::fs::write(&evidence, &wrong).unwrap();
    let edited = tool(book.path(), &["build", "--reproduce", "emulate"]);
    assert_eq!(edited.status.code(), Some(1), "{}", stderr(&edited));
    assert!(
        stderr(&edited).contains("reproduced 1 program by CPU emulation: all differ; 2 reused")
            && stderr(&edited).contains("+  golden snapshot, n=611"),
        "{}",
        stderr(&edited)
    );
    std::fs::write(&evidence, &recorded).unwrap();
    let back = tool(book.path(), &["build", "--reproduce", "emulate"]);
    assert!(
        stderr(&back)
            .contains("reproduced 0 programs by CPU emulation: nothing ran; 3 reused; 0 stale"),
        "{}",
        stderr(&back)
    );

    // A changed program is stale: not run, counted, and the build goes on;
    // the starter and Day 67, unchanged, are reused.
    let program = book.path().join("kernels/testing.cu");
    let text = std::fs::read_to_string(&program).unwrap();
    std::fs::write(&program, format!("{text}\n// changed\n")).unwrap();
    let stale = tool(book.path(), &["build", "--reproduce", "emulate"]);
    assert!(stale.status.success(), "{}", stderr(&stale));
    assert!(
        stderr(&stale)
            .contains("reproduced 0 programs by CPU emulation: nothing ran; 2 reused; 1 stale"),
        "{}",
        stderr(&stale)
    );

    let never = tool(book.path(), &["build", "--reproduce", "never"]);
    assert!(
        stderr(&never)
            .contains("reproduction off (reproduce = \"never\"): 3 programs embedded as recorded"),
        "{}",
        stderr(&never)
    );
}

#[test]
fn an_unchanged_book_is_not_rendered_again_and_any_change_renders_it() {
    let book = course_copy();
    let build = |args: &[&str]| {
        let mut all = vec!["build", "--reproduce", "never"];
        all.extend_from_slice(args);
        let output = tool(book.path(), &all);
        assert!(output.status.success(), "{}", stderr(&output));
        String::from_utf8_lossy(&output.stdout).to_string()
    };
    let rendered = |out: &str| out.contains("wrote the book to target/book/index.html");
    let kept = |out: &str| out.contains("is up to date: nothing it is rendered from changed");
    let out = book.path().join("target/book");
    assert!(rendered(&build(&[])));
    let when = |name: &str| {
        std::fs::metadata(out.join(name))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before = when("day66-testing.html");
    let again = build(&[]);
    assert!(kept(&again), "{again}");
    assert_eq!(
        when("day66-testing.html"),
        before,
        "an unchanged book was written again"
    );

    // An edited chapter is rendered.
    let chapter = book.path().join("book/day66-testing.md");
    let text = std::fs::read_to_string(&chapter).unwrap();
    std::fs::write(&chapter, format!("{text}\nA sentence added by the test.\n")).unwrap();
    assert!(rendered(&build(&[])));
    let html = std::fs::read_to_string(out.join("day66-testing.html")).unwrap();
    assert!(html.contains("A sentence added by the test."));
    assert!(kept(&build(&[])));

    // So is a book whose output lost a file, or whose configuration changed.
    std::fs::remove_file(out.join("print.html")).unwrap();
    assert!(rendered(&build(&[])));
    assert!(out.join("print.html").is_file());
    let toml = book.path().join("book.toml");
    let config = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        config.replacen("[book]", "[book]\ndescription = \"changed\"", 1),
    )
    .unwrap();
    assert!(rendered(&build(&[])));
    assert!(kept(&build(&[])));

    // A file the renderer copies (anything in the source folder but a
    // chapter) counts too, and --fresh renders regardless.
    std::fs::write(book.path().join("book/extra.txt"), "copied").unwrap();
    assert!(rendered(&build(&[])));
    assert_eq!(
        std::fs::read_to_string(out.join("extra.txt")).unwrap(),
        "copied"
    );
    assert!(rendered(&build(&["--fresh"])));
}

#[test]
fn the_built_book_has_search() {
    let book = course_copy();
    let output = tool(book.path(), &["build", "--reproduce", "never"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let out = book.path().join("target/book");
    let index = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .find(|name| name.starts_with("searchindex") && name.ends_with(".js"));
    assert!(index.is_some(), "no searchindex*.js in {}", out.display());
    let html = std::fs::read_to_string(out.join("day66-testing.html")).unwrap();
    assert!(html.contains("id=\"mdbook-searchbar\""), "no search box");
    let searched = std::fs::read_to_string(out.join(index.unwrap())).unwrap();
    assert!(
        searched.contains("sumDropTail"),
        "the index misses the chapters"
    );
}

#[test]
fn logs_off_a_terminal_carry_no_colour_codes() {
    let book = course_copy();
    let starter = book.path().join("starter/testing.cu");
    let text = std::fs::read_to_string(&starter).unwrap();
    std::fs::write(
        &starter,
        text.replace("kGoldenSum611 = 11815.5;", "kGoldenSum611 = 11815.0;"),
    )
    .unwrap();
    let output = Command::new(BIN)
        .args(["build", "--reproduce", "never"])
        .current_dir(book.path())
        .env("MDBOOK_PREPROCESSOR__EVIDENCE__DRIFT", "warn")
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(
        err.contains("WARN") && err.contains("no longer mirrors"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "escape codes in a pipe: {err:?}");
}

#[test]
fn verify_writes_json_and_junit_with_a_record_per_program_and_check() {
    let book = course_copy();
    let json = tool(
        book.path(),
        &["verify", "--backend", "emulate", "--format", "json"],
    );
    assert!(json.status.success(), "{}", stderr(&json));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["command"], "verify");
    assert_eq!(value["failed"], 0);
    let records = value["records"].as_array().unwrap();
    let names: Vec<(&str, &str)> = records
        .iter()
        .map(|r| (r["check"].as_str().unwrap(), r["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("evidence", "kernels/histogram.cu"),
            ("evidence", "kernels/testing.cu"),
            ("evidence", "starter/testing.cu"),
            ("mutants", "kernels/testing.cu"),
            ("drift", "testing")
        ]
    );
    assert!(records.iter().all(|r| r["outcome"] == "passed"), "{value}");

    // A mismatch: exit 1, and a JUnit failure with the diff.
    let path = book.path().join("evidence/kernels/testing.cu.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace(
            "got 14171.000000  want 14171.000000",
            "got 14170.000000  want 14171.000000",
        ),
    )
    .unwrap();
    let junit = tool(
        book.path(),
        &["verify", "--backend", "emulate", "--format", "junit"],
    );
    assert_eq!(junit.status.code(), Some(1), "{}", stderr(&junit));
    let xml = String::from_utf8_lossy(&junit.stdout);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(xml.contains("tests=\"5\" failures=\"1\""), "{xml}");
    assert!(
        xml.contains(
            "<testcase classname=\"evidence\" name=\"kernels/testing.cu\">\n      <failure"
        ),
        "{xml}"
    );
    assert!(xml.contains("got 14170.000000"), "{xml}");
    assert!(!xml.contains('\u{1b}'), "{xml}");
}

#[test]
fn install_wires_a_book_once() {
    let book = fixture("small-book");
    let toml = book.path().join("book.toml");
    std::fs::write(&toml, "[book]\ntitle = \"Small\"\nsrc = \"src\"\n").unwrap();
    let first = tool(book.path(), &["install"]);
    let out = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        out.contains("added [preprocessor.evidence] to book.toml"),
        "{out}"
    );
    assert!(out.contains("wrote theme/evidence.css"), "{out}");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("[preprocessor.evidence]"), "{text}");
    assert!(book.path().join("theme/evidence.css").is_file());
    let second = tool(book.path(), &["install", "."]);
    assert!(
        String::from_utf8_lossy(&second.stdout).contains("nothing to change"),
        "{}",
        String::from_utf8_lossy(&second.stdout)
    );
    assert_eq!(std::fs::read_to_string(&toml).unwrap(), text);
    // The book it made builds.
    let built = tool(book.path(), &["build", "--reproduce", "never"]);
    assert!(built.status.success(), "{}", stderr(&built));
}

#[test]
fn an_unknown_lesson_suggests_the_closest() {
    let output = tool(&crate::repo_root(), &["drift", "testng"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("did you mean `testing`?"),
        "{}",
        stderr(&output)
    );
}

/// The GPU and mdbook tests are ignored, with their reason, exactly when
/// this machine cannot run them and nobody insists: what the build script
/// found must be what is here.
#[test]
fn skipped_tests_are_ignored_exactly_when_they_cannot_run() {
    let insists = |var: &str| std::env::var(var).as_deref() == Ok("1");
    let driver = std::path::Path::new("/proc/driver/nvidia/version").exists();
    assert_eq!(
        cfg!(evidence_gpu),
        insists("EVIDENCE_REQUIRE_GPU") || driver,
        "the build script's evidence_gpu disagrees with this machine"
    );
    let mdbook = Command::new("mdbook")
        .arg("--version")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).contains(" v0.5."));
    assert_eq!(
        cfg!(evidence_mdbook),
        insists("EVIDENCE_REQUIRE_MDBOOK") || mdbook,
        "the build script's evidence_mdbook disagrees with this machine"
    );
}
