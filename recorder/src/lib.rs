//! morphtrace's recorder: drives real debuggers and records sessions (docs/design.md §6).

// The four papers, each over the shared cores below.
pub mod cod;
pub mod dbdb;
pub mod genmorph;
pub mod metamorphic;

// Shared cores: driving debuggers (the session abstraction, its adapters, engine launch), the
// session core every strategy drives (lockstep), the profilers, program syntax, the corpus, the one campaign runner, its shards and its tally, the
// recorder's child processes. Findings: reduction and bisection.
pub mod bisect;
pub mod campaign;
pub mod child;
pub mod corpus;
pub mod cpu;
pub mod debugger;
pub mod memory;
pub mod process;
pub mod profilers;
pub mod recorded;
pub mod reduce;
pub mod runner;
pub mod session;
pub mod shard;
pub mod tally;
pub mod task;

/// The progress bar of a campaign on stderr (hidden when stderr is not a terminal).
pub fn progress_bar(len: usize, visible: bool) -> indicatif::ProgressBar {
    let bar = if visible {
        indicatif::ProgressBar::new(len as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} {per_sec} ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}

/// Parses a seed specification: `7`, `1..50` (inclusive), or a comma list of either.
pub fn parse_seeds(spec: &str) -> Result<Vec<u64>, String> {
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if let Some((a, b)) = part.split_once("..") {
            let a: u64 = a
                .trim()
                .parse()
                .map_err(|_| format!("bad seed range {part:?}"))?;
            let b: u64 = b
                .trim_start_matches('=')
                .trim()
                .parse()
                .map_err(|_| format!("bad seed range {part:?}"))?;
            if b < a {
                return Err(format!("empty seed range {part:?}"));
            }
            if b - a > 10_000_000 {
                return Err(format!("seed range {part:?} is too large"));
            }
            out.extend(a..=b);
        } else {
            out.push(part.parse().map_err(|_| format!("bad seed {part:?}"))?);
        }
    }
    if out.is_empty() {
        return Err("no seeds given".into());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// The recorder's cache (`$MORPHTRACE_CACHE`, else `~/.cache/morphtrace`): generated Csmith
/// programs and engines installed on demand.
pub fn cache_root() -> std::path::PathBuf {
    std::env::var_os("MORPHTRACE_CACHE")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache/morphtrace"))
        })
        .unwrap_or_else(std::env::temp_dir)
}

#[cfg(test)]
mod tests {
    #[test]
    fn seeds() {
        assert_eq!(super::parse_seeds("1..3,7").unwrap(), vec![1, 2, 3, 7]);
        assert_eq!(super::parse_seeds("5").unwrap(), vec![5]);
        assert!(super::parse_seeds("3..1").is_err());
        assert!(super::parse_seeds("x").is_err());
    }
}
