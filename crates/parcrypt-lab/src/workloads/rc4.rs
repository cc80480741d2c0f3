//! RC4 and PARC4 workloads: the PARC4 paper's table (512 KB … 3 MB, plus
//! 64 MiB) at the paper's 32-byte blocks and at 4 KiB, 64 KiB and 1 MiB, to
//! show what the per-block key schedule costs.

use std::hint::black_box;

use parcrypt::hazmat::{Parc4, Rc4};

use super::id;
use super::{
    IN_PLACE, Input, OpensslPeer, Operation, SEQUENTIAL, SpeedRate, Unit, Width, Workload, adaptive, input,
    own,
};

/// The PARC4 paper's sizes, plus 64 MiB for throughput (not in a quick study).
fn paper_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![512_000, 1_000_000, 3_000_000]
    } else {
        vec![512_000, 1_000_000, 1_500_000, 2_500_000, 3_000_000, 64 << 20]
    }
}

/// 32-byte blocks cost ~9 µs each (HKDF + key schedule + 3072 dropped bytes):
/// 64 MiB would take 18 s per run, so stop at the paper's sizes, and at two
/// of them in a quick study.
fn small_block_sizes(quick: bool) -> Vec<usize> {
    if quick {
        vec![512_000, 1_000_000]
    } else {
        vec![512_000, 1_000_000, 1_500_000, 2_500_000, 3_000_000]
    }
}

pub(super) fn register(all: &mut Vec<Workload>) {
    all.push(Workload {
        name: id::RC4,
        family: "rc4",
        description: "RC4 keystream XOR (sequential by nature)",
        setup: rc4,
        parallel: false,
        sizes: Some(paper_sizes),
        unit: Unit::Bytes,
        samples: adaptive,
        openssl: Some(OpensslPeer {
            speed: &["-evp", "rc4", "-provider", "legacy", "-provider", "default"],
            rate: SpeedRate::Bytes,
            enc: Some(&[
                "-rc4",
                "-nosalt",
                "-K",
                "42424242424242424242424242424242",
                "-provider",
                "legacy",
                "-provider",
                "default",
            ]),
            dgst: None,
        }),
        input: Input::Memory,
        missing: super::runs_anywhere,
        age: None,
        model: SEQUENTIAL,
    });
    all.extend([
        Workload {
            name: id::PARC4_32B,
            family: "rc4",
            description: "PARC4 with the paper's 32-byte blocks: per-block keys dominate",
            setup: |size| parc4(size, 32),
            parallel: true,
            sizes: Some(small_block_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::PARC4_4KIB,
            family: "rc4",
            description: "PARC4 with 4 KiB blocks",
            setup: |size| parc4(size, 4096),
            parallel: true,
            sizes: Some(paper_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::PARC4_64KIB,
            family: "rc4",
            description: "PARC4 with 64 KiB blocks (the default)",
            setup: |size| parc4(size, 64 * 1024),
            parallel: true,
            sizes: Some(paper_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
        Workload {
            name: id::PARC4_1MIB,
            family: "rc4",
            description: "PARC4 with 1 MiB blocks",
            setup: |size| parc4(size, 1 << 20),
            parallel: true,
            sizes: Some(paper_sizes),
            unit: Unit::Bytes,
            samples: adaptive,
            openssl: None,
            input: Input::Memory,
            missing: super::runs_anywhere,
            age: None,
            model: own(Width::Any, IN_PLACE),
        },
    ]);
}

fn rc4(size: usize) -> Operation {
    let mut buf = input(size);
    // A fresh key schedule per run, as an encryption of one message would do.
    Box::new(move |_par, output| {
        Rc4::new(&[0x42; 16])
            .expect("valid key")
            .apply_keystream_in_place(black_box(&mut buf));
        output(&buf);
    })
}

fn parc4(size: usize, block: usize) -> Operation {
    let parc4 = Parc4::new(&[0x42; 32], &[7; 16], block).expect("valid parameters");
    let mut buf = input(size);
    Box::new(move |par, output| {
        parc4.apply_keystream_in_place(0, black_box(&mut buf), par);
        output(&buf);
    })
}
