//! Recipients and identities of every type, parsed from strings and from
//! the files the age CLI reads (`-R` recipients files, `-i` identity files
//! as age-keygen writes them), and key generation in age-keygen's format.

use std::fmt;
use std::io::Read;
use std::path::Path;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use zeroize::Zeroizing;

use super::format::Stanza;
use super::plugin::{PluginClient, PluginIdentity, PluginRecipient};
use super::pq::{HybridIdentity, HybridRecipient};
use super::primitives::{FileKey, Random};
use super::scrypt::{Passphrase, unwrap_passphrase};
use super::ssh::{EncryptedSshIdentity, SshIdentity, SshRecipient};
use super::tag::TagRecipient;
use super::x25519::{X25519Identity, X25519Recipient};
use super::{Error, OptionsError, armor};
use crate::secret::{SecretBytes, SecretString};

/// The largest identity or recipients file read (as age: 16 MiB).
const MAX_KEY_FILE: u64 = 16 << 20;
/// The longest line of a recipients file (as age and sshd: 8 KiB).
const MAX_RECIPIENT_LINE: usize = 8 << 10;

/// Who can open a file being encrypted.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Recipient {
    /// An X25519 public key (`age1…`).
    X25519(X25519Recipient),
    /// A post-quantum hybrid public key (`age1pq1…`); only beside others of its kind.
    Hybrid(HybridRecipient),
    /// An SSH public key (`ssh-ed25519 …` or `ssh-rsa …`, authorized_keys format).
    Ssh(SshRecipient),
    /// A passphrase (scrypt); a file's only recipient.
    Passphrase(Passphrase),
    /// A tagged recipient (`age1tag1…`, or `age1tagpq1…`: post-quantum,
    /// only beside others of its kind), for keys held in hardware; files to
    /// it are opened by the key's plugin.
    Tag(TagRecipient),
    /// A recipient an age plugin wraps to (`age1NAME1…`, or a plugin
    /// identity used as a recipient); its program runs when a file is encrypted.
    Plugin(PluginRecipient),
}

/// Which recipients may share a file (a plugin's say so by their labels,
/// known once they wrapped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Classic,
    PostQuantum,
    Passphrase,
    Plugin,
}

impl Recipient {
    /// Parses a public key as the age CLI's `-r` does: `age1pq1…`, `age1…`,
    /// `ssh-ed25519 …`, `ssh-rsa …`, tagged `age1tag1…`/`age1tagpq1…`, and
    /// plugin recipients `age1NAME1…`
    /// (run with a default [`PluginClient`]: see [`Recipient::with_plugin_client`]).
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Recipient, Error> {
        if s.starts_with("age1pq1") {
            HybridRecipient::parse(s).map(Recipient::Hybrid)
        } else if s.starts_with("age1tag1") || s.starts_with("age1tagpq1") {
            TagRecipient::parse(s).map(Recipient::Tag)
        } else if s.starts_with("age1") && s.matches('1').count() > 1 {
            PluginRecipient::parse(s).map(Recipient::Plugin)
        } else if s.starts_with("age1") {
            X25519Recipient::parse(s).map(Recipient::X25519)
        } else if s.starts_with("ssh-") {
            SshRecipient::parse(s).map(Recipient::Ssh)
        } else {
            let shown = if s.starts_with("AGE-") {
                "an identity (secret key)".to_owned()
            } else {
                format!("{s:?}")
            };
            Err(Error::Key(format!("unknown recipient type: {shown}")))
        }
    }

    /// A passphrase recipient with age's work factor.
    ///
    /// # Errors
    /// [`Error::Options`] for an empty passphrase.
    pub fn passphrase(passphrase: SecretBytes) -> Result<Recipient, Error> {
        Passphrase::new(passphrase).map(Recipient::Passphrase)
    }

    /// A plugin recipient runs its plugin with `client` (its UI, timeout,
    /// search path); other recipients are returned as they are.
    #[must_use]
    pub fn with_plugin_client(self, client: &PluginClient) -> Recipient {
        match self {
            Recipient::Plugin(p) => Recipient::Plugin(p.with_client(client)),
            other => other,
        }
    }

