//! `morphtrace-record`: drives real debuggers and profilers and records sessions into .mtrace
//! archives. This binary parses the command line (`cli`) and hands each command to its module;
//! the work itself is the library's.

mod bisect;
mod cli;
mod coverage;
mod engines;
mod genmorph;
mod reduce;
mod replay;
mod run;

use anyhow::Result;
use clap::CommandFactory;
use cli::{Cli, Command, Strategy};
use std::process::ExitCode;
use std::time::Duration;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    morphtrace_recorder::child::adopt_orphans();
    let matches = Cli::command().get_matches();
    let cli = cli::parse(&matches);
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&cli.log));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours only for a terminal: a log redirected to a file stays plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("morphtrace-record: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = rt.block_on(dispatch(cli));
    // Engines are shut down; their helpers may still be exiting: wait for them (and reap them)
    // so that nothing the recorder started outlives it.
    rt.shutdown_timeout(Duration::from_secs(2));
    morphtrace_recorder::child::reap_all(Duration::from_secs(5));
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("morphtrace-record: {e:#}");
            ExitCode::FAILURE
        }
    }
}

async fn dispatch(cli: Cli) -> Result<ExitCode> {
    let command_line: Vec<String> = std::env::args().collect();
    // Every command that runs programs-to-debug bounds their engines' memory.
    let _memory_guard = cli
        .command
        .memory_limit()
        .and_then(morphtrace_recorder::memory::Guard::start);
    match cli.command {
        Command::Engines(e) => engines::engines(e).await,
        Command::Genmorph(g) => {
            tokio::task::spawn_blocking(move || genmorph::genmorph(g, command_line)).await?
        }
        Command::Falsify(f) => tokio::task::spawn_blocking(move || genmorph::falsify(f)).await?,
        Command::Reduce(r) => reduce::reduce(r).await,
        Command::Bisect(b) => bisect::bisect(b, command_line).await,
        Command::CoverageCheck(c) => coverage::coverage_check(c).await,
        Command::Run(r) if r.strategy == Strategy::Coverage => run::coverage(r, command_line).await,
        Command::Run(r) => run::debuggers(r, command_line).await,
        Command::Replay(r) => replay::replay(r, command_line).await,
    }
}
