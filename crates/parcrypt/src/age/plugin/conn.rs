//! A running plugin process: the threads that feed its input and read its
//! output and standard error, the timeout, the interactive commands handed
//! to the [`PluginUi`](super::PluginUi), and killing and reaping it.
//!
//! The plugin runs in a process group of its own, so that what it starts
//! goes with it: a child it leaves behind could hold its output open and
//! keep the reader waiting for the whole timeout (for ever without one).
//! The client watches the plugin process itself; once it has exited, its
//! group is killed and what is left in the pipe is read to its end. The
//! group is killed on every way out (done, error, timeout), before the
//! plugin is reaped, so that its process-group ID cannot have been reused.

use std::io::{BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitId, WaitIdOptions, kill_process_group, waitid};
use zeroize::Zeroizing;

use super::wire::{Msg, encode, printable, read_msg};
use super::{EXIT_GRACE, MAX_STANZAS, MAX_STDERR, PluginClient, WAIT_NOTICE};
use crate::age::Error;
use crate::age::format::b64_decode;
use crate::age::primitives::os_random;

/// How often [`Conn::recv`] looks whether the plugin process has exited.
const EXIT_POLL: Duration = Duration::from_millis(50);
/// Once the plugin has exited and its group is killed, how long the rest of
/// its output may take to arrive (a process that left the group could
/// still hold the pipe).
const AFTER_EXIT: Duration = Duration::from_secs(1);
/// How long dropping a connection waits for its threads to end.
const THREADS_END: Duration = Duration::from_secs(1);

/// A running plugin: its process (the leader of its own process group), a
/// thread writing to its standard input, a thread reading stanzas from its
/// output, one keeping the start of its standard error. Dropping it closes
/// the plugin's input, gives a plugin that finished a moment to exit,
/// kills its group, reaps it, and waits (briefly) for the threads to end.
pub(super) struct Conn<'a> {
    name: &'a str,
    client: &'a PluginClient,
    child: Child,
    pid: Pid,
    to_plugin: Option<Sender<Zeroizing<Vec<u8>>>>,
    from_plugin: Receiver<Result<Msg, String>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    threads: Vec<std::thread::JoinHandle<()>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    /// When the plugin process was seen to have exited (its group then killed).
    exited_at: Option<Instant>,
    done: bool,
}