    fn class(&self) -> Class {
        match self {
            Recipient::Hybrid(_) => Class::PostQuantum,
            Recipient::Tag(t) if t.is_hybrid() => Class::PostQuantum,
            Recipient::Tag(_) => Class::Classic,
            Recipient::Passphrase(_) => Class::Passphrase,
            Recipient::X25519(_) | Recipient::Ssh(_) => Class::Classic,
            Recipient::Plugin(_) => Class::Plugin,
        }
    }

    /// The stanzas for `file_key`, and the labels that say which other
    /// recipients may share the file (sorted; as filippo.io/age's
    /// `RecipientWithLabels`: `postquantum` for the hybrid).
    fn wrap(&self, file_key: &FileKey, random: Random<'_>) -> Result<(Vec<Stanza>, Vec<String>), Error> {
        let one = |s: Result<Stanza, Error>| s.map(|s| vec![s]);
        let native = match self {
            Recipient::X25519(r) => one(r.wrap(file_key, random))?,
            Recipient::Hybrid(r) => one(r.wrap(file_key, random))?,
            Recipient::Ssh(r) => one(r.wrap(file_key, random))?,
            Recipient::Tag(r) => one(r.wrap(file_key, random))?,
            Recipient::Passphrase(p) => one(p.wrap(file_key, random))?,
            Recipient::Plugin(p) => return p.wrap(file_key),
        };
        let labels = match self.class() {
            Class::PostQuantum => vec!["postquantum".to_owned()],
            _ => Vec::new(),
        };
        Ok((native, labels))
    }
}

impl FromStr for Recipient {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

impl fmt::Display for Recipient {
    /// The public key as the CLI takes it (a passphrase shows as `(passphrase)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recipient::X25519(r) => r.fmt(f),
            Recipient::Hybrid(r) => r.fmt(f),
            Recipient::Ssh(r) => r.fmt(f),
            Recipient::Tag(r) => r.fmt(f),
            Recipient::Passphrase(_) => f.write_str("(passphrase)"),
            Recipient::Plugin(r) => r.fmt(f),
        }
    }
}

/// Wraps a file key for every recipient, enforcing age's rules on which
/// recipients may share a file: checked before any work among age's own
/// types, and by labels (as filippo.io/age) once plugins have wrapped.
pub(super) fn wrap_all(
    recipients: &[Recipient],
    file_key: &FileKey,
    random: Random<'_>,
) -> Result<Vec<Stanza>, Error> {
    if recipients.is_empty() {
        return Err(OptionsError::NoRecipients.into());
    }
    if recipients.len() > 1 && recipients.iter().any(|r| r.class() == Class::Passphrase) {
        return Err(OptionsError::PassphraseNotAlone.into());
    }
    let mut natives = recipients
        .iter()
        .map(Recipient::class)
        .filter(|c| *c != Class::Plugin);
    if let Some(first) = natives.next() {
        if natives.any(|c| c != first) {
            return Err(OptionsError::PostQuantumMixed.into());
        }
    }
    let mut stanzas = Vec::with_capacity(recipients.len());
    let mut first_labels: Option<Vec<String>> = None;
    for r in recipients {
        let (wrapped, labels) = r.wrap(file_key, random)?;
        match &first_labels {
            None => first_labels = Some(labels),
            Some(first) if *first != labels => {
                let pq = |l: &[String]| l.iter().any(|x| x == "postquantum");
                return Err(if pq(first) != pq(&labels) {
                    OptionsError::PostQuantumMixed
                } else {
                    OptionsError::IncompatibleLabels {
                        first: first.clone(),
                        other: labels,
                    }
                }
                .into());
            }
            Some(_) => {}
        }
        stanzas.extend(wrapped);
    }
    Ok(stanzas)
}

/// What opens a file being decrypted.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Identity {
    /// An X25519 secret key (`AGE-SECRET-KEY-1…`).
    X25519(X25519Identity),
    /// A post-quantum hybrid secret key (`AGE-SECRET-KEY-PQ-1…`).
    Hybrid(HybridIdentity),
    /// An unencrypted OpenSSH private key (Ed25519 or RSA).
    Ssh(SshIdentity),
    /// A passphrase-protected OpenSSH private key: the passphrase is asked
    /// for (see [`EncryptedSshIdentity::with_passphrase`]) only when a
    /// stanza names the key.
    EncryptedSsh(EncryptedSshIdentity),
    /// A passphrase.
    Passphrase(SecretBytes),
    /// An identity an age plugin unwraps with (`AGE-PLUGIN-NAME-1…`, or a
    /// plugin's default identity: [`PluginIdentity::default_for`]).
    Plugin(PluginIdentity),
}

