//! `morphtrace-analyze`: offline analysis of morphtrace archives.

use anyhow::Result;
use clap::{Parser, Subcommand};
use morphtrace_analyzer::info;
use morphtrace_schema::ArchiveReader;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code of `info` when an archive was readable but had to be recovered.
const EXIT_DAMAGED: u8 = 3;
const EXIT_UNREADABLE: u8 = 1;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "morphtrace-analyze",
    version,
    about = "Analyze morphtrace trace archives offline (no debugger needed)",
    long_about = "Analyze morphtrace trace archives (.mtrace) offline. The analyzer never talks to a \
                  debugger: everything it needs (programs, engine versions, seeds, actions, outputs) is \
                  in the archive, so archives recorded on a test machine can be studied anywhere.",
    after_help = "Planned subcommands (see the issues): classes and sample (DBDB equivalence classes, \
                  round-robin sampling), relations (re-judge recorded pairs offline with other policies), \
                  tables (the papers' evaluation tables), compare (two campaigns, e.g. two browser \
                  versions), report (HTML), export (Parquet/CSV)."
)]
struct Cli {
    /// Log level filter (e.g. `info`, `debug`); also read from RUST_LOG.
    #[arg(long, global = true, default_value = "warn")]
    log: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Summarize archives: header, engines and versions, sessions by mode and outcome,
    /// divergences, programs, and integrity (what a damaged archive still holds).
    ///
    /// Exit status: 0 when every archive is intact, 3 when one had to be recovered (damaged or
    /// truncated: what could be read is reported), 1 when one cannot be read at all.
    Info {
        /// Archive files (.mtrace).
        #[arg(required = true)]
        archives: Vec<PathBuf>,
        /// Print JSON (one object per archive, in an array) instead of text.
        #[arg(long)]
        json: bool,
        /// How many programs to list per archive.
        #[arg(long, default_value_t = 10)]
        programs: usize,
    },
    /// Print sessions event by event: actions, breakpoint locations, pauses with call stacks and
    /// variables, program ends, and the divergence if any.
    Show {
        archive: PathBuf,
        /// Session ids (16 hex digits) or positions in the archive (0-based); all if none.
        sessions: Vec<String>,
        /// Only sessions that diverged.
        #[arg(long)]
        diverged: bool,
        /// At most this many sessions.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(&cli.log));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("morphtrace-analyze: {e:#}");
            ExitCode::from(EXIT_UNREADABLE)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Info {
            archives,
            json,
            programs,
        } => {
            let mut worst = 0u8;
            let mut infos = Vec::new();
            for path in &archives {
                let shown = path.display().to_string();
                match ArchiveReader::open(path) {
                    Ok(reader) => {
                        let i = info::summarize(&shown, &reader);
                        if i.is_damaged() && worst != EXIT_UNREADABLE {
                            worst = EXIT_DAMAGED;
                        }
                        if json {
                            infos.push(i);
                        } else {
                            if archives.len() > 1 && !infos.is_empty() {
                                println!();
                            }
                            print!("{}", info::render(&i, programs));
                            infos.push(i);
                        }
                    }
                    Err(e) => {
                        eprintln!("morphtrace-analyze: {shown}: {e}");
                        worst = EXIT_UNREADABLE;
                    }
                }
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&infos)?);
            }
            Ok(ExitCode::from(worst))
        }
        Command::Show {
            archive,
            sessions,
            diverged,
            limit,
        } => {
            let reader = ArchiveReader::open(&archive)
                .map_err(|e| anyhow::anyhow!("{}: {e}", archive.display()))?;
            let mut shown = 0;
            for (i, s) in reader.sessions().enumerate() {
                let s = match s {
                    Ok(s) => s,
                    Err(e) => {
                        eprintln!("morphtrace-analyze: session {i}: {e}");
                        continue;
                    }
                };
                let wanted = sessions.is_empty()
                    || sessions
                        .iter()
                        .any(|w| *w == s.id.to_string() || *w == i.to_string());
                if !wanted || (diverged && s.divergence.is_none()) {
                    continue;
                }
                if shown == limit {
                    break;
                }
                shown += 1;
                let program = reader.program(&s.program).map(|p| p.origin.name());
                println!(
                    "{}",
                    morphtrace_analyzer::show::render(reader.header(), &s, program.as_deref())
                );
            }
            if shown == 0 && !sessions.is_empty() {
                anyhow::bail!("no such session in {}", archive.display());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
