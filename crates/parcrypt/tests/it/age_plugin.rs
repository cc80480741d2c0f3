//! The age plugin protocol's client: recipients `age1NAME1…` and
//! identities `AGE-PLUGIN-NAME-1…` through their programs.
//!
//! - Small shell-script plugins (always run): a toy plugin round trip
//!   through both state machines, with `msg`, `request-secret` (answered by
//!   a UI, refused without one) and `unsupported`; hostile plugins (garbage,
//!   an overlong line, a huge body, exiting, hanging past the timeout, bad
//!   indices, a short file key, an error of their own, none on `PATH`),
//!   each a clear error, the process killed and reaped.
//! - The test plugin `age-plugin-ptest`, written with filippo.io/age/plugin
//!   v1.3.2 (built with Go; skipped without it, a failure under
//!   `PARCRYPT_REQUIRE_TOOLS=1`): several recipients of a plugin and of
//!   age's own types in one file, each identity opening it; `msg`,
//!   `confirm`, `request-secret`, `request-public` through a UI; the
//!   plugin's errors in its own words; a hang; an exit; labels that forbid
//!   sharing a file; natives tried before any plugin runs.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use parcrypt::age::{
    self, DecryptOptions, Error, Identity, KeyKind, Options, PluginClient, PluginIdentity, PluginUi,
    Recipient,
};
use parcrypt::par::{Parallelism, Strategy};
use parcrypt::secret::SecretBytes;

use super::age_go_tools::{go_programs, ptest_keygen};
use super::common::data;

/// Writes `age-plugin-NAME` into `dir`: a shell script.
///
/// The file is written by a child `sh`, never opened for writing by this
/// process: a child that another test forks meanwhile (they start plugins
/// and tools in parallel) would inherit that descriptor until it execs, and
/// starting the script then fails with "Text file busy" (ETXTBSY; seen once
/// in CI).
fn script(dir: &Path, name: &str, body: &str) {
    let path = dir.join(format!("age-plugin-{name}"));
    let mut sh = std::process::Command::new("sh")
        .args(["-c", r#"cat > "$1" && chmod 755 "$1""#, "sh"])
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let text = format!("#!/bin/sh\n{body}\n");
    sh.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(sh.wait().unwrap().success(), "writing {}", path.display());
}

/// A plugin that "wraps" the file key in the clear (stanza type `toy`,
/// its body the file key) and unwraps it back; with `ask`, it first asks
/// for a secret and refuses (an error of its own) unless it is "1234".
/// Also sends a `msg` and an unknown command, which must be answered
/// `unsupported`.
const TOY: &str = r#"
b64() { printf '%s' "$1" | base64 | tr -d '=\n'; }
send() { printf '%s\n' "$@"; }
answer() { IFS= read -r reply; IFS= read -r body; }
refuse() { send '-> error internal' "$(b64 "$1")"; answer; exit 3; }
ask() {
  send '-> frobnicate' ''; answer
  [ "$reply" = "-> unsupported" ] || refuse "not unsupported: $reply"
  send '-> msg' "$(b64 'hello from toy')"; answer
  if [ -n "$ASK" ]; then
    send '-> request-secret' "$(b64 'Toy PIN:')"; answer
    [ "$reply" = "-> ok" ] || refuse 'no PIN: the client refused'
    [ "$body" = "$(b64 1234)" ] || refuse 'wrong PIN'
  fi
}
key=""; next=""
case "$1" in
--age-plugin=recipient-v1)
  while IFS= read -r line; do
    [ "$next" = key ] && key="$line"; next=""
    case "$line" in "-> wrap-file-key") next=key;; "-> done") IFS= read -r line; break;; esac
  done
  ask
  send '-> labels' ''; answer
  send '-> recipient-stanza 0 toy' "$key"; answer
  send '-> done' '';;
--age-plugin=identity-v1)
  while IFS= read -r line; do
    [ "$next" = key ] && key="$line"; next=""
    case "$line" in "-> recipient-stanza 0 toy") next=key;; "-> done") IFS= read -r line; break;; esac
  done
  if [ -n "$key" ]; then ask; send '-> file-key 0' "$key"; answer; fi
  send '-> done' '';;
esac
"#;