/// Which kind of key to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyKind {
    /// X25519 (`age-keygen`).
    X25519,
    /// The post-quantum hybrid (`age-keygen -pq`).
    Hybrid,
}

impl Identity {
    /// A new random key pair (from the operating system's generator).
    pub fn generate(kind: KeyKind) -> Identity {
        match kind {
            KeyKind::X25519 => Identity::X25519(X25519Identity::generate()),
            KeyKind::Hybrid => Identity::Hybrid(HybridIdentity::generate()),
        }
    }

    /// Parses one identity line: `AGE-SECRET-KEY-1…`, `AGE-SECRET-KEY-PQ-1…`
    /// or a plugin identity `AGE-PLUGIN-NAME-1…` (run with a default
    /// [`PluginClient`]: see [`Identity::with_plugin_client`]). Error
    /// messages never quote the key.
    ///
    /// # Errors
    /// [`Error::Key`].
    pub fn parse(s: &str) -> Result<Identity, Error> {
        if s.starts_with("AGE-SECRET-KEY-PQ-1") {
            HybridIdentity::parse(s).map(Identity::Hybrid)
        } else if s.starts_with("AGE-SECRET-KEY-1") {
            X25519Identity::parse(s).map(Identity::X25519)
        } else if s.starts_with("AGE-PLUGIN-") {
            PluginIdentity::parse(s).map(Identity::Plugin)
        } else if s.starts_with("age1") {
            Err(Error::Key(
                "apparent recipient (public key) where an identity is expected".into(),
            ))
        } else {
            Err(Error::Key("unknown identity type".into()))
        }
    }

    /// The public key that this identity opens (`None` for a passphrase).
    pub fn to_recipient(&self) -> Option<Recipient> {
        match self {
            Identity::X25519(i) => Some(Recipient::X25519(i.to_recipient())),
            Identity::Hybrid(i) => Some(Recipient::Hybrid(i.to_recipient())),
            Identity::Ssh(i) => Some(Recipient::Ssh(i.to_recipient())),
            Identity::EncryptedSsh(i) => Some(Recipient::Ssh(i.to_recipient())),
            Identity::Plugin(i) => Some(Recipient::Plugin(i.to_recipient())),
            Identity::Passphrase(_) => None,
        }
    }

    /// A plugin identity runs its plugin with `client` (its UI, timeout,
    /// search path); other identities are returned as they are.
    #[must_use]
    pub fn with_plugin_client(self, client: &PluginClient) -> Identity {
        match self {
            Identity::Plugin(i) => Identity::Plugin(i.with_client(client)),
            other => other,
        }
    }

    /// The secret key line (`AGE-SECRET-KEY-…`), wiped when dropped; `None`
    /// for SSH keys, plugin identities and passphrases.
    pub fn to_secret_string(&self) -> Option<SecretString> {
        match self {
            Identity::X25519(i) => Some(i.to_secret_string()),
            Identity::Hybrid(i) => Some(i.to_secret_string()),
            Identity::Ssh(_) | Identity::EncryptedSsh(_) | Identity::Plugin(_) | Identity::Passphrase(_) => {
                None
            }
        }
    }

    /// age's own key types are tried before SSH keys and plugins (as age does).
    pub(super) fn is_native(&self) -> bool {
        !matches!(
            self,
            Identity::Ssh(_) | Identity::EncryptedSsh(_) | Identity::Plugin(_)
        )
    }

    /// The file key from the first of `stanzas` this identity opens;
    /// `Ok(None)` if none is for it; an error for a malformed stanza of its
    /// type. A plugin identity runs its plugin once, with every stanza
    /// (the plugin says which are its own).
    pub(super) fn unwrap(&self, stanzas: &[Stanza], max_work_factor: u8) -> Result<Option<FileKey>, Error> {
        for stanza in stanzas {
            let key = match self {
                Identity::X25519(i) => i.unwrap(stanza),
                Identity::Hybrid(i) => i.unwrap(stanza),
                Identity::Ssh(i) => i.unwrap(stanza),
                Identity::EncryptedSsh(i) => i.unwrap(stanza),
                Identity::Passphrase(p) => unwrap_passphrase(p, stanza, max_work_factor),
                Identity::Plugin(i) => return i.unwrap(stanzas),
            }?;
            if key.is_some() {
                return Ok(key);
            }
        }
        Ok(None)
    }

