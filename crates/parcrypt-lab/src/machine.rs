//! What machine the results were measured on (`machine.json`).

use std::process::Command;

use serde::Serialize;

use crate::ceilings::Ceilings;

/// Facts about the machine and the build, recorded beside the results.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    /// CPU model name from /proc/cpuinfo.
    pub cpu_model: Option<String>,
    /// Threads the process may use.
    pub cores: usize,
    /// Relevant CPU flags present (aes, vaes, vpclmulqdq, sha_ni, avx2, avx512f, …).
    pub cpu_flags: Vec<String>,
    /// The CPU features parcrypt's code paths used in this run
    /// (`parcrypt::cpu`: detected, minus `PARCRYPT_CPU_MASK`).
    pub cpu_features_used: Vec<&'static str>,
    /// `PARCRYPT_CPU_MASK` and what it did, when set (one line).
    pub cpu_mask: Option<String>,
    /// Whether the CPU reports running under a hypervisor.
    pub virtualized: bool,
    /// Total memory in bytes.
    pub memory_bytes: Option<u64>,
    /// Operating system (os-release PRETTY_NAME).
    pub os: Option<String>,
    /// Kernel release.
    pub kernel: Option<String>,
    /// `rustc --version` at run time, if rustc is on PATH.
    pub rustc: Option<String>,
    /// parcrypt's version.
    pub parcrypt_version: &'static str,
    /// The crypto backend.
    pub backend: &'static str,
    /// `openssl version`, if present (the peer for comparisons).
    pub openssl: Option<String>,
    /// Git commit of the working directory, if it is a repository.
    pub git_commit: Option<String>,
    /// The command line that ran the lab.
    pub command_line: String,
    /// When the run started (UTC, RFC 3339).
    pub started_utc: String,
    /// 1-minute load average just before the run.
    pub load_before: Option<f64>,
    /// What this machine moves without cryptography (memory, the page
    /// cache, a pipe, writes), measured or read from the cache at the start
    /// of the run; `None` before then.
    pub ceilings: Option<Ceilings>,
}

const FLAGS: [&str; 10] = [
    "aes",
    "vaes",
    "pclmulqdq",
    "vpclmulqdq",
    "sha_ni",
    "avx2",
    "avx512f",
    "avx512vl",
    "avx512ifma",
    "hypervisor",
];

impl Machine {
    /// Reads what the machine says about itself.
    pub fn probe(command_line: &str) -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |key: &str| {
            cpuinfo
                .lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        };
        let flags_line = field("flags").unwrap_or_default();
        let present: Vec<&str> = flags_line.split_whitespace().collect();
        let cpu_flags: Vec<String> = FLAGS
            .iter()
            .filter(|f| **f != "hypervisor" && present.contains(f))
            .map(|f| (*f).to_owned())
            .collect();
        let memory_bytes = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
                .map(|kb| kb * 1024)
        });
        let os = std::fs::read_to_string("/etc/os-release").ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("PRETTY_NAME="))
                .map(|v| v.trim_matches('"').to_owned())
        });
        Machine {
            cpu_model: field("model name"),
            cores: parcrypt::par::available_threads(),
            cpu_flags,
            cpu_features_used: parcrypt::cpu::enabled()
                .iter()
                .map(parcrypt::cpu::Feature::name)
                .collect(),
            cpu_mask: std::env::var_os(parcrypt::cpu::MASK_ENV).map(|_| parcrypt::cpu::report()),
            virtualized: present.contains(&"hypervisor"),
            memory_bytes,
            os,
            kernel: read_trimmed("/proc/sys/kernel/osrelease"),
            rustc: command_output("rustc", &["--version"]),
            parcrypt_version: env!("CARGO_PKG_VERSION"),
            backend: "AWS-LC (aws-lc-rs 1.19 / aws-lc-sys 0.47)",
            openssl: command_output("openssl", &["version"]),
            git_commit: command_output("git", &["rev-parse", "HEAD"]),
            command_line: command_line.to_owned(),
            started_utc: now_rfc3339(),
            load_before: load_average(),
            ceilings: None,
        }
    }

    /// The key the ceilings are cached under: what changes them — the CPU
    /// model, the threads the process may use, the kernel.
    pub fn ceilings_key(&self) -> String {
        format!(
            "{} | {} threads | kernel {}",
            self.cpu_model.as_deref().unwrap_or("unknown CPU"),
            self.cores,
            self.kernel.as_deref().unwrap_or("unknown")
        )
    }
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

fn command_output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The 1-minute load average, where /proc/loadavg exists.
pub fn load_average() -> Option<f64> {
    read_trimmed("/proc/loadavg")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The current time as `YYYYMMDD-hhmmss` (UTC), for directory names.
pub fn timestamp_compact() -> String {
    now_rfc3339()
        .replace(['-', ':'], "")
        .replace('T', "-")
        .trim_end_matches('Z')
        .to_owned()
}

/// The current time as `YYYY-MM-DDThh:mm:ssZ`.
pub(crate) fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_414), (2025, 11, 22));
    }
}
