//! The client side of the age plugin protocol (C2SP `age-plugin`, as
//! filippo.io/age v1.3's `plugin` package runs it): recipients
//! `age1NAME1…` and identities `AGE-PLUGIN-NAME-1…` handled by the program
//! `age-plugin-NAME` found on `PATH`, driven over its standard input and
//! output through the `recipient-v1` (wrap a file key) and `identity-v1`
//! (unwrap one) state machines.
//!
//! Only the 16-byte file key crosses the process boundary: the payload is
//! sealed and opened by this crate, on every core, as for any recipient.
//!
//! As age does: one plugin process per plugin recipient or identity; the
//! recipient or identity string, then (for unwrapping) every stanza of
//! the header, as the spec says ("age clients will pass all recipient
//! stanzas to every connected plugin"); the plugin's `msg`, `confirm`,
//! `request-public` and `request-secret` go to a [`PluginUi`] (without one,
//! each is answered `fail` and the plugin decides); an `error` from the
//! plugin ends the operation with the plugin's words; unknown commands are
//! answered `unsupported`; grease is sent and ignored. Beyond age, the
//! plugin is held to limits: a line of at most 64 KiB, a stanza body of at
//! most 1 MiB, 16 MiB and 65,536 stanzas in all, and
//! [`PluginClient::with_timeout`] (default [`DEFAULT_TIMEOUT`]) of silence
//! while the client waits for it (time spent in the [`PluginUi`] does not
//! count). A plugin that exits, goes silent past the limit or breaks the
//! protocol is killed and reaped, and the error says which.

use std::ffi::OsString;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use zeroize::Zeroizing;

use super::format::{COLUMNS, Stanza, b64_decode, is_word};
use super::primitives::{FileKey, os_random};
use super::{Error, bech};
use crate::secret::{SecretBytes, SecretString};

/// How long the client waits for the plugin's next message by default
/// (`None` to wait forever, as age does). A plugin waiting for a person
/// (a hardware key's touch) usually gives up long before.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// After this long without a message, [`PluginUi::waiting`] is called once
/// (age prints "waiting on NAME plugin...").
const WAIT_NOTICE: Duration = Duration::from_secs(5);
/// How long a plugin that said `done` has to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// The longest line a plugin may send.
const MAX_LINE: usize = 64 << 10;
/// The longest stanza body a plugin may send.
const MAX_BODY: usize = 1 << 20;
/// The most a plugin may send in one session, and in how many stanzas.
const MAX_TOTAL: usize = 16 << 20;
const MAX_STANZAS: usize = 1 << 16;
/// How much of the plugin's standard error is kept for error messages.
const MAX_STDERR: usize = 4 << 10;

/// What a plugin may ask of the person running the client. Every method
/// has a default that refuses (the plugin is told `fail`); implement those
/// the client can answer. The plugin's words arrive with control
/// characters escaped.
pub trait PluginUi: Send + Sync {
    /// Shows `message` from plugin `plugin` (age: "NAME plugin: message" on
    /// standard error); `false` if it could not be shown.
    fn display_message(&self, plugin: &str, message: &str) -> bool {
        let _ = (plugin, message);
        false
    }

    /// Asks for a value (`secret`: without echo) with `prompt`; `None` if
    /// it could not be asked or was refused.
    fn request_value(&self, plugin: &str, prompt: &str, secret: bool) -> Option<SecretBytes> {
        let _ = (plugin, prompt, secret);
        None
    }

    /// Asks the person to choose between `yes` and, if given, `no`;
    /// `Some(true)` for yes, `Some(false)` for no, `None` if it could not
    /// be asked.
    fn confirm(&self, plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        let _ = (plugin, prompt, yes, no);
        None
    }

    /// Called once when the plugin has been silent for 5 seconds (a
    /// hardware key waiting for a touch, say).
    fn waiting(&self, plugin: &str) {
        let _ = plugin;
    }
}

/// How plugins are run: who answers their questions, how long they may be
/// silent, where their programs are looked for.
#[derive(Clone)]
pub struct PluginClient {
    ui: Option<Arc<dyn PluginUi>>,
    timeout: Option<Duration>,
    search_path: Option<OsString>,
}

impl Default for PluginClient {
    fn default() -> Self {
        PluginClient {
            ui: None,
            timeout: Some(DEFAULT_TIMEOUT),
            search_path: None,
        }
    }
}