    /// The identity file age-keygen writes for this key: `# created:` (the
    /// time given, e.g. [`rfc3339_utc`]), `# public key:`, the secret key.
    /// Wiped when dropped.
    ///
    /// # Errors
    /// [`Error::Options`] for SSH keys and passphrases.
    pub fn keygen_file(&self, created: &str) -> Result<SecretString, Error> {
        let (Some(secret), Some(public)) = (self.to_secret_string(), self.to_recipient()) else {
            return Err(OptionsError::NotAnAgeKey.into());
        };
        Ok(SecretString::new(format!(
            "# created: {created}\n# public key: {public}\n{}\n",
            secret.expose()
        )))
    }
}

impl FromStr for Identity {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

/// `time` as RFC 3339 in UTC (`2026-11-27T06:31:00Z`), for
/// [`Identity::keygen_file`] (age-keygen writes local time with its offset;
/// both are RFC 3339).
pub fn rfc3339_utc(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The lines of a key file that carry keys: without `#` comments, empty
/// lines, and a `\r` before each newline; numbered from 1.
fn key_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// Parses an identity file as the age CLI's `-i` reads it: an OpenSSH
/// private key (PEM; a passphrase-protected one is an
/// [`Identity::EncryptedSsh`]), or age identities one per line with `#`
/// comments and empty lines ignored (age-keygen's output). Error messages
/// never quote a line.
///
/// # Errors
/// [`Error::Key`] naming the line; for an age-encrypted identity file
/// (binary or armored: [`super::detect`] tells), an error saying so — the
/// caller decrypts it (with a passphrase) and parses the plaintext.
pub fn parse_identities(text: &[u8]) -> Result<Vec<Identity>, Error> {
    let trimmed = text.trim_ascii_start();
    if text.starts_with(super::format::MAGIC) || trimmed.starts_with(armor::BEGIN.as_bytes()) {
        return Err(Error::Key(
            "the identity file is itself age-encrypted: decrypt it first (age asks for its passphrase)"
                .into(),
        ));
    }
    if trimmed.starts_with(b"-----BEGIN") {
        return super::ssh::parse_private(text).map(|i| vec![i]);
    }
    let text =
        std::str::from_utf8(text).map_err(|_| Error::Key("the identities file is not valid UTF-8".into()))?;
    let mut ids = Vec::new();
    for (n, line) in key_lines(text) {
        let id = Identity::parse(line).map_err(|e| Error::Key(format!("identities file, line {n}: {e}")))?;
        ids.push(id);
    }
    if ids.is_empty() {
        return Err(Error::Key("no identities found".into()));
    }
    Ok(ids)
}

/// A recipients file, parsed.
#[derive(Clone, Debug)]
pub struct RecipientsFile {
    /// The recipients, in file order.
    pub recipients: Vec<Recipient>,
    /// Lines skipped as age skips them, with a warning: valid SSH public
    /// keys of types age does not encrypt to (ECDSA, RSA under 2048 bits).
    pub ignored: Vec<String>,
}

/// Parses a recipients file as the age CLI's `-R` reads it: one recipient
/// per line, `#` comments and empty lines ignored; SSH keys of types age
/// does not support are skipped (listed in [`RecipientsFile::ignored`]).
/// Error messages never quote a line (it might be a secret).
///
/// # Errors
/// [`Error::Key`] naming the line; no recipients at all.
pub fn parse_recipients(text: &[u8]) -> Result<RecipientsFile, Error> {
    let text =
        std::str::from_utf8(text).map_err(|_| Error::Key("the recipients file is not valid UTF-8".into()))?;
    let mut file = RecipientsFile {
        recipients: Vec::new(),
        ignored: Vec::new(),
    };
    for (n, line) in key_lines(text) {
        if line.len() > MAX_RECIPIENT_LINE {
            return Err(Error::Key(format!("recipients file, line {n} is too long")));
        }
        match Recipient::parse(line) {
            Ok(r) => file.recipients.push(r),
            Err(_) if super::ssh::unsupported_key_type(line).is_some() => {
                let kind = super::ssh::unsupported_key_type(line).unwrap_or_default();
                file.ignored
                    .push(format!("line {n}: unsupported SSH key of type {kind:?}"));
            }
            Err(_) if line.starts_with("AGE-") => {
                return Err(Error::Key(format!(
                    "recipients file, line {n}: apparent identity (secret key) found in a recipients file"
                )));
            }
            Err(_) => {
                return Err(Error::Key(format!(
                    "recipients file, line {n}: malformed recipient"
                )));
            }
        }
    }
    if file.recipients.is_empty() {
        return Err(Error::Key("no recipients found".into()));
    }
    Ok(file)
}

/// Reads a key file of at most 16 MiB into wiped memory.
fn read_key_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, Error> {
    let file = std::fs::File::open(path)?;
    let mut text = Zeroizing::new(Vec::new());
    file.take(MAX_KEY_FILE + 1).read_to_end(&mut text)?;
    if text.len() as u64 > MAX_KEY_FILE {
        return Err(Error::Key(format!("{} is longer than 16 MiB", path.display())));
    }
    Ok(text)
}

/// [`parse_identities`] of a file.
///
/// # Errors
/// As [`parse_identities`]; I/O errors.
pub fn read_identities(path: impl AsRef<Path>) -> Result<Vec<Identity>, Error> {
    parse_identities(&read_key_file(path.as_ref())?)
}

/// [`parse_recipients`] of a file.
///
/// # Errors
/// As [`parse_recipients`]; I/O errors.
pub fn read_recipients(path: impl AsRef<Path>) -> Result<RecipientsFile, Error> {
    parse_recipients(&read_key_file(path.as_ref())?)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn rfc3339_dates() {
        let at = |s: u64| rfc3339_utc(UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_798_761_599), "2026-12-31T23:59:59Z");
    }

    #[test]
    fn identity_files_as_age_keygen_writes_them() {
        let id = Identity::generate(KeyKind::X25519);
        let file = id.keygen_file("2026-11-27T06:31:00Z").unwrap();
        let lines: Vec<&str> = file.expose().lines().collect();
        assert_eq!(lines[0], "# created: 2026-11-27T06:31:00Z");
        assert_eq!(lines[1], format!("# public key: {}", id.to_recipient().unwrap()));
        assert!(lines[2].starts_with("AGE-SECRET-KEY-1"));
        let crlf = file.expose().replace('\n', "\r\n")
            + "\n# another\n"
            + Identity::generate(KeyKind::Hybrid)
                .keygen_file("x")
                .unwrap()
                .expose();
        let ids = parse_identities(crlf.as_bytes()).unwrap();
        assert_eq!(ids.len(), 2);
        assert!(matches!(ids[1], Identity::Hybrid(_)));
        let err = parse_identities(b"# c\n\nAGE-SECRET-KEY-1QQQQ\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 3") && !err.contains("QQQQ"), "{err}");
        assert!(parse_identities(b"# nothing\n").is_err());
    }

    #[test]
    fn recipients_files_and_mixing_rules() {
        let a = Identity::generate(KeyKind::X25519).to_recipient().unwrap();
        let pq = Identity::generate(KeyKind::Hybrid).to_recipient().unwrap();
        let text = format!("# team\n{a}\n\n{pq}\n");
        let file = parse_recipients(text.as_bytes()).unwrap();
        assert_eq!(file.recipients.len(), 2);
        let err = parse_recipients(b"age1notakey\n").unwrap_err().to_string();
        assert!(err.contains("line 1") && !err.contains("notakey"), "{err}");
        let fk = FileKey::from_slice(&[1; 16]).unwrap();
        let err = wrap_all(&file.recipients, &fk, &mut super::super::primitives::os_random).unwrap_err();
        assert!(err.to_string().contains("can't be mixed"), "{err}");
        let p = Recipient::passphrase(SecretBytes::from(&b"pw"[..])).unwrap();
        let err = wrap_all(&[p, a], &fk, &mut super::super::primitives::os_random).unwrap_err();
        assert!(err.to_string().contains("only recipient"), "{err}");
    }
}