/// A UI that answers as told and records what it was asked.
#[derive(Default)]
struct Ui {
    secret: Option<&'static str>,
    public: Option<&'static str>,
    confirm: Option<bool>,
    seen: Mutex<Vec<String>>,
}

impl PluginUi for Ui {
    fn display_message(&self, plugin: &str, message: &str) -> bool {
        self.seen.lock().unwrap().push(format!("msg {plugin}: {message}"));
        true
    }

    fn request_value(&self, plugin: &str, prompt: &str, secret: bool) -> Option<SecretBytes> {
        self.seen
            .lock()
            .unwrap()
            .push(format!("request {plugin} {secret}: {prompt}"));
        let value = if secret { self.secret } else { self.public };
        value.map(|v| SecretBytes::from(v.as_bytes()))
    }

    fn confirm(&self, plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        self.seen.lock().unwrap().push(format!(
            "confirm {plugin}: {prompt} [{yes}/{}]",
            no.unwrap_or("-")
        ));
        self.confirm
    }
}

fn par() -> Parallelism {
    Parallelism::new(4, Strategy::WorkStealing)
}

fn encrypt(recipients: &[Recipient], plain: &[u8]) -> Result<Vec<u8>, Error> {
    age::encrypt(recipients, plain, &Options::default(), &par())
}

fn decrypt(identities: &[Identity], file: &[u8]) -> Result<Vec<u8>, Error> {
    age::decrypt(identities, file, &DecryptOptions::default(), &par()).map(|p| p.expose().to_vec())
}

/// A plugin recipient string `age1NAME1…` carrying `data`.
fn plugin_recipient(name: &str, data: &[u8]) -> String {
    let hrp = bech32::Hrp::parse(&format!("age1{name}")).unwrap();
    bech32::encode_lower::<bech32::Bech32>(hrp, data).unwrap()
}

fn plugin_error(e: &Error) -> (&str, &str) {
    match e {
        Error::Plugin { name, message } => (name, message),
        other => panic!("not a plugin error: {other:?} ({other})"),
    }
}

#[test]
fn a_toy_plugin_wraps_and_unwraps_through_both_state_machines() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "toy", TOY);
    let ui = Arc::new(Ui::default());
    let client = PluginClient::new()
        .with_search_path(dir.path())
        .with_ui(ui.clone());
    let recipient = Recipient::parse(&plugin_recipient("toy", b"anything"))
        .unwrap()
        .with_plugin_client(&client);
    let native = Identity::generate(KeyKind::X25519);
    let plain = data(3 * 65536 + 5);
    // Beside a native recipient: one file, either identity opens it.
    let file = encrypt(&[recipient, native.to_recipient().unwrap()], &plain).unwrap();
    let header = age::Header::parse(&file).unwrap();
    let kinds: Vec<&str> = header.stanzas().iter().map(|s| s.kind.as_str()).collect();
    assert_eq!(kinds, ["toy", "X25519"]);
    let toy = Identity::Plugin(PluginIdentity::default_for("toy").unwrap()).with_plugin_client(&client);
    assert_eq!(decrypt(std::slice::from_ref(&toy), &file).unwrap(), plain);
    assert_eq!(decrypt(&[native], &file).unwrap(), plain);
    let seen = ui.seen.lock().unwrap().clone();
    assert_eq!(seen, ["msg toy: hello from toy", "msg toy: hello from toy"]);
    // The payload is the same on every schedule: only the file key went through the plugin.
    for p in [Parallelism::sequential(), Parallelism::new(3, Strategy::Static)] {
        assert_eq!(
            age::decrypt(std::slice::from_ref(&toy), &file, &DecryptOptions::default(), &p)
                .unwrap()
                .expose(),
            plain
        );
    }
    // A plugin identity as a recipient (`-e -j toy`).
    let file = encrypt(&[toy.to_recipient().unwrap()], b"x").unwrap();
    assert_eq!(decrypt(std::slice::from_ref(&toy), &file).unwrap(), b"x");
}

