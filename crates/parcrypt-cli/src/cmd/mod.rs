//! One module per command.

mod aes;
mod age;
mod age_inspect;
mod age_keygen;
mod age_plugin;
mod cobblestone;
mod ecdsa;
mod family;
mod files;
mod generate;
mod hash;
mod kem;
mod keypass;
mod lab;
mod mldsa;
mod rc4;
mod rsa;
mod slhdsa;
mod stream;
mod sums;
mod tiles;

use anyhow::Result;

use crate::cli::{Cli, Command, InOut, MerkleGroup};

pub fn run(cli: Cli) -> Result<()> {
    let par = cli.global.parallelism();
    match cli.command {
        Command::Encrypt(mut args) => {
            stdout_as_default(&mut args.io);
            match cobblestone::scheme(&args.format)? {
                Some(scheme) => cobblestone::encrypt(scheme, &args, &par),
                None => stream::encrypt(&args, &par),
            }
        }
        Command::Decrypt(mut args) => {
            stdout_as_default(&mut args.io);
            match cobblestone::scheme(&args.format)? {
                Some(scheme) => cobblestone::decrypt(scheme, &args, &par),
                None => stream::decrypt(&args, &par),
            }
        }
        Command::Age(args) => age::run(&args, &par),
        Command::Aes(args) => aes::run(&args, &par),
        Command::Rc4(args) => rc4::run_rc4(&args),
        Command::Parc4(args) => rc4::run_parc4(&args, &par),
        Command::Hash(args) => hash::run_hash(&args, &par),
        Command::Merkle(MerkleGroup::Proofs(cmd)) => hash::run_merkle(&cmd, &par),
        Command::Merkle(MerkleGroup::Tiles(cmd)) => tiles::run(&cmd, &par),
        Command::Rsa(cmd) => rsa::run(&cmd, &par),
        Command::Ecdsa(cmd) => family::run(&cmd, &par),
        Command::MlKem(cmd) => kem::run(&cmd),
        Command::MlDsa(cmd) => family::run(&cmd, &par),
        Command::SlhDsa(cmd) => family::run(&cmd, &par),
        Command::Lab(args) => lab::run(&args),
        Command::Completions(args) => generate::completions(args.shell),
        Command::Man(args) => generate::man(args.out.as_deref()),
    }
}

/// `-o /dev/stdout` (or `/dev/fd/1`, `/proc/self/fd/1`, `-`) is standard
/// output, the default: `encrypt`/`decrypt` look for an existing `-o` file
/// before writing, and must not find the file that stdout is redirected to.
fn stdout_as_default(io: &mut InOut) {
    if io.output.as_deref().is_some_and(crate::io::names_stdout) {
        io.output = None;
    }
}
