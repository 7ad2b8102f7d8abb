//! `morphtrace-synth`: writes a synthetic campaign archive of realistic sessions.
//! Used by benchmarks and crash tests, and to make archives larger than any worth recording.

use anyhow::{Context, Result};
use clap::Parser;
use morphtrace_schema::archive::{Encoding, FsyncPolicy};
use morphtrace_schema::{ArchiveWriter, WriterOptions};
use morphtrace_testkit::synth;
use std::io::Write;
use std::path::PathBuf;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "morphtrace-synth",
    about = "Write a synthetic .mtrace archive of realistic debugging sessions",
    long_about = "Write a synthetic .mtrace archive of realistic debugging sessions (random and \
                  differential, with breakpoints, pauses, call stacks and variables), drawn from a \
                  seeded generator. For benchmarks, crash tests and analyzer load tests."
)]
struct Args {
    /// Archive to create (must not exist, unless --resume).
    #[arg(long)]
    out: PathBuf,
    /// Number of sessions to write.
    #[arg(long, default_value_t = 1000)]
    sessions: u64,
    /// Average events (actions + outputs) per session.
    #[arg(long, default_value_t = 100)]
    events: usize,
    /// Number of distinct programs.
    #[arg(long, default_value_t = 50)]
    programs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// fdatasync after every session (the recorder's default); off by default here.
    #[arg(long)]
    fsync: bool,
    /// Append to an existing archive, skipping sessions it already holds.
    #[arg(long)]
    resume: bool,
    /// Print `appended <id>` on stdout after each session is durable.
    #[arg(long)]
    report: bool,
    /// Write structs as arrays instead of maps (smaller; less forward-compatible).
    #[arg(long)]
    compact: bool,
    /// Leave the archive without index, as a killed writer would.
    #[arg(long)]
    no_finish: bool,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let opts = WriterOptions {
        fsync: if args.fsync {
            FsyncPolicy::EverySession
        } else {
            FsyncPolicy::Never
        },
        encoding: if args.compact {
            Encoding::Compact
        } else {
            Encoding::Named
        },
        ..WriterOptions::default()
    };
    let mut writer = if args.resume && args.out.exists() {
        ArchiveWriter::open_append(&args.out, opts)
            .with_context(|| format!("reopening {}", args.out.display()))?
            .0
    } else {
        ArchiveWriter::create(&args.out, &synth::header("synthetic"), opts)
            .with_context(|| format!("creating {}", args.out.display()))?
    };
    let programs = synth::programs(args.seed, args.programs.max(1));
    let stdout = std::io::stdout();
    for i in 0..args.sessions {
        let program = &programs[(i as usize) % programs.len()];
        let session = synth::session(args.seed, i, program, args.events);
        if writer.has_session(&session.id) {
            continue;
        }
        writer.add_program(program)?;
        writer.append(&session)?;
        if args.report {
            let mut out = stdout.lock();
            writeln!(out, "appended {}", session.id)?;
            out.flush()?;
        }
    }
    if !args.no_finish {
        writer.finish()?;
    }
    Ok(())
}