impl fmt::Debug for PluginClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PluginClient")
            .field("ui", &self.ui.as_ref().map(|_| "…"))
            .field("timeout", &self.timeout)
            .field("search_path", &self.search_path)
            .finish()
    }
}

impl PluginClient {
    /// No UI (every request is refused), [`DEFAULT_TIMEOUT`], `PATH`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Plugins' messages and questions go to `ui`.
    #[must_use]
    pub fn with_ui(mut self, ui: Arc<dyn PluginUi>) -> Self {
        self.ui = Some(ui);
        self
    }

    /// The longest the client waits for a plugin's next message (`None`:
    /// forever, as age).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Looks for `age-plugin-NAME` in these directories (`PATH`'s syntax)
    /// instead of `PATH`.
    #[must_use]
    pub fn with_search_path(mut self, path: impl Into<OsString>) -> Self {
        self.search_path = Some(path.into());
        self
    }

    /// The program for plugin `name`: the first executable
    /// `age-plugin-NAME` in an absolute directory of the search path
    /// (relative entries such as `.` are skipped, as Go's `execabs` refuses them).
    fn find(&self, name: &str) -> Result<PathBuf, Error> {
        use std::os::unix::fs::PermissionsExt;
        let path = self
            .search_path
            .clone()
            .or_else(|| std::env::var_os("PATH"))
            .unwrap_or_default();
        let file = format!("age-plugin-{name}");
        std::env::split_paths(&path)
            .filter(|dir| dir.is_absolute())
            .map(|dir| dir.join(&file))
            .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
            .ok_or_else(|| Error::PluginNotFound {
                name: name.to_owned(),
            })
    }
}

/// A plugin name: letters, digits and `+-._` (as filippo.io/age checks it).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.' | b'_'))
}

/// A recipient handled by a plugin: `age1NAME1…`, or a plugin identity
/// used as a recipient (`-e -i` / `-e -j NAME`).
#[derive(Clone)]
pub struct PluginRecipient {
    name: String,
    /// The string handed to the plugin (an identity's is secret).
    encoding: SecretString,
    identity: bool,
    client: PluginClient,
}

impl fmt::Debug for PluginRecipient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PluginRecipient({self})")
    }
}

impl fmt::Display for PluginRecipient {
    /// The recipient string, or `<identity-based recipient>` (as age).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.identity {
            f.write_str("<identity-based recipient>")
        } else {
            f.write_str(self.encoding.expose())
        }
    }
}

impl PluginRecipient {
    /// Parses `age1NAME1…` (Bech32, lowercase, with a valid plugin name).
    /// No plugin runs until a file is encrypted.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Self, Error> {
        let bad = |why: &str| Error::Key(format!("malformed plugin recipient {s:?}: {why}"));
        let (hrp, _) = bech::decode(s).map_err(|e| bad(&e))?;
        let Some(name) = hrp.strip_prefix("age1") else {
            return Err(bad("not an age1… recipient"));
        };
        if !valid_name(name) {
            return Err(bad(&format!("invalid plugin name {name:?}")));
        }
        Ok(PluginRecipient {
            name: name.to_owned(),
            encoding: SecretString::from(s),
            identity: false,
            client: PluginClient::default(),
        })
    }

    /// The plugin's name (its program is `age-plugin-NAME`).
    pub fn plugin_name(&self) -> &str {
        &self.name
    }

    /// Runs its plugins with `client`.
    #[must_use]
    pub fn with_client(mut self, client: &PluginClient) -> Self {
        self.client = client.clone();
        self
    }

    /// Wraps the file key through `recipient-v1`: the stanzas, and the
    /// labels the plugin gave (sorted; empty if none).
    pub(super) fn wrap(&self, file_key: &FileKey) -> Result<(Vec<Stanza>, Vec<String>), Error> {
        let mut conn = Conn::start(&self.name, "recipient-v1", &self.client)?;
        let add = if self.identity {
            "add-identity"
        } else {
            "add-recipient"
        };
        conn.send(add, &[self.encoding.expose()], &[]);
        conn.grease();
        conn.send("wrap-file-key", &[], file_key.expose());
        conn.send("extension-labels", &[], &[]);
        conn.send("done", &[], &[]);
        let mut stanzas = Vec::new();
        let mut labels: Option<Vec<String>> = None;
        loop {
            let msg = conn.recv()?;
            match msg.kind.as_str() {
                "recipient-stanza" => {
                    if msg.args.len() < 2 {
                        return Err(conn.fail("malformed recipient stanza: unexpected argument count"));
                    }
                    // One file key was sent: its index is 0.
                    if msg.args[0].parse::<u64>().ok() != Some(0) {
                        return Err(conn.fail("malformed recipient stanza: unexpected index"));
                    }
                    if stanzas.len() == super::format::MAX_STANZAS {
                        return Err(conn.fail("too many recipient stanzas"));
                    }
                    stanzas.push(Stanza {
                        kind: msg.args[1].clone(),
                        args: msg.args[2..].to_vec(),
                        body: msg.body.to_vec(),
                    });
                    conn.send("ok", &[], &[]);
                }
                "labels" => {
                    if labels.is_some() {
                        return Err(conn.fail("repeated labels stanza"));
                    }
                    labels = Some(msg.args.clone());
                    conn.send("ok", &[], &[]);
                }
                "error" => {
                    conn.send("ok", &[], &[]);
                    return Err(conn.plugin_error(&msg));
                }
                "done" => break,
                _ => conn.interact(&msg)?,
            }
        }
        if stanzas.is_empty() {
            return Err(conn.fail("received zero recipient stanzas"));
        }
        conn.finished();
        let mut labels = labels.unwrap_or_default();
        labels.sort();
        Ok((stanzas, labels))
    }
}

