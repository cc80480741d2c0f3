//! `parcrypt lab`: the measurement framework, run from the command line.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use parcrypt_lab::LabConfig;

use crate::cli::{LabAction, LabArgs};
use crate::error::Hint;
use crate::io::{Output, println};

pub fn run(args: &LabArgs) -> Result<()> {
    if let Some(LabAction::Compare { a, b }) = &args.action {
        let comparison =
            parcrypt_lab::compare::compare(a, b).hint("give two run directories or results.json files")?;
        let mut out = Output::stdout();
        write!(out, "{comparison}")?;
        out.commit()?;
        if comparison.regressions().next().is_some() {
            return Err(anyhow::anyhow!(
                "B has regressions beyond the 95% confidence intervals"
            ));
        }
        return Ok(());
    }
    let config = LabConfig {
        quick: args.quick,
        out_dir: args.out.clone().unwrap_or_else(|| {
            std::path::Path::new("lab-out").join(parcrypt_lab::machine::timestamp_compact())
        }),
        only: args.only.clone(),
        threads_list: args.threads_list.clone(),
        sizes: args.sizes.clone(),
        repeats: args.repeats.map(|n| n as usize),
        budget: args.budget,
        progress: std::io::stderr().is_terminal(),
        peers: !args.no_peers,
        command_line: std::env::args().collect::<Vec<_>>().join(" "),
    };
    if config.budget.is_some_and(|b| !(b > 0.0 && b.is_finite())) {
        return Err(anyhow::anyhow!("--budget must be a positive number of seconds")).usage();
    }
    let summary = parcrypt_lab::run(&config).hint("see `parcrypt lab --help`")?;
    println(summary)
}
