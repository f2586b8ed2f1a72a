//! Runs a child process under a time limit: capturing what it printed
//! ([`run`]), or with the terminal as its stdio ([`run_inherited`]).
//!
//! Every process we start (a program, a compiler, nvcc) gets its own process
//! group, and the whole group is killed: at the time limit, as soon as the
//! direct child has ended (so a program that forks leaves nothing behind,
//! and a grandchild holding our pipes open cannot make us wait), and when we
//! are interrupted (SIGINT, SIGTERM, SIGHUP: a handler kills every group we
//! started, then lets the signal end us as it would have).
//!
//! A `kill -9` of our own process cannot be caught, so on Linux two more
//! things make what we started die with us:
//! - the direct child gets `PR_SET_PDEATHSIG` (SIGKILL), set before it runs
//!   anything of its own (and it gives up if we are already gone);
//! - a watcher, a copy of our process forked at the first spawn, holds one
//!   end of a socket pair whose other end only we hold (close-on-exec, so no
//!   program inherits it). Each child sends its group's id before it
//!   executes anything (so a group is known to the watcher before it can
//!   fork), and we send the id again, negated, once the group is killed and
//!   reaped. When we die, however we die, the kernel closes our end; the
//!   watcher reads the end of the stream, kills every group still listed,
//!   and exits. It runs in a process group of its own, so a
//!   signal sent to ours does not reach it, and exits with us.
//!
//! The limits, honestly: a process that leaves its group (`setsid`,
//! `setpgid`: a daemon does, g++ and a plain `fork` do not) escapes every
//! kill but the direct child's; a watcher killed on its own (by hand, by the
//! OOM killer) takes the `kill -9` guarantee with it; and a group id is only
//! unlisted after its group is reaped, so a kill in that instant reaches an
//! id whose group is gone (harmless unless the system reused that id for a
//! new group within it, which takes a wrap-around of process ids). Where
//! cgroups are available to us, a cgroup would close the first gap; we do
//! not use one.
//!
//! When capturing, stdout and stderr are read on their own threads, so a
//! program that fills one pipe while we wait on the other cannot deadlock,
//! and each is kept up to [`OUTPUT_LIMIT`] bytes: past it the rest is read
//! and dropped, and a note saying how much was cut ends the stream. A
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

/// How much of each of a program's streams is kept: 16 MiB. Past it, the
/// rest is read and dropped, and the kept part ends with [`cut_note`].
pub(crate) const OUTPUT_LIMIT: usize = 16 << 20;

/// The line that ends a stream cut at [`OUTPUT_LIMIT`].
pub(crate) fn cut_note(dropped: u64) -> String {
    format!(
        "\n[mdbook-evidence: output cut at {} MiB; {dropped} more bytes were dropped]\n",
        OUTPUT_LIMIT >> 20
    )
}

/// Reads `stream` to its end, keeping at most `limit` bytes.
fn read_bounded(mut stream: impl Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut kept = Vec::new();
    let mut dropped = 0u64;
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let room = limit.saturating_sub(kept.len()).min(n);
        kept.extend_from_slice(&chunk[..room]);
        dropped += (n - room) as u64;
    }
    if dropped > 0 {
        kept.extend_from_slice(cut_note(dropped).as_bytes());
    }
    Ok(kept)
}

/// Runs `command` with stdin closed, killing it (and everything it started)
/// after `timeout`.
pub fn run(command: &mut Command, timeout: Duration) -> Result<Captured, ExecError> {
    let shown = format!("{command:?}");
    let start = Instant::now();
    let mut child = spawn_in_own_group(
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
        &shown,
    )?;
    let mut stdout = child.child.stdout.take().expect("piped");
    let mut stderr = child.child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || read_bounded(&mut stdout, OUTPUT_LIMIT));
    let err = std::thread::spawn(move || read_bounded(&mut stderr, OUTPUT_LIMIT));
    let termination = child.wait_or_kill(timeout, &shown)?;
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

/// Runs `command` with our own stdout and stderr (the terminal) and no
/// stdin, killing it (and everything it started) after `timeout`. It runs in
/// a process group of its own, which is not the terminal's foreground group:
/// it could not read the terminal anyway, and Ctrl-C reaches us, and we stop
/// it.
pub(crate) fn run_inherited(
    command: &mut Command,
    timeout: Duration,
) -> Result<Termination, ExecError> {
    let shown = Path::new(command.get_program()).display().to_string();
    let mut child = spawn_in_own_group(command.stdin(Stdio::null()), &shown)?;
    child.wait_or_kill(timeout, &shown)
}

/// A child leading its own process group, registered so that an interrupt
/// kills its group; dropping it kills the group and unregisters it.
struct GroupChild {
    child: Child,
    slot: Option<usize>,
}