/// An identity handled by a plugin: `AGE-PLUGIN-NAME-1…` from an identity
/// file, or a plugin's default identity (`-j NAME`). Wiped on drop,
/// redacted in `Debug`.
#[derive(Clone)]
pub struct PluginIdentity {
    name: String,
    encoding: SecretString,
    client: PluginClient,
}

impl fmt::Debug for PluginIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PluginIdentity({}, redacted)", self.name)
    }
}

impl PluginIdentity {
    /// Parses `AGE-PLUGIN-NAME-1…` (Bech32, uppercase). Error messages
    /// never quote it.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Self, Error> {
        let bad = |why: String| Error::Key(format!("malformed plugin identity: {why}"));
        let (hrp, _) = bech::decode(s).map_err(bad)?;
        let name = hrp
            .strip_prefix("AGE-PLUGIN-")
            .and_then(|n| n.strip_suffix('-'))
            .ok_or_else(|| bad("not an AGE-PLUGIN-NAME-1… identity".into()))?
            .to_ascii_lowercase();
        if !valid_name(&name) {
            return Err(bad(format!("invalid plugin name {name:?}")));
        }
        Ok(PluginIdentity {
            name,
            encoding: SecretString::from(s),
            client: PluginClient::default(),
        })
    }

    /// The plugin's default identity, which carries no data (`age -j
    /// NAME`): `AGE-PLUGIN-NAME-1` and a checksum. The program run is
    /// `age-plugin-NAME`, with the name as given.
    ///
    /// # Errors
    /// [`Error::Key`] for an invalid plugin name.
    pub fn default_for(name: &str) -> Result<Self, Error> {
        let hrp = format!("age-plugin-{}-", name.to_ascii_lowercase());
        let encoding = valid_name(name)
            .then(|| bech::try_encode(&hrp, &[], true))
            .flatten()
            .ok_or_else(|| Error::Key(format!("invalid plugin name: {name:?}")))?;
        Ok(PluginIdentity {
            name: name.to_owned(),
            encoding,
            client: PluginClient::default(),
        })
    }

    /// The plugin's name (its program is `age-plugin-NAME`).
    pub fn plugin_name(&self) -> &str {
        &self.name
    }

    /// Runs its plugin with `client`.
    #[must_use]
    pub fn with_client(mut self, client: &PluginClient) -> Self {
        self.client = client.clone();
        self
    }

    /// This identity as a recipient: the plugin wraps to it
    /// (`add-identity` in `recipient-v1`), as `age -e -i`/`-e -j` does.
    pub fn to_recipient(&self) -> PluginRecipient {
        PluginRecipient {
            name: self.name.clone(),
            encoding: self.encoding.clone(),
            identity: true,
            client: self.client.clone(),
        }
    }

    /// Unwraps the file key through `identity-v1`, handing the plugin every
    /// stanza of the header: `Ok(None)` if it found none for it.
    pub(super) fn unwrap(&self, stanzas: &[Stanza]) -> Result<Option<FileKey>, Error> {
        let mut conn = Conn::start(&self.name, "identity-v1", &self.client)?;
        conn.send("add-identity", &[self.encoding.expose()], &[]);
        conn.grease();
        for s in stanzas {
            let mut args = vec!["0", s.kind.as_str()];
            args.extend(s.args.iter().map(String::as_str));
            conn.send("recipient-stanza", &args, &s.body);
        }
        conn.send("done", &[], &[]);
        let mut file_key = None;
        loop {
            let msg = conn.recv()?;
            match msg.kind.as_str() {
                "file-key" => {
                    let [index] = &msg.args[..] else {
                        return Err(conn.fail("malformed file-key stanza: unexpected arguments count"));
                    };
                    if index.parse::<u64>().ok() != Some(0) {
                        return Err(conn.fail("malformed file-key stanza: unexpected index"));
                    }
                    if file_key.is_some() {
                        return Err(conn.fail("received duplicated file-key stanza"));
                    }
                    let key = FileKey::from_slice(&msg.body).ok_or_else(|| {
                        conn.fail("malformed file-key stanza: the file key is not 16 bytes")
                    })?;
                    file_key = Some(key);
                    conn.send("ok", &[], &[]);
                }
                "error" => {
                    conn.send("ok", &[], &[]);
                    return Err(conn.plugin_error(&msg));
                }
                "done" => break,
                _ => conn.interact(&msg)?,
            }
        }
        conn.finished();
        Ok(file_key)
    }
}

