//! The lab's integration tests, in one binary (each test binary links
//! AWS-LC): a tiny real run end to end, and the report rendered in a
//! browser.

#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;
#[path = "../../../parcrypt/tests/it/tools.rs"]
mod tools;

mod end_to_end;
mod render;
