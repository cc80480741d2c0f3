//! `parcrypt lab`: the measurement framework, run from the command line.
//! Behind the default-on cargo feature `lab`; a `parcrypt` built without it
//! answers `lab` with a usage error saying so.

#[cfg(feature = "lab")]
pub use with_lab::run;
#[cfg(not(feature = "lab"))]
pub use without_lab::run;

#[cfg(feature = "lab")]
mod with_lab {
    use std::io::{IsTerminal, Write};

    use anyhow::Result;
    use parcrypt_lab::LabConfig;

    use crate::cli::{LabAction, LabArgs};
    use crate::error::Hint;
    use crate::io::{Output, println};

    pub fn run(args: &LabArgs) -> Result<()> {
        if let Some(LabAction::Compare { a, b }) = &args.action {
            let comparison = parcrypt_lab::compare::compare(a, b)
                .hint("give two run directories or results.json files")?;
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
            out_dir: args.out.clone().unwrap_or_else(parcrypt_lab::default_out_dir),
            only: args.only.clone(),
            threads_list: args.threads_list.clone(),
            sizes: args.sizes.clone(),
            repeats: args.repeats.map(|n| n as usize),
            budget: args.budget,
            progress: std::io::stderr().is_terminal(),
            peers: !args.no_peers,
            command_line: std::env::args().collect::<Vec<_>>().join(" "),
            ceilings_cache: parcrypt_lab::ceilings::default_cache(),
            remeasure: args.remeasure,
        };
        if config.budget.is_some_and(|b| !(b > 0.0 && b.is_finite())) {
            return Err(anyhow::anyhow!("--budget must be a positive number of seconds")).usage();
        }
        let summary = parcrypt_lab::run(&config).hint("see `parcrypt lab --help`")?;
        println(summary)
    }
}

#[cfg(not(feature = "lab"))]
mod without_lab {
    use anyhow::Result;

    use crate::cli::LabArgs;
    use crate::error::Hint;

    pub fn run(_args: &LabArgs) -> Result<()> {
        Err(anyhow::anyhow!("this parcrypt was built without the lab"))
            .hint("build or install it with the default features: `cargo install --path crates/parcrypt-cli`")
            .usage()
    }
}