#[test]
fn a_plugins_request_secret_goes_to_the_ui_and_is_refused_without_one() {
    let dir = tempfile::tempdir().unwrap();
    script(dir.path(), "toy", &format!("ASK=1\n{TOY}"));
    let r = plugin_recipient("toy", b"");
    // Without a UI: the plugin is told `fail`, and its error says so in its words.
    let bare = PluginClient::new().with_search_path(dir.path());
    let e = encrypt(&[Recipient::parse(&r).unwrap().with_plugin_client(&bare)], b"x").unwrap_err();
    assert_eq!(plugin_error(&e), ("toy", "no PIN: the client refused"));
    assert_eq!(e.to_string(), "toy plugin: no PIN: the client refused");
    // The right PIN, then a wrong one.
    let right = Arc::new(Ui {
        secret: Some("1234"),
        ..Ui::default()
    });
    let client = bare.clone().with_ui(right.clone());
    let file = encrypt(
        &[Recipient::parse(&r).unwrap().with_plugin_client(&client)],
        b"secret",
    )
    .unwrap();
    let id = Identity::Plugin(PluginIdentity::default_for("toy").unwrap());
    assert_eq!(
        decrypt(&[id.clone().with_plugin_client(&client)], &file).unwrap(),
        b"secret"
    );
    assert!(
        right
            .seen
            .lock()
            .unwrap()
            .contains(&"request toy true: Toy PIN:".to_owned())
    );
    let wrong = bare.with_ui(Arc::new(Ui {
        secret: Some("0000"),
        ..Ui::default()
    }));
    let e = decrypt(&[id.with_plugin_client(&wrong)], &file).unwrap_err();
    assert_eq!(plugin_error(&e).1, "wrong PIN");
}

/// Hostile plugins: each fails with a clear error, and the plugin process
/// (which wrote its pid) is gone — killed and reaped — when the call returns.
#[test]
fn hostile_plugins_fail_clearly_and_are_killed_and_reaped() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = |name: &str| dir.path().join(format!("{name}.pid"));
    let cases: [(&str, &str, &str); 9] = [
        (
            "garbage",
            "printf 'hello, world\\n'",
            "malformed stanza line \"hello, world\"",
        ),
        (
            "longline",
            "head -c 200000 /dev/zero | tr '\\0' a",
            "a line longer than 64 KiB",
        ),
        (
            "hugebody",
            // `yes`, not a shell loop: the 1 MiB must come well inside the
            // timeout however busy the machine is (a loop of `echo` missed
            // it once under qemu on a loaded machine).
            "printf '%s\\n' '-> msg'; exec yes \"$(head -c 48 /dev/zero | base64 | tr -d '\\n')\"",
            "a stanza body over 1 MiB",
        ),
        (
            "exits",
            "echo 'broken on purpose' >&2; exit 3",
            "exited (exit status: 3) before finishing; it said: broken on purpose",
        ),
        ("hangs", "", "no answer from the plugin in 2 s"),
        (
            "nostanza",
            "printf '%s\\n' '-> done' ''",
            "received zero recipient stanzas",
        ),
        (
            "badindex",
            "printf '%s\\n' '-> recipient-stanza 1 x' AAAA",
            "malformed recipient stanza: unexpected index",
        ),
        (
            "fails",
            "printf '%s\\n' '-> error internal' \"$(printf 'the token \\033[31mis locked' | base64 | tr -d '=\\n')\"",
            "the token \\u{1b}[31mis locked",
        ),
        (
            "badconfirm",
            "printf '%s\\n' '-> confirm' ''",
            "malformed confirm stanza: unexpected number of arguments",
        ),
    ];
    // 2 s: what only the hanging plugin waits for, with room for a busy
    // machine in the others.
    let client = PluginClient::new()
        .with_search_path(dir.path())
        .with_timeout(Some(Duration::from_secs(2)));
    for (name, body, expect) in cases {
        // Every plugin ends by sleeping, as itself (exec): only the client can end it.
        let pid = pid_file(name);
        script(
            dir.path(),
            name,
            &format!("echo $$ > '{}'\n{body}\nexec sleep 600", pid.display()),
        );
        let r = Recipient::parse(&plugin_recipient(name, b""))
            .unwrap()
            .with_plugin_client(&client);
        let e = encrypt(&[r], b"x").unwrap_err();
        let (plugin, message) = plugin_error(&e);
        assert_eq!(plugin, name);
        assert!(message.contains(expect), "{name}: {message}");
        let pid = std::fs::read_to_string(&pid).unwrap();
        let proc = Path::new("/proc").join(pid.trim());
        assert!(
            !proc.exists(),
            "{name}: the plugin (pid {}) is still there",
            pid.trim()
        );
    }
    // identity-v1: a file key of the wrong length.
    script(
        dir.path(),
        "shortkey",
        "cat > /dev/null & printf '%s\\n' '-> file-key 0' AAAA; exec sleep 600",
    );
    let file = encrypt(
        &[Identity::generate(KeyKind::X25519).to_recipient().unwrap()],
        b"x",
    )
    .unwrap();
    let id = Identity::Plugin(PluginIdentity::default_for("shortkey").unwrap()).with_plugin_client(&client);
    let e = decrypt(&[id], &file).unwrap_err();
    assert!(plugin_error(&e).1.contains("the file key is not 16 bytes"), "{e}");
    // No program at all.
    let r = Recipient::parse(&plugin_recipient("nothere", b""))
        .unwrap()
        .with_plugin_client(&client);
    let e = encrypt(&[r], b"x").unwrap_err();
    assert!(
        matches!(&e, Error::PluginNotFound { name } if name == "nothere"),
        "{e:?}"
    );
    assert!(e.to_string().contains("\"nothere\" plugin not found"), "{e}");
}

