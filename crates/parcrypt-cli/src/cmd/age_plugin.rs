//! What age plugins ask of the person running `parcrypt age`, answered as
//! age 1.3's terminal UI answers it (filippo.io/age `plugin.NewTerminalUI`):
//! messages on standard error (`parcrypt: NAME plugin: …`), values and
//! confirmations on the terminal (`/dev/tty`, never the data's stdin or
//! stdout), secrets without echo. Without a terminal, each question is
//! refused with a warning saying why, and the plugin is told `fail`.

use std::sync::Arc;
use std::time::Duration;

use parcrypt::age::{PluginClient, PluginUi};
use parcrypt::secret::SecretBytes;

use crate::error::{eprint_line, warn};
use crate::tty;

/// The client every plugin of one command runs with: the terminal's UI,
/// and `--plugin-timeout` seconds of silence at most (0: no limit).
pub fn client(timeout_secs: u64) -> PluginClient {
    let timeout = (timeout_secs > 0).then(|| Duration::from_secs(timeout_secs));
    PluginClient::new()
        .with_ui(Arc::new(TerminalUi))
        .with_timeout(timeout)
}

struct TerminalUi;

impl TerminalUi {
    fn could_not(plugin: &str, e: &dyn std::fmt::Display) {
        warn(format_args!("could not read value for age-plugin-{plugin}: {e}"));
    }
}

impl PluginUi for TerminalUi {
    fn display_message(&self, plugin: &str, message: &str) -> bool {
        eprint_line(format_args!("parcrypt: {plugin} plugin: {message}"));
        true
    }

    fn request_value(&self, plugin: &str, prompt: &str, secret: bool) -> Option<SecretBytes> {
        let read = if secret {
            tty::read_secret(prompt)
        } else {
            tty::read_public(prompt)
        };
        read.map_err(|e| Self::could_not(plugin, &e)).ok()
    }

    fn confirm(&self, plugin: &str, prompt: &str, yes: &str, no: Option<&str>) -> Option<bool> {
        let Some(no) = no else {
            let asked = tty::read_secret(&format!("{prompt} (press enter for {yes:?})"));
            return asked.map(|_| true).map_err(|e| Self::could_not(plugin, &e)).ok();
        };
        let prompt = format!("{prompt} (press [1] for {yes:?} or [2] for {no:?})");
        loop {
            match tty::read_key(&prompt) {
                Ok(b'1') => return Some(true),
                Ok(b'2') => return Some(false),
                Ok(0x03) => {
                    Self::could_not(plugin, &"user cancelled prompt");
                    return None;
                }
                Ok(key) => warn(format_args!(
                    "reading value for age-plugin-{plugin}: invalid selection {:?}",
                    char::from(key)
                )),
                Err(e) => {
                    Self::could_not(plugin, &e);
                    return None;
                }
            }
        }
    }

    fn waiting(&self, plugin: &str) {
        eprint_line(format_args!("parcrypt: waiting on {plugin} plugin..."));
    }
}
