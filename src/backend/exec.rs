//! Runs a child process under a time limit and captures what it printed.
//!
//! stdout and stderr are read on their own threads, so a program that fills
//! one pipe while we wait on the other cannot deadlock; a program still
//! running at the limit is killed and reported as timed out, with whatever it
//! had printed so far. `wait-timeout` gives the portable timed wait.

use crate::evidence::Termination;
use anyhow::{Context, Result};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// What a finished (or killed) process left behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub termination: Termination,
    pub elapsed: Duration,
}

/// Runs `command` with stdin closed, killing it after `timeout`.
pub fn run(command: &mut Command, timeout: Duration) -> Result<Captured> {
    let shown = format!("{command:?}");
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("starting {shown}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let err = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stderr.read_to_end(&mut buf).map(|_| buf)
    });
    let termination = match child
        .wait_timeout(timeout)
        .with_context(|| format!("waiting for {shown}"))?
    {
        Some(status) => termination_of(status),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            Termination::TimedOut
        }
    };
    let stdout = out
        .join()
        .expect("reader thread")
        .context("reading stdout")?;
    let stderr = err
        .join()
        .expect("reader thread")
        .context("reading stderr")?;
    Ok(Captured {
        stdout,
        stderr,
        termination,
        elapsed: start.elapsed(),
    })
}

fn termination_of(status: std::process::ExitStatus) -> Termination {
    if let Some(code) = status.code() {
        return Termination::Exited(code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Termination::Signaled(signal);
        }
    }
    Termination::Exited(-1)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn captures_both_streams_and_the_status() {
        let done = run(
            &mut sh("echo out; echo err >&2; exit 3"),
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(done.stdout, b"out\n");
        assert_eq!(done.stderr, b"err\n");
        assert_eq!(done.termination, Termination::Exited(3));
    }

    #[test]
    fn a_program_past_its_limit_is_killed_and_keeps_its_output() {
        let done = run(
            &mut sh("echo started; exec sleep 30"),
            Duration::from_millis(300),
        )
        .unwrap();
        assert_eq!(done.termination, Termination::TimedOut);
        assert_eq!(done.stdout, b"started\n");
    }

    #[test]
    fn a_crash_is_a_signal() {
        let done = run(&mut sh("kill -SEGV $$"), Duration::from_secs(10)).unwrap();
        assert_eq!(done.termination, Termination::Signaled(11));
    }

    #[test]
    fn large_output_on_both_streams_does_not_deadlock() {
        let script = "i=0; while [ $i -lt 2000 ]; do echo 0123456789012345678901234567890123456789; echo 0123456789012345678901234567890123456789 >&2; i=$((i+1)); done";
        let done = run(&mut sh(script), Duration::from_secs(30)).unwrap();
        assert_eq!(done.stdout.len(), 2000 * 41);
        assert_eq!(done.stderr.len(), 2000 * 41);
    }
}
