//! What every command shares: loading archives or a dataset, printing tables, exit codes.

use anyhow::Result;
use morphtrace_analyzer::dataset;
use morphtrace_analyzer::load::{self, Archives, Want};
use morphtrace_analyzer::render::{Format, Table};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code of `info` when an archive was readable but had to be recovered.
pub(crate) const EXIT_DAMAGED: u8 = 3;
pub(crate) const EXIT_UNREADABLE: u8 = 1;
/// Exit code of `findings` when some class chosen for reduction could not be reduced.
pub(crate) const EXIT_NOT_REDUCED: u8 = 4;
/// Exit code of wrong flags, as clap gives for what it checks itself.
pub(crate) const EXIT_USAGE: u8 = 2;

/// Flags that parse but ask for something that does not exist (a table by a wrong name, a
/// policy key that is none): exit 2, like the flags clap refuses itself.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub(crate) String);

/// A usage error as the `anyhow::Error` commands return.
pub(crate) fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// Loads the inputs (archives, or one dataset directory written by `export --dataset`),
/// reporting damage on stderr; fails when nothing could be read.
pub(crate) fn load_inputs(
    inputs: &[PathBuf],
    want: Want,
    unreadable: &mut bool,
) -> Result<Archives> {
    if let Some(d) = inputs.iter().find(|p| dataset::is_dataset(p)) {
        if inputs.len() > 1 {
            anyhow::bail!(
                "{} is a dataset: give it alone, not with other archives or datasets",
                d.display()
            );
        }
        let loaded = dataset::load(d, want)?;
        for u in &loaded.unreadable {
            eprintln!("morphtrace-analyze: when the dataset was written: {u}");
        }
        return Ok(loaded);
    }
    let paths = load::expand(inputs)?;
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_message(format!("loading {} archive(s)", paths.len()));
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let d = load::load(&paths, want)?;
    bar.finish_and_clear();
    for u in &d.unreadable {
        eprintln!("morphtrace-analyze: {u}");
        *unreadable = true;
    }
    for s in &d.sources {
        if !s.recovery.is_intact() {
            eprintln!(
                "morphtrace-analyze: {}: damaged or truncated, {} bytes dropped; analyzing the {} sessions it still holds",
                s.path,
                s.recovery.dropped_bytes(),
                s.sessions
            );
        }
        for u in &s.undecodable {
            eprintln!("morphtrace-analyze: {}: session {u}", s.path);
        }
    }
    if d.sources.is_empty() {
        anyhow::bail!("no archive could be read");
    }
    Ok(d)
}

pub(crate) fn print_tables(ts: &[Table], f: Format) {
    // JSON: one array of every table, so that the output parses as a whole.
    if f == Format::Json {
        let all: Vec<serde_json::Value> = ts.iter().map(Table::json).collect();
        println!("{}", serde_json::to_string_pretty(&all).unwrap_or_default());
        return;
    }
    // Verdicts in colour for a person at a terminal, unless NO_COLOR (no-color.org) says not.
    let colour = f == Format::Markdown
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            println!();
        }
        if f == Format::Csv && ts.len() > 1 {
            println!("# {}", t.name);
        }
        if colour {
            print!(
                "{}",
                morphtrace_analyzer::render::coloured_verdicts(t).render(f)
            );
        } else {
            print!("{}", t.render(f));
        }
    }
}

/// The exit code of a command that analyzed what it could: 1 when an input could not be read.
pub(crate) fn code(unreadable: bool) -> ExitCode {
    if unreadable {
        ExitCode::from(EXIT_UNREADABLE)
    } else {
        ExitCode::SUCCESS
    }
}
