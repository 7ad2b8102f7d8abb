//! C programs from Csmith (`csmith --seed N`), cached by seed and Csmith version.

use crate::process;
use crate::profilers::CoverageError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Csmith itself can take long on some seeds.
const GENERATE_TIMEOUT: Duration = Duration::from_secs(30);

/// Runs csmith in a scratch directory: it writes `platform.info` into its working directory,
/// even for `--version`.
fn csmith(args: &[&str]) -> Result<process::Finished, CoverageError> {
    let scratch = tempfile::Builder::new()
        .prefix("morphtrace-csmith-")
        .tempdir()?;
    Ok(process::run(
        Command::new("csmith")
            .current_dir(scratch.path())
            .args(args),
        GENERATE_TIMEOUT,
        None,
    )?)
}

/// `csmith --version`'s first line, e.g. `csmith 2.3.0`.
pub fn version() -> Result<String, CoverageError> {
    let f = csmith(&["--version"]).map_err(|_| CoverageError::Missing("csmith".into()))?;
    f.stdout
        .lines()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_string())
        .ok_or_else(|| CoverageError::Missing("csmith".into()))
}

/// Where generated programs are kept, so that a rerun (or a second campaign) does not pay
/// Csmith's ~0.7 s per program again.
pub fn cache_dir() -> PathBuf {
    crate::cache_root().join("csmith")
}

/// The program Csmith generates for `seed` (deterministic for a given Csmith version).
pub fn generate(seed: u64, version: &str, cache: Option<&Path>) -> Result<String, CoverageError> {
    let tag: String = version
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let cached = cache.map(|d| d.join(&tag).join(format!("{seed}.c")));
    if let Some(p) = &cached {
        if let Ok(t) = std::fs::read_to_string(p) {
            return Ok(t);
        }
    }
    let f = csmith(&["--seed", &seed.to_string()])?;
    if !f.ok() || f.stdout.is_empty() {
        return Err(CoverageError::Tool {
            what: format!("csmith --seed {seed}"),
            message: if f.timed_out {
                "timed out".into()
            } else {
                f.stderr_tail()
            },
        });
    }
    if let Some(p) = &cached {
        if let Some(d) = p.parent() {
            let _ = std::fs::create_dir_all(d);
        }
        // Write then rename: two campaigns generating the same seed never see half a file.
        let tmp = p.with_extension(format!("c.{}", std::process::id()));
        if std::fs::write(&tmp, &f.stdout).is_ok() {
            let _ = std::fs::rename(&tmp, p);
        }
    }
    Ok(f.stdout)
}