/// One message of the protocol: an age stanza (its body may be a secret).
struct Msg {
    kind: String,
    args: Vec<String>,
    body: Zeroizing<Vec<u8>>,
}

/// Encodes a stanza as the age header does: `-> kind args…`, the body in
/// 64-column lines of unpadded base64, the last one shorter (maybe empty).
/// Wiped when dropped: it may carry a file key or a secret.
fn encode(kind: &str, args: &[&str], body: &[u8]) -> Zeroizing<Vec<u8>> {
    let b64_len = body.len().div_ceil(3) * 4;
    let mut b64 = Zeroizing::new(String::with_capacity(b64_len));
    STANDARD_NO_PAD.encode_string(body, &mut b64);
    let head: usize = 3 + kind.len() + args.iter().map(|a| a.len() + 1).sum::<usize>() + 1;
    let mut out = Zeroizing::new(Vec::with_capacity(head + b64.len() + b64.len() / COLUMNS + 2));
    out.extend_from_slice(b"-> ");
    out.extend_from_slice(kind.as_bytes());
    for a in args {
        out.push(b' ');
        out.extend_from_slice(a.as_bytes());
    }
    out.push(b'\n');
    let mut last = 0;
    for line in b64.as_bytes().chunks(COLUMNS) {
        out.extend_from_slice(line);
        out.push(b'\n');
        last = line.len();
    }
    if last == COLUMNS || b64.is_empty() {
        out.push(b'\n');
    }
    out
}

