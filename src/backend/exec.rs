//! Runs a child process under a time limit: capturing what it printed
//! ([`run`]), or with the terminal as its stdio ([`run_inherited`]).
//!
//! When capturing, stdout and stderr are read on their own threads, so a
//! program that fills one pipe while we wait on the other cannot deadlock. A
//! program still running at the limit is killed and reported as timed out
//! (with whatever it had printed so far); one killed by a signal is reported
//! with that signal. `wait-timeout` gives the portable timed wait. What the
//! ending means to a command (an exit code, a refusal to record) is for the
//! caller.

use crate::evidence::Termination;
use std::io::{self, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// What a finished (or killed) process left behind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// What the process wrote on stdout, byte for byte.
    pub stdout: Vec<u8>,
    /// What the process wrote on stderr, byte for byte.
    pub stderr: Vec<u8>,
    /// How it ended: its exit status, a signal, or the time limit.
    pub termination: Termination,
    /// Wall-clock time from start to end.
    pub elapsed: Duration,
}

/// Why a process could not be run or watched. (How it ended, crashes and
/// time-outs included, is a [`Termination`], not an error.)
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    #[error("starting {command}")]
    Start {
        command: String,
        #[source]
        source: io::Error,
    },
    #[error("waiting for {command}")]
    Wait {
        command: String,
        #[source]
        source: io::Error,
    },
    #[error("reading {stream}")]
    Read {
        stream: &'static str,
        #[source]
        source: io::Error,
    },
}

/// Runs `command` with stdin closed, killing it after `timeout`.
pub fn run(command: &mut Command, timeout: Duration) -> Result<Captured, ExecError> {
    let shown = format!("{command:?}");
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| ExecError::Start {
            command: shown.clone(),
            source,
        })?;
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
    let termination = wait_or_kill(&mut child, timeout, &shown)?;
    let read = |stream| move |source| ExecError::Read { stream, source };
    let stdout = out.join().expect("reader thread").map_err(read("stdout"))?;
    let stderr = err.join().expect("reader thread").map_err(read("stderr"))?;
    Ok(Captured {
        stdout,
        stderr,
        termination,
        elapsed: start.elapsed(),
    })
}

/// Runs `command` with our own stdin, stdout and stderr (the terminal),
/// killing it after `timeout`.
pub(crate) fn run_inherited(
    command: &mut Command,
    timeout: Duration,
) -> Result<Termination, ExecError> {
    let shown = Path::new(command.get_program()).display().to_string();
    let mut child = command.spawn().map_err(|source| ExecError::Start {
        command: shown.clone(),
        source,
    })?;
    wait_or_kill(&mut child, timeout, &shown)
}

/// Waits for `child` up to `timeout`; past it, kills it.
fn wait_or_kill(
    child: &mut Child,
    timeout: Duration,
    shown: &str,
) -> Result<Termination, ExecError> {
    let status = child
        .wait_timeout(timeout)
        .map_err(|source| ExecError::Wait {
            command: shown.to_string(),
            source,
        })?;
    Ok(match status {
        Some(status) => termination_of(status),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            Termination::TimedOut
        }
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

    #[test]
    fn an_inherited_run_reports_how_it_ended() {
        let limit = Duration::from_secs(10);
        assert_eq!(
            run_inherited(&mut sh("exit 3"), limit).unwrap(),
            Termination::Exited(3)
        );
        assert_eq!(
            run_inherited(&mut sh("kill -SEGV $$"), limit).unwrap(),
            Termination::Signaled(11)
        );
        assert_eq!(
            run_inherited(&mut sh("exec sleep 30"), Duration::from_millis(300)).unwrap(),
            Termination::TimedOut
        );
    }

    #[test]
    fn a_program_that_cannot_start_is_an_error_naming_it() {
        let error = run_inherited(
            &mut Command::new("/nonexistent/program"),
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(matches!(error, ExecError::Start { .. }), "{error:?}");
        assert_eq!(error.to_string(), "starting /nonexistent/program");
        let error = run(
            &mut Command::new("/nonexistent/program"),
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(matches!(error, ExecError::Start { .. }), "{error:?}");
    }
}