#[test]
fn plugin_keys_parse_as_age_does() {
    let r = plugin_recipient("yubikey", &[1, 2, 3]);
    assert!(matches!(Recipient::parse(&r).unwrap(), Recipient::Plugin(_)));
    assert_eq!(Recipient::parse(&r).unwrap().to_string(), r);
    let id = PluginIdentity::default_for("batchpass").unwrap();
    let recipient = Identity::Plugin(id).to_recipient().unwrap();
    assert_eq!(recipient.to_string(), "<identity-based recipient>");
    // An identity file with a plugin identity and a native one.
    let native = Identity::generate(KeyKind::X25519);
    let text = format!(
        "# yubikey\nAGE-PLUGIN-YUBIKEY-1QQQQQQ\n{}\n",
        native.to_secret_string().unwrap().expose()
    );
    let err = age::parse_identities(text.as_bytes()).unwrap_err().to_string();
    assert!(
        err.contains("line 2") && err.contains("malformed plugin identity"),
        "{err}"
    );
    let good =
        bech32::encode_upper::<bech32::Bech32>(bech32::Hrp::parse("age-plugin-yubikey-").unwrap(), b"slot 1")
            .unwrap();
    let text = format!("{good}\n{}\n", native.to_secret_string().unwrap().expose());
    let ids = age::parse_identities(text.as_bytes()).unwrap();
    assert!(matches!(&ids[0], Identity::Plugin(p) if p.plugin_name() == "yubikey"));
    assert!(!format!("{:?}", ids[0]).contains(&good[20..]), "{:?}", ids[0]);
    // Invalid names.
    assert!(PluginIdentity::default_for("../x").is_err());
    assert!(Recipient::parse(&plugin_recipient("a", b"")).is_ok());
}

#[test]
fn the_test_plugin_of_filippo_io_age_plugin_wraps_and_unwraps_beside_native_keys() {
    let Some(go) = go_programs() else { return };
    let client = PluginClient::new().with_search_path(go);
    let ui = Arc::new(Ui::default());
    let with_ui = client.clone().with_ui(ui.clone());
    let (r1, i1) = ptest_keygen(go, "");
    let (r2, i2) = ptest_keygen(go, "msg");
    let native = Identity::generate(KeyKind::X25519);
    // Without a UI, the message cannot be shown, and the plugin makes that an error.
    let e = encrypt(
        &[Recipient::parse(&r2).unwrap().with_plugin_client(&client)],
        b"x",
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "ptest plugin: client failed to display message");
    let recipients: Vec<Recipient> = [r1.as_str(), r2.as_str()]
        .iter()
        .map(|r| Recipient::parse(r).unwrap().with_plugin_client(&with_ui))
        .chain([native.to_recipient().unwrap()])
        .collect();
    let plain = data(5 * 65536 + 3);
    let file = encrypt(&recipients, &plain).unwrap();
    let kinds: Vec<String> = age::Header::parse(&file)
        .unwrap()
        .stanzas()
        .iter()
        .map(|s| s.kind.clone())
        .collect();
    assert_eq!(kinds, ["ptest", "ptest", "X25519"]);
    for i in [&i1, &i2] {
        let id = Identity::parse(i).unwrap().with_plugin_client(&with_ui);
        assert_eq!(decrypt(&[id], &file).unwrap(), plain);
    }
    assert!(
        ui.seen
            .lock()
            .unwrap()
            .contains(&"msg ptest: hello from ptest".to_owned())
    );
    // A plugin identity that is not the file's: no match.
    let (_, other) = ptest_keygen(go, "");
    let e = decrypt(
        &[Identity::parse(&other).unwrap().with_plugin_client(&client)],
        &file,
    )
    .unwrap_err();
    assert!(matches!(e, Error::NoMatchingIdentity { .. }), "{e}");
    // Natives first: a matching native key opens the file before a plugin is started
    // (this one would fail if it ran).
    let (_, failing) = ptest_keygen(go, "error");
    let ids = [
        Identity::parse(&failing).unwrap().with_plugin_client(&client),
        native,
    ];
    assert_eq!(decrypt(&ids, &file).unwrap(), plain);
}