/// Reads one line (through `\n`) of at most [`MAX_LINE`] bytes; `Ok(false)`
/// at the end of input before any byte.
fn read_line(
    input: &mut impl BufRead,
    line: &mut Zeroizing<Vec<u8>>,
    total: &mut usize,
) -> Result<bool, String> {
    line.clear();
    loop {
        let buf = input
            .fill_buf()
            .map_err(|e| format!("reading from the plugin: {e}"))?;
        if buf.is_empty() {
            return if line.is_empty() {
                Ok(false)
            } else {
                Err("the plugin's output ends in the middle of a line".into())
            };
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take > MAX_LINE + 1 {
            return Err(format!(
                "the plugin sent a line longer than {} KiB",
                MAX_LINE >> 10
            ));
        }
        *total += take;
        if *total > MAX_TOTAL {
            return Err(format!("the plugin sent more than {} MiB", MAX_TOTAL >> 20));
        }
        line.extend_from_slice(&buf[..take]);
        input.consume(take);
        if done {
            line.pop();
            return Ok(true);
        }
    }
}

/// Reads one stanza from the plugin, strictly (as the age header is read);
/// `Ok(None)` at the end of its output between stanzas.
fn read_msg(input: &mut impl BufRead, total: &mut usize) -> Result<Option<Msg>, String> {
    let mut line = Zeroizing::new(Vec::new());
    if !read_line(input, &mut line, total)? {
        return Ok(None);
    }
    let shown = |l: &[u8]| {
        let cut = &l[..l.len().min(80)];
        format!("{:?}", String::from_utf8_lossy(cut))
    };
    let mut words = line.split(|&b| b == b' ');
    if words.next() != Some(&b"->"[..]) {
        return Err(format!(
            "the plugin sent a malformed stanza line {}",
            shown(&line)
        ));
    }
    let mut args = Vec::new();
    for w in words {
        if !is_word(w) {
            return Err(format!(
                "the plugin sent a malformed stanza line {}",
                shown(&line)
            ));
        }
        args.push(String::from_utf8_lossy(w).into_owned());
    }
    if args.is_empty() {
        return Err("the plugin sent a stanza without a type".into());
    }
    let kind = args.remove(0);
    let mut body = Zeroizing::new(Vec::new());
    loop {
        if !read_line(input, &mut line, total)? {
            return Err("the plugin's output ends inside a stanza".into());
        }
        if line.len() > COLUMNS {
            return Err(format!(
                "the plugin sent a stanza body line longer than {COLUMNS} columns"
            ));
        }
        let decoded = std::str::from_utf8(&line)
            .ok()
            .and_then(b64_decode)
            .map(Zeroizing::new)
            .ok_or_else(|| format!("the plugin sent a malformed stanza body line {}", shown(&line)))?;
        if body.len() + decoded.len() > MAX_BODY {
            return Err(format!(
                "the plugin sent a stanza body over {} MiB",
                MAX_BODY >> 20
            ));
        }
        body.extend_from_slice(&decoded);
        if decoded.len() < COLUMNS / 4 * 3 {
            return Ok(Some(Msg { kind, args, body }));
        }
    }
}

/// Text from a plugin, fit to show: invalid UTF-8 replaced, control
/// characters escaped (a plugin cannot drive the terminal), at most 4 KiB.
fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX_STDERR)]);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if bytes.len() > MAX_STDERR {
        out.push('…');
    }
    out
}

/// A running plugin: its process, a thread writing to its standard input,
/// a thread reading stanzas from its output, one keeping the start of its
/// standard error. Dropping it closes the plugin's input, gives a plugin
/// that finished a moment to exit, kills any other, and reaps it.
struct Conn<'a> {
    name: &'a str,
    client: &'a PluginClient,
    child: Child,
    to_plugin: Option<Sender<Zeroizing<Vec<u8>>>>,
    from_plugin: Receiver<Result<Msg, String>>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<std::thread::JoinHandle<()>>,
    done: bool,
}

