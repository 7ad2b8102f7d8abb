//! Test support for morphtrace, kept out of the contract crate: a seeded generator of realistic
//! synthetic sessions and archives (`synth`, and the `morphtrace-synth` binary) for benchmarks,
//! crash tests and analyzer load tests.

pub mod cli;
pub mod hostile;
pub mod pauses;
pub mod synth;
