//! `morphtrace-analyze`: offline analysis of morphtrace archives. This binary parses the command
//! line (`cli`) and hands each command to its module; the analysis itself is the library's.

mod archives;
mod classes;
mod cli;
mod findings;
mod genmorph;
mod inputs;
mod relations;
mod tables;

use anyhow::Result;
use clap::Parser;
use cli::{Cli, Command};
use inputs::{UsageError, EXIT_UNREADABLE, EXIT_USAGE};
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Like other Unix tools, stop quietly when the reader of our output goes away (`| head`)
    // instead of failing on the next print.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&cli.log));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours only for a terminal: a log redirected to a file stays plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("morphtrace-analyze: {e:#}");
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::from(EXIT_UNREADABLE)
            }
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Merge(a) => archives::merge(a),
        Command::Info(a) => archives::info(a),
        Command::Show(a) => archives::show(a),
        Command::Classes(a) => classes::classes(a),
        Command::Yield(a) => classes::oracle_yield(a),
        Command::Triage(a) => classes::triage(a),
        Command::Findings(a) => findings::findings(a),
        Command::Sample(a) => classes::sample(a),
        Command::Relations(a) => relations::relations(a),
        Command::Tables(a) => tables::tables(a),
        Command::Compare(a) => tables::compare(a),
        Command::Versions(a) => tables::versions(a),
        Command::Report(a) => tables::report(a),
        Command::Export(a) => archives::export(a),
        Command::Genmorph { command } => {
            genmorph::run(command)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