fn spawn_in_own_group(command: &mut Command, shown: &str) -> Result<GroupChild, ExecError> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        install_interrupt_handler();
        command.process_group(0);
        #[cfg(target_os = "linux")]
        {
            watcher::start();
            // SAFETY: getpid is async-signal-safe.
            let parent = unsafe { libc::getpid() };
            // SAFETY: prctl, getppid, getpid and write (in `watcher::tell`)
            // are async-signal-safe and touch no memory of ours but a stack
            // buffer and an atomic.
            unsafe {
                command.pre_exec(move || {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    // We may have died before the prctl: no one would kill
                    // this child then.
                    if libc::getppid() != parent {
                        return Err(io::Error::from_raw_os_error(libc::ESRCH));
                    }
                    // Our group's id (`process_group(0)` made it our pid).
                    watcher::tell(libc::getpid());
                    Ok(())
                });
            }
        }
    }
    let child = command.spawn().map_err(|source| ExecError::Start {
        command: shown.to_string(),
        source,
    })?;
    let slot = groups::register(child.id());
    Ok(GroupChild { child, slot })
}

impl GroupChild {
    /// Waits for the child up to `timeout`; past it, kills its group. Either
    /// way, whatever is left of its group is killed once it has ended.
    fn wait_or_kill(&mut self, timeout: Duration, shown: &str) -> Result<Termination, ExecError> {
        let status = self
            .child
            .wait_timeout(timeout)
            .map_err(|source| ExecError::Wait {
                command: shown.to_string(),
                source,
            })?;
        Ok(match status {
            Some(status) => {
                self.kill_group();
                termination_of(status)
            }
            None => {
                self.kill_group();
                let _ = self.child.kill();
                let _ = self.child.wait();
                Termination::TimedOut
            }
        })
    }

    fn kill_group(&self) {
        #[cfg(unix)]
        // SAFETY: a plain system call; the group is the one we created (the
        // child's id), which cannot be reused while any member lives.
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill_group();
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        groups::unregister(self.slot);
        #[cfg(target_os = "linux")]
        if let Ok(id) = i32::try_from(self.child.id()) {
            watcher::tell(-id);
        }
    }
}

/// The watcher that kills our groups when we die unannounced (the module
/// doc says how, and its limits). Everything that runs in the forked
/// watcher, or in a child between fork and exec, is async-signal-safe: no
/// allocation, no lock, no panic path.
#[cfg(target_os = "linux")]
mod watcher {
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Our end of the socket pair (close-on-exec); -1 when there is no
    /// watcher.
    static OURS: AtomicI32 = AtomicI32::new(-1);

    /// How many groups the watcher lists at once; more are not listed
    /// (they are still killed at their limit and on an interrupt).
    const SLOTS: usize = 1024;

    /// Forks the watcher, once. Without one (socket pair or fork failed)
    /// the other protections still hold.
    pub(super) fn start() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let mut fds = [0 as libc::c_int; 2];
            // SAFETY: plain system calls; the forked child runs only
            // `watch`, which is async-signal-safe and never returns.
            unsafe {
                let kind = libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC;
                if libc::socketpair(libc::AF_UNIX, kind, 0, fds.as_mut_ptr()) != 0 {
                    return;
                }
                let [theirs, ours] = fds;
                match libc::fork() {
                    -1 => {
                        libc::close(theirs);
                        libc::close(ours);
                    }
                    0 => watch(theirs, ours),
                    _ => {
                        libc::close(theirs);
                        OURS.store(ours, Ordering::SeqCst);
                    }
                }
            }
        });
    }

    /// Tells the watcher that group `id` runs (positive) or is gone
    /// (negated): one message of 4 bytes, whoever sends it.
    pub(super) fn tell(id: i32) {
        let fd = OURS.load(Ordering::SeqCst);
        if fd >= 0 {
            let bytes = id.to_ne_bytes();
            // SAFETY: send is async-signal-safe; to a watcher that is gone
            // it fails with EPIPE (no SIGPIPE, whatever the disposition:
            // MSG_NOSIGNAL), which is ignored.
            unsafe {
                libc::send(fd, bytes.as_ptr().cast(), bytes.len(), libc::MSG_NOSIGNAL);
            }
        }
    }

    /// The watcher's life: reads group ids until our end closes, then kills
    /// the groups still listed.
    unsafe fn watch(theirs: libc::c_int, ours: libc::c_int) -> ! {
        // SAFETY (the whole body): async-signal-safe system calls on our
        // own descriptors and stack.
        unsafe {
            libc::close(ours);
            // Nothing of ours is held open by the watcher: its end moves to
            // descriptor 0 and every other descriptor is closed, so that
            // whoever reads our output sees its end when we end.
            libc::dup2(theirs, 0);
            if libc::syscall(libc::SYS_close_range, 1u32, u32::MAX, 0u32) != 0 {
                let mut limit = libc::rlimit {
                    rlim_cur: 0,
                    rlim_max: 0,
                };
                libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
                let top = limit.rlim_cur.clamp(1024, 1 << 16) as libc::c_int;
                for fd in 1..top {
                    libc::close(fd);
                }
            }
            // Out of our group (a signal to it misses the watcher), and
            // without our interrupt handler.
            libc::setpgid(0, 0);
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, libc::SIG_DFL);
            }
            let mut listed = [0i32; SLOTS];
            loop {
                let mut message = [0u8; 4];
                let n = libc::recv(0, message.as_mut_ptr().cast(), message.len(), 0);
                if n < 0 && *libc::__errno_location() == libc::EINTR {
                    continue;
                }
                if n <= 0 {
                    break; // our end is closed: we are gone
                }
                if n != 4 {
                    continue;
                }
                let id = i32::from_ne_bytes(message);
                if id > 0 {
                    if let Some(slot) = listed.iter_mut().find(|s| **s == 0) {
                        *slot = id;
                    }
                } else if let Some(slot) = listed.iter_mut().find(|s| **s == id.wrapping_neg()) {
                    *slot = 0;
                }
            }
            for &id in &listed {
                if id > 0 {
                    libc::kill(-id, libc::SIGKILL);
                }
            }
            libc::_exit(0)
        }
    }
}