impl<'a> Conn<'a> {
    fn start(name: &'a str, machine: &str, client: &'a PluginClient) -> Result<Conn<'a>, Error> {
        let program = client.find(name)?;
        let debug = std::env::var_os("AGEDEBUG").is_some_and(|v| v == "plugin");
        let mut child = Command::new(&program)
            .arg(format!("--age-plugin={machine}"))
            // Plugins must not rely on the working directory (as age: the temporary one).
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug { Stdio::inherit() } else { Stdio::piped() })
            .spawn()
            .map_err(|e| Error::Plugin {
                name: name.to_owned(),
                message: format!("couldn't start plugin {}: {e}", program.display()),
            })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (to_plugin, for_writer) = mpsc::channel::<Zeroizing<Vec<u8>>>();
        std::thread::spawn(move || write_all(stdin, &for_writer));
        let (from_reader, from_plugin) = mpsc::channel();
        std::thread::spawn(move || read_all(stdout, &from_reader));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let stderr_thread = child.stderr.take().map(|err| {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || keep_stderr(err, &kept))
        });
        Ok(Conn {
            name,
            client,
            child,
            to_plugin: Some(to_plugin),
            from_plugin,
            stderr,
            stderr_thread,
            done: false,
        })
    }

    fn send(&self, kind: &str, args: &[&str], body: &[u8]) {
        if let Some(tx) = &self.to_plugin {
            // A plugin that stopped reading shows on its output side.
            let _ = tx.send(encode(kind, args, body));
        }
    }

    /// A random command the plugin must ignore (as age sends, two times in three).
    fn grease(&self) {
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
    fn recv(&mut self) -> Result<Msg, Error> {
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
            match self.from_plugin.recv_timeout(wait) {
                Ok(Ok(msg)) => return Ok(msg),
                Ok(Err(why)) => return Err(self.fail(&why)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// The plugin's output ended before `done`: how it exited, and what it
    /// said on standard error.
    fn exited(&mut self) -> Error {
        let deadline = Instant::now() + Duration::from_secs(1);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
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
    fn fail(&self, why: &str) -> Error {
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
    fn plugin_error(&self, msg: &Msg) -> Error {
        Error::Plugin {
            name: self.name.to_owned(),
            message: printable(&msg.body),
        }
    }

    /// The plugin said `done`.
    fn finished(&mut self) {
        self.done = true;
    }

    /// Answers `msg`, `confirm`, `request-public`, `request-secret`
    /// through the UI (`fail` without one), anything else `unsupported`.
    fn interact(&self, msg: &Msg) -> Result<(), Error> {
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
            while Instant::now() < deadline {
                match self.child.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn stanzas_encode_as_the_header_does_and_read_back() {
        for len in [0, 1, 16, 47, 48, 49, 96, 200] {
            let body: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let bytes = encode("recipient-stanza", &["0", "X25519", "abc"], &body);
            let mut total = 0;
            let msg = read_msg(&mut &bytes[..], &mut total).unwrap().unwrap();
            assert_eq!(msg.kind, "recipient-stanza");
            assert_eq!(msg.args, ["0", "X25519", "abc"]);
            assert_eq!(&msg.body[..], &body[..]);
            assert_eq!(total, bytes.len());
        }
        assert_eq!(&encode("done", &[], &[])[..], b"-> done\n\n");
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        let cases: [(&[u8], &str); 6] = [
            (b"hello\n", "malformed stanza line"),
            (b"-> ok\n", "ends inside a stanza"),
            (b"-> ok\nAA=\n", "malformed stanza body"),
            (b"-> ok  x\n\n", "malformed stanza line"),
            (b"->\n\n", "a stanza without a type"),
            (b"-> ok", "middle of a line"),
        ];
        for (bytes, why) in cases {
            let err = read_msg(&mut &bytes[..], &mut 0).err().unwrap();
            assert!(err.contains(why), "{bytes:?}: {err}");
        }
        let long = [b"-> ".as_slice(), &vec![b'a'; MAX_LINE + 10], b"\n"].concat();
        let err = read_msg(&mut &long[..], &mut 0).err().unwrap();
        assert!(err.contains("longer than 64 KiB"), "{err}");
        assert!(read_msg(&mut &b""[..], &mut 0).unwrap().is_none());
    }

    #[test]
    fn names_and_encodings() {
        let id = PluginIdentity::default_for("batchpass").unwrap();
        assert!(
            id.encoding.expose().starts_with("AGE-PLUGIN-BATCHPASS-1"),
            "{}",
            id.encoding.expose()
        );
        let back = PluginIdentity::parse(id.encoding.expose()).unwrap();
        assert_eq!(back.plugin_name(), "batchpass");
        assert!(!format!("{back:?}").contains("AGE-PLUGIN"));
        assert!(PluginIdentity::default_for("a/b").is_err());
        assert!(PluginIdentity::default_for("").is_err());
        let r = bech::try_encode("age1yubikey", &[1, 2, 3], false).unwrap();
        let rec = PluginRecipient::parse(r.expose()).unwrap();
        assert_eq!(rec.plugin_name(), "yubikey");
        assert_eq!(rec.to_string(), r.expose());
        assert!(PluginRecipient::parse(&r.expose().to_uppercase()).is_err());
        assert!(PluginRecipient::parse("age1yubikey1qqqq").is_err());
        assert_eq!(id.to_recipient().to_string(), "<identity-based recipient>");
    }

    #[test]
    fn printable_escapes_control_characters() {
        assert_eq!(printable(b"ok \x1b[2J\n"), "ok \\u{1b}[2J\\n");
        assert!(printable(&[b'a'; MAX_STDERR + 5]).ends_with('…'));
    }
}
