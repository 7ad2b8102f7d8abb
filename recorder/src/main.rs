//! `morphtrace-record`: drives real debuggers and records sessions into .mtrace archives.

use clap::Parser;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "morphtrace-record",
    version,
    about = "Record debugging sessions of real debuggers into .mtrace archives",
    long_about = "Record debugging sessions of real debuggers into .mtrace trace archives. The recorder \
                  launches engines (Chromium and Node over CDP, Firefox over RDP) on loopback ports with \
                  fresh profiles, generates debugging actions from a seeded generator, and appends every \
                  completed session to a crash-safe archive that morphtrace-analyze reads offline.",
    after_help = "Planned subcommands (see the issues): engines (list the debuggers found and their \
                  versions), run (a campaign: programs x seeds x engines with a strategy: random, \
                  differential, metamorphic, coverage), replay (re-issue a recorded session's actions on \
                  another engine or version)."
)]
struct Cli {}

fn main() {
    let _ = Cli::parse();
    eprintln!("morphtrace-record: no subcommand is available yet; see --help");
    std::process::exit(2);
}
