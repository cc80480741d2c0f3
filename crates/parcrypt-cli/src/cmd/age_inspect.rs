//! `parcrypt age inspect [--json] [INPUT]`: age 1.3's `age-inspect`, the
//! same text and the same JSON, over `parcrypt::age::inspect`.

use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};
use parcrypt::age::{self, Inspection};

use crate::cli::AgeInspectArgs;
use crate::error::{Hint, fail};
use crate::io::{Output, Policy};

pub fn run(args: &AgeInspectArgs) -> Result<()> {
    if args.input.len() > 1 {
        return fail(
            "too many INPUT arguments",
            "usage: parcrypt age inspect [--json] [INPUT]",
        );
    }
    let input = args.input.first().filter(|p| *p != Path::new("-"));
    let inspected = match input {
        Some(path) => {
            let file = std::fs::File::open(path)
                .with_context(|| format!("failed to open input file {:?}", path.display().to_string()))
                .hint("check the path")?;
            // A regular file's length spares reading the payload (as age-inspect).
            let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
            age::inspect(io::BufReader::new(file), size)
        }
        None => age::inspect(io::stdin().lock(), None),
    };
    let data = inspected
        .map_err(anyhow::Error::new)
        .context("inspection failed")
        .hint("is this an age file? (armored or binary)")?;
    let text = if args.json {
        data.to_json()
    } else {
        let name = args
            .input
            .first()
            .map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string());
        report(&name, &data)
    };
    let mut out = Output::create(None, Policy::REPLACE)?;
    out.write_all(text.as_bytes())?;
    out.commit()
}

/// age-inspect's text, line for line.
fn report(name: &str, data: &Inspection) -> String {
    let mut t = String::new();
    // Go's `% 12d`: a space where a sign would go, the whole right-aligned in 12.
    let size = |n: u64| format!("{:>12}", format!(" {n}"));
    t.push_str(&format!("{name} is an age file, version {:?}.\n\n", data.version));
    if data.armor {
        t.push_str("This file is ASCII-armored.\n\n");
    }
    t.push_str("This file is encrypted to the following recipient types:\n");
    for kind in &data.stanza_types {
        t.push_str(&format!("  - {kind:?}\n"));
    }
    t.push('\n');
    match data.postquantum {
        "yes" => t.push_str("This file uses post-quantum encryption.\n\n"),
        "no" => t.push_str("This file does NOT use post-quantum encryption.\n\n"),
        _ => t.push_str("It is unknown whether this file uses post-quantum encryption.\n\n"),
    }
    let s = &data.sizes;
    t.push_str("Size breakdown (assuming it decrypts successfully):\n\n");
    t.push_str(&format!("    Header              {} bytes\n", size(s.header)));
    if data.armor {
        t.push_str(&format!("    Armor overhead      {} bytes\n", size(s.armor)));
    }
    t.push_str(&format!("    Encryption overhead {} bytes\n", size(s.overhead)));
    t.push_str(&format!(
        "    Payload             {} bytes\n",
        size(s.min_payload)
    ));
    t.push_str("                        -------------------\n");
    let total = s.header + s.overhead + s.min_payload + s.armor;
    t.push_str(&format!("    Total               {} bytes\n\n", size(total)));
    t.push_str("Tip: for machine-readable output, use --json.\n");
    t
}