/// The process groups running now, in a fixed table the signal handler can
/// read without allocating or locking.
mod groups {
    use std::sync::atomic::{AtomicI32, Ordering};

    const SLOTS: usize = 1024;
    static RUNNING: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

    /// Records group `id`; `None` when the table is full (the group is then
    /// still killed at its limit, only not on an interrupt).
    pub(super) fn register(id: u32) -> Option<usize> {
        let id = i32::try_from(id).ok()?;
        (0..SLOTS).find(|&slot| {
            RUNNING[slot]
                .compare_exchange(0, id, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
    }

    pub(super) fn unregister(slot: Option<usize>) {
        if let Some(slot) = slot {
            RUNNING[slot].store(0, Ordering::SeqCst);
        }
    }

    /// Kills every registered group (async-signal-safe).
    #[cfg(unix)]
    pub(super) fn kill_all() {
        for slot in &RUNNING {
            let id = slot.load(Ordering::SeqCst);
            if id > 0 {
                // SAFETY: kill is async-signal-safe.
                unsafe {
                    libc::kill(-id, libc::SIGKILL);
                }
            }
        }
    }
}

/// Installs, once, a handler for SIGINT, SIGTERM and SIGHUP that kills every
/// process group we started and then re-raises the signal with its default
/// action, so that we end as we would have without the handler.
#[cfg(unix)]
fn install_interrupt_handler() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn on_signal(signal: libc::c_int) {
        groups::kill_all();
        // SAFETY: signal and raise are async-signal-safe.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    ONCE.call_once(|| {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: installing a handler that only makes async-signal-safe
            // calls. A signal someone chose to ignore stays ignored.
            unsafe {
                let previous = libc::signal(
                    signal,
                    on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
                if previous == libc::SIG_IGN {
                    libc::signal(signal, libc::SIG_IGN);
                }
            }
        }
    });
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

    /// Whether process `pid` is gone (or a zombie no one has reaped yet).
    fn is_gone(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        }
    }

    fn wait_until_gone(pid: &str) -> bool {
        // A SIGKILLed process disappears at once, but its parent (init or a
        // subreaper) reaps it when it gets to it.
        (0..200).any(|_| {
            is_gone(pid) || {
                std::thread::sleep(Duration::from_millis(10));
                false
            }
        })
    }

    #[test]
    fn a_grandchild_holding_the_pipes_is_killed_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let script = format!("sleep 1000 & echo $! > {}; wait", pid_file.display());
        let done = run(&mut sh(&script), Duration::from_millis(500)).unwrap();
        assert_eq!(done.termination, Termination::TimedOut);
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        assert!(wait_until_gone(pid.trim()), "sleep {pid} is still running");
    }

    #[test]
    fn a_program_that_ends_leaves_nothing_running() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let script = format!(
            "sleep 1000 >/dev/null 2>&1 & echo $! > {}; echo done",
            pid_file.display()
        );
        let done = run(&mut sh(&script), Duration::from_secs(30)).unwrap();
        assert_eq!(done.termination, Termination::Exited(0));
        assert_eq!(done.stdout, b"done\n");
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        assert!(wait_until_gone(pid.trim()), "sleep {pid} is still running");
        let script = format!("sleep 1000 & echo $! > {}", pid_file.display());
        run_inherited(&mut sh(&script), Duration::from_secs(30)).unwrap();
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        assert!(wait_until_gone(pid.trim()), "sleep {pid} is still running");
    }

    #[test]
    fn output_past_the_limit_is_cut_with_a_note() {
        let kept = read_bounded(&b"0123456789"[..], 4).unwrap();
        assert_eq!(kept, [&b"0123"[..], cut_note(6).as_bytes()].concat());
        assert_eq!(read_bounded(&b"0123"[..], 4).unwrap(), b"0123");
        // Through a real pipe: 40 MiB of zeros keep 16 MiB and the note.
        let done = run(
            &mut sh("head -c 41943040 /dev/zero"),
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(done.termination, Termination::Exited(0));
        let note = cut_note(41943040 - OUTPUT_LIMIT as u64);
        assert_eq!(done.stdout.len(), OUTPUT_LIMIT + note.len());
        assert!(done.stdout.ends_with(note.as_bytes()));
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