impl<'a> Conn<'a> {
    pub(super) fn start(name: &'a str, machine: &str, client: &'a PluginClient) -> Result<Conn<'a>, Error> {
        let program = client.find(name)?;
        let debug = std::env::var_os("AGEDEBUG").is_some_and(|v| v == "plugin");
        let mut child = Command::new(&program)
            .arg(format!("--age-plugin={machine}"))
            // Plugins must not rely on the working directory (as age: the temporary one).
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug { Stdio::inherit() } else { Stdio::piped() })
            // A group of its own: killed as one, whatever it forks.
            .process_group(0)
            .spawn()
            .map_err(|e| Error::Plugin {
                name: name.to_owned(),
                message: format!("couldn't start plugin {}: {e}", program.display()),
            })?;
        let pid = Pid::from_child(&child);
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (to_plugin, for_writer) = mpsc::channel::<Zeroizing<Vec<u8>>>();
        let writer = std::thread::spawn(move || write_all(stdin, &for_writer));
        let (from_reader, from_plugin) = mpsc::channel();
        let reader = std::thread::spawn(move || read_all(stdout, &from_reader));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_thread = child.stderr.take().map(|err| {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || keep_stderr(err, &kept))
        });
        Ok(Conn {
            name,
            client,
            child,
            pid,
            to_plugin: Some(to_plugin),
            from_plugin,
            stderr,
            threads: vec![writer, reader],
            stderr_thread,
            exited_at: None,
            done: false,
        })
    }

    /// Whether the plugin process itself has exited. It is left waitable
    /// (`WNOWAIT`): reaped only after its group is killed.
    fn plugin_exited(&self) -> bool {
        let how = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        matches!(waitid(WaitId::Pid(self.pid), how), Ok(Some(_)))
    }

    /// Kills the plugin's process group: the plugin, if it still runs, and
    /// whatever it started and left behind. Only while the plugin is not
    /// yet reaped (running, or a zombie: `waitid` answers for it), so that
    /// the group's ID is still this plugin's and cannot name a stranger's.
    fn kill_group(&self) {
        let how = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
        if waitid(WaitId::Pid(self.pid), how).is_ok() {
            // ESRCH (the group is already empty) is harmless.
            let _ = kill_process_group(self.pid, Signal::KILL);
        }
    }

    pub(super) fn send(&self, kind: &str, args: &[&str], body: &[u8]) {
        if let Some(tx) = &self.to_plugin {
            // A plugin that stopped reading shows on its output side.
            let _ = tx.send(encode(kind, args, body));
        }
    }

    /// A random command the plugin must ignore (as age sends, two times in three).
    pub(super) fn grease(&self) {
        let mut r = [0u8; 16];
        os_random(&mut r);
        if r[0] % 3 == 0 {
            return;
        }
        let kind = format!(
            "grease-{:x}",
            u64::from_le_bytes(r[8..16].try_into().expect("8 bytes"))
        );
        let args: Vec<String> = (0..r[1] % 3)
            .map(|i| (r[2 + usize::from(i)] % 100).to_string())
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut body = vec![0u8; if r[5] % 2 == 0 { usize::from(r[6] % 100) } else { 0 }];
        os_random(&mut body);
        self.send(&kind, &args, &body);
    }

    /// The plugin's next message, waiting at most the client's timeout.
    pub(super) fn recv(&mut self) -> Result<Msg, Error> {
        let start = Instant::now();
        let mut told = false;
        loop {
            let elapsed = start.elapsed();
            if let Some(limit) = self.client.timeout.filter(|&t| elapsed >= t) {
                return Err(self.fail(&format!(
                    "no answer from the plugin in {} s (it was killed)",
                    limit.as_secs_f64()
                )));
            }
            let mut wait = self
                .client
                .timeout
                .map_or(Duration::from_secs(3600), |t| t - elapsed);
            if !told {
                if elapsed >= WAIT_NOTICE {
                    told = true;
                    if let Some(ui) = &self.client.ui {
                        ui.waiting(self.name);
                    }
                    continue;
                }
                wait = wait.min(WAIT_NOTICE - elapsed);
            }
            match self.from_plugin.recv_timeout(wait.min(EXIT_POLL)) {
                Ok(Ok(msg)) => return Ok(msg),
                Ok(Err(why)) => return Err(self.fail(&why)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
                Err(RecvTimeoutError::Timeout) => match self.exited_at {
                    // What it wrote before exiting is still read; the end
                    // of the pipe comes once nothing of its group holds it.
                    None if self.plugin_exited() => {
                        self.kill_group();
                        self.exited_at = Some(Instant::now());
                    }
                    Some(at) if at.elapsed() >= AFTER_EXIT => return Err(self.exited()),
                    _ => {}
                },
            }
        }
    }

    /// The plugin's output ended before `done`: how it exited, and what it
    /// said on standard error.
    fn exited(&mut self) -> Error {
        let deadline = Instant::now() + Duration::from_secs(1);
        while !self.plugin_exited() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let exited = self.plugin_exited();
        // Its group goes before it is reaped: also a plugin that closed its
        // output but did not exit, and what either left running.
        self.kill_group();
        let status = if exited {
            self.child.try_wait().ok().flatten()
        } else {
            None
        };
        let how = match status {
            Some(s) => format!("the plugin exited ({s}) before finishing"),
            None => "the plugin closed its output before finishing".to_owned(),
        };
        // What it wrote last on standard error, up to its end (a moment at
        // most: a child of the plugin may hold it open).
        if let Some(t) = &self.stderr_thread {
            let deadline = Instant::now() + Duration::from_millis(500);
            while !t.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.fail(&how)
    }

    /// An error in the plugin's name, with what it wrote on standard error.
    pub(super) fn fail(&self, why: &str) -> Error {
        let said = self
            .stderr
            .lock()
            .map(|s| printable(s.trim_ascii()))
            .unwrap_or_default();
        let message = if said.is_empty() {
            why.to_owned()
        } else {
            format!("{why}; it said: {said}")
        };
        Error::Plugin {
            name: self.name.to_owned(),
            message,
        }
    }

    /// The plugin's own `error` stanza: its words, nothing added.
    pub(super) fn plugin_error(&self, msg: &Msg) -> Error {
        Error::Plugin {
            name: self.name.to_owned(),
            message: printable(&msg.body),
        }
    }

    /// The plugin said `done`.
    pub(super) fn finished(&mut self) {
        self.done = true;
    }

    /// Answers `msg`, `confirm`, `request-public`, `request-secret`
    /// through the UI (`fail` without one), anything else `unsupported`.
    pub(super) fn interact(&self, msg: &Msg) -> Result<(), Error> {
        let ui = self.client.ui.clone();
        let ui = ui.as_deref();
        let text = printable(&msg.body);
        match msg.kind.as_str() {
            "msg" => {
                let shown = ui.is_some_and(|ui| ui.display_message(self.name, &text));
                self.send(if shown { "ok" } else { "fail" }, &[], &[]);
            }
            "request-secret" | "request-public" => {
                let secret = msg.kind == "request-secret";
                match ui.and_then(|ui| ui.request_value(self.name, &text, secret)) {
                    Some(value) => self.send("ok", &[], value.expose()),
                    None => self.send("fail", &[], &[]),
                }
            }
            "confirm" => {
                if msg.args.is_empty() || msg.args.len() > 2 {
                    return Err(self.fail("malformed confirm stanza: unexpected number of arguments"));
                }
                let option = |a: &String, which: &str| {
                    b64_decode(a).map(|b| printable(&b)).ok_or_else(|| {
                        self.fail(&format!(
                            "malformed confirm stanza: invalid {which} option encoding"
                        ))
                    })
                };
                let yes = option(&msg.args[0], "YES")?;
                let no = msg.args.get(1).map(|a| option(a, "NO")).transpose()?;
                match ui.and_then(|ui| ui.confirm(self.name, &text, &yes, no.as_deref())) {
                    Some(true) => self.send("ok", &["yes"], &[]),
                    Some(false) => self.send("ok", &["no"], &[]),
                    None => self.send("fail", &[], &[]),
                }
            }
            _ => self.send("unsupported", &[], &[]),
        }
        Ok(())
    }
}

impl Drop for Conn<'_> {
    fn drop(&mut self) {
        // Closing the channel ends the writer thread, which closes stdin.
        self.to_plugin.take();
        if self.done {
            let deadline = Instant::now() + EXIT_GRACE;
            while !self.plugin_exited() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill_group();
        // The plugin itself, had it left its group.
        let _ = self.child.kill();
        let _ = self.child.wait();
        // With the group gone, the pipes close and the threads end; one
        // held up by a process that left the group is left to end alone.
        let mut threads = std::mem::take(&mut self.threads);
        threads.extend(self.stderr_thread.take());
        let deadline = Instant::now() + THREADS_END;
        while threads.iter().any(|t| !t.is_finished()) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        for t in threads.into_iter().filter(std::thread::JoinHandle::is_finished) {
            let _ = t.join();
        }
    }
}

/// The writer thread: everything sent, in order, until the channel closes
/// or the plugin stops reading.
fn write_all(mut stdin: ChildStdin, from: &Receiver<Zeroizing<Vec<u8>>>) {
    for bytes in from {
        if stdin.write_all(&bytes).and_then(|()| stdin.flush()).is_err() {
            break;
        }
    }
}

/// The reader thread: stanzas as they arrive; a parse error or the end of
/// the output ends it (the channel closes).
fn read_all(stdout: impl Read, to: &Sender<Result<Msg, String>>) {
    let mut input = BufReader::new(stdout);
    let mut total = 0;
    for _ in 0..MAX_STANZAS {
        match read_msg(&mut input, &mut total) {
            Ok(Some(msg)) => {
                if to.send(Ok(msg)).is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(why) => {
                let _ = to.send(Err(why));
                return;
            }
        }
    }
    let _ = to.send(Err(format!("the plugin sent more than {MAX_STANZAS} stanzas")));
}

/// The stderr thread: keeps the first 4 KiB, reads (and drops) the rest so
/// that the plugin never blocks on it.
fn keep_stderr(mut stderr: impl Read, kept: &Mutex<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buf) {
        if n == 0 {
            return;
        }
        if let Ok(mut k) = kept.lock() {
            let room = (MAX_STDERR + 1).saturating_sub(k.len());
            k.extend_from_slice(&buf[..n.min(room)]);
        }
    }
}
