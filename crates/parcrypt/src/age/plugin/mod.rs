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

mod conn;
mod wire;

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::format::Stanza;
use super::primitives::FileKey;
use super::{Error, bech};
use crate::secret::{SecretBytes, SecretString};
use conn::Conn;

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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

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
}