#[test]
fn the_test_plugin_asks_through_the_ui_and_fails_in_its_own_words() {
    let Some(go) = go_programs() else { return };
    let client = PluginClient::new().with_search_path(go);
    let encrypt_to = |mode: &str, ui: Option<Arc<Ui>>| {
        let (r, _) = ptest_keygen(go, mode);
        let c = match ui {
            Some(ui) => client.clone().with_ui(ui),
            None => client.clone(),
        };
        encrypt(&[Recipient::parse(&r).unwrap().with_plugin_client(&c)], b"plain")
    };
    let answers = Arc::new(Ui {
        secret: Some("1234"),
        public: Some("sesame"),
        confirm: Some(true),
        ..Ui::default()
    });
    for mode in ["secret", "public", "confirm", "confirm1"] {
        encrypt_to(mode, Some(answers.clone())).unwrap();
    }
    let seen = answers.seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            "request ptest true: Enter PIN for ptest:",
            "request ptest false: Type the magic word:",
            "confirm ptest: touch the ptest key? [yes/no]",
            "confirm ptest: touch the ptest key? [yes/-]",
        ]
    );
    let declines = Arc::new(Ui {
        confirm: Some(false),
        ..Ui::default()
    });
    let e = encrypt_to("confirm", Some(declines)).unwrap_err();
    assert_eq!(e.to_string(), "ptest plugin: declined by the user");
    // No UI: refused, in the plugin's words.
    let e = encrypt_to("secret", None).unwrap_err();
    assert_eq!(plugin_error(&e).1, "no PIN: client failed to request value");
    let e = encrypt_to("error", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "ptest plugin: the ptest plugin refuses: tamper detected"
    );
    let e = encrypt_to("exit", None).unwrap_err();
    assert!(plugin_error(&e).1.contains("exit status: 7"), "{e}");
    assert!(plugin_error(&e).1.contains("ptest: exiting on purpose"), "{e}");
    let quick = client.clone().with_timeout(Some(Duration::from_secs(1)));
    let (r, _) = ptest_keygen(go, "hang");
    let e = encrypt(&[Recipient::parse(&r).unwrap().with_plugin_client(&quick)], b"x").unwrap_err();
    assert!(plugin_error(&e).1.contains("no answer from the plugin"), "{e}");
    // Labels: a recipient that must be alone refuses company.
    let (lonely, _) = ptest_keygen(go, "lonely");
    let native = Identity::generate(KeyKind::X25519).to_recipient().unwrap();
    let e = encrypt(
        &[
            Recipient::parse(&lonely).unwrap().with_plugin_client(&client),
            native,
        ],
        b"x",
    )
    .unwrap_err();
    assert!(e.to_string().contains("incompatible recipients"), "{e}");
    // Post-quantum and a classic plugin recipient: age's message.
    let (plain_r, _) = ptest_keygen(go, "");
    let pq = Identity::generate(KeyKind::Hybrid).to_recipient().unwrap();
    let e = encrypt(
        &[
            pq,
            Recipient::parse(&plain_r).unwrap().with_plugin_client(&client),
        ],
        b"x",
    )
    .unwrap_err();
    assert!(e.to_string().contains("post-quantum and classic"), "{e}");
}
