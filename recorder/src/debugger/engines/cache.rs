//! Engines on demand: Chromium builds, Deno and Bun releases fetched from the npm registry on first
//! use, unpacked into a cache (`~/.cache/morphtrace/engines/KIND/VERSION`) and reused.
//!
//! Chromium 92..153 comes from `@sparticuz/chromium` (a headless Chromium brotli-packed inside
//! the package; we unpack it ourselves rather than through the package's `executablePath()`,
//! which unpacks into a fixed `/tmp/chromium` that two versions would share and, in old
//! versions, deletes other files in /tmp). Deno comes from `@deno/linux-x64-glibc` (the binary
//! the `deno` package would pick), Bun (JavaScriptCore) from `@oven/bun-linux-x64`. `npm pack` downloads the tarball: it honours the user's npm
//! configuration (registry, proxy, credentials) and checks the registry's integrity hash.
//!
//! An install is made in a staging directory and renamed into place, under an exclusive lock per
//! version, so two processes (or workers) asking for the same new version install it once; a
//! manifest of every file's size and CRC-32 lets a partial or corrupt install be detected (and
//! replaced) before it is used.

use morphtrace_schema::EngineKind;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("{kind} is not installable on demand (installable: chromium, deno, bun)")]
    NotInstallable { kind: String },
    #[error("{kind}@{asked} is not available; nearby available versions: {nearby}")]
    Unknown {
        kind: String,
        asked: String,
        nearby: String,
    },
    #[error("listing {package}'s versions: {reason}")]
    Listing { package: String, reason: String },
    #[error("installing {what}: {reason}")]
    Install { what: String, reason: String },
}

/// Where an installable engine comes from and what its package holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distribution {
    /// `@sparticuz/chromium`: `bin/chromium.br` and brotli-packed tarballs of libraries.
    Sparticuz,
    /// `@deno/linux-x64-glibc`: the `deno` binary.
    Deno,
    /// `@oven/bun-linux-x64`: the `bun` binary (JavaScriptCore).
    Bun,
}

impl Distribution {
    pub fn of(kind: &EngineKind) -> Option<Distribution> {
        match kind {
            EngineKind::Chromium => Some(Distribution::Sparticuz),
            EngineKind::Deno => Some(Distribution::Deno),
            EngineKind::Bun => Some(Distribution::Bun),
            _ => None,
        }
    }

    pub fn package(self) -> &'static str {
        match self {
            Distribution::Sparticuz => "@sparticuz/chromium",
            Distribution::Deno => "@deno/linux-x64-glibc",
            Distribution::Bun => "@oven/bun-linux-x64",
        }
    }

    /// The engine kind as `--engine` names it (`chromium`, `deno`, `bun`).
    pub fn kind(self) -> &'static str {
        match self {
            Distribution::Sparticuz => "chromium",
            Distribution::Deno => "deno",
            Distribution::Bun => "bun",
        }
    }

    /// The executable's name inside an install.
    pub fn executable(self) -> &'static str {
        match self {
            Distribution::Sparticuz => "chromium",
            Distribution::Deno => "deno",
            Distribution::Bun => "bun",
        }
    }
}

/// A version as npm writes it: numbers, and an optional pre-release tag (`119.0.1-next.0`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub text: String,
    numbers: Vec<u64>,
    pre: Option<String>,
}

impl Version {
    pub fn parse(text: &str) -> Option<Version> {
        let (main, pre) = match text.split_once('-') {
            Some((m, p)) => (m, Some(p.to_string())),
            None => (text, None),
        };
        let numbers = main
            .split('.')
            .map(|n| n.parse().ok())
            .collect::<Option<Vec<u64>>>()?;
        (!numbers.is_empty()).then(|| Version {
            text: text.to_string(),
            numbers,
            pre,
        })
    }

    pub fn numbers(&self) -> &[u64] {
        &self.numbers
    }

    pub fn major(&self) -> u64 {
        self.numbers[0]
    }

    pub fn is_release(&self) -> bool {
        self.pre.is_none()
    }

    /// `123` matches 123.x.y, `2.7` matches 2.7.x, `123.0.1` only itself.
    fn matches(&self, asked: &Version) -> bool {
        if asked.pre.is_some() || asked.numbers.len() >= self.numbers.len() {
            return self.text == asked.text;
        }
        self.is_release() && self.numbers.starts_with(&asked.numbers)
    }
}

impl Ord for Version {
    fn cmp(&self, other: &Self) -> Ordering {
        // A pre-release comes before its release (semver).
        self.numbers
            .cmp(&other.numbers)
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => a.cmp(b),
            })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The cache's root: `$MORPHTRACE_ENGINES`, else `$MORPHTRACE_CACHE/engines`, else
/// `~/.cache/morphtrace/engines`.
pub fn root() -> PathBuf {
    if let Some(p) = std::env::var_os("MORPHTRACE_ENGINES") {
        return PathBuf::from(p);
    }
    crate::cache_root().join("engines")
}

/// How long a list of available versions is trusted before the registry is asked again.
const LISTING_TTL: Duration = Duration::from_secs(24 * 3600);

/// The released versions of `source` in the registry, oldest first (pre-releases are kept:
/// they can be named exactly). The list is kept in the cache for a day; when the registry cannot
/// be reached, an older list is used with a warning.
pub fn available(source: Distribution) -> Result<Vec<Version>, CacheError> {
    let dir = root().join(source.kind());
    let listing = dir.join("versions.json");
    let fresh = std::fs::metadata(&listing)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age < LISTING_TTL);
    let cached =
        || -> Option<Vec<String>> { serde_json::from_slice(&std::fs::read(&listing).ok()?).ok() };
    let texts = match fresh.then(cached).flatten() {
        Some(v) => v,
        None => match npm_versions(source.package()) {
            Ok(v) => {
                let _ = std::fs::create_dir_all(&dir);
                if let Ok(json) = serde_json::to_vec(&v) {
                    // Written whole then renamed: a concurrent reader never sees half a list.
                    let tmp = dir.join(format!(".versions.{}.json", std::process::id()));
                    if std::fs::write(&tmp, json).is_ok() {
                        let _ = std::fs::rename(&tmp, &listing);
                    }
                }
                v
            }
            Err(reason) => match cached() {
                Some(v) => {
                    tracing::warn!(
                        "the npm registry did not answer ({reason}); using the versions of {} listed earlier",
                        source.package()
                    );
                    v
                }
                None => {
                    return Err(CacheError::Listing {
                        package: source.package().into(),
                        reason,
                    })
                }
            },
        },
    };
    let mut out: Vec<Version> = texts.iter().filter_map(|t| Version::parse(t)).collect();
    out.sort();
    Ok(out)
}

fn npm() -> Command {
    let mut c = Command::new("npm");
    // An install must not go on after the recorder is gone (a killed `engines --install`).
    crate::child::DieWithParent::die_with_parent(&mut c);
    // npm's update check and funding notes are noise on stderr and a network call of their own.
    c.env("NPM_CONFIG_UPDATE_NOTIFIER", "false")
        .env("NPM_CONFIG_FUND", "false")
        .env("NPM_CONFIG_AUDIT", "false");
    c
}

fn npm_versions(package: &str) -> Result<Vec<String>, String> {
    let out = npm()
        .args(["view", package, "versions", "--json"])
        .output()
        .map_err(|e| format!("running npm: {e} (npm comes with Node; run scripts/setup.sh)"))?;
    if !out.status.success() {
        return Err(first_error_line(&out.stderr));
    }
    serde_json::from_slice::<Vec<String>>(&out.stdout)
        .map_err(|e| format!("npm view printed no version list: {e}"))
}

fn first_error_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .find(|l| l.contains("ERR!") || l.contains("error"))
        .or_else(|| text.lines().rfind(|l| !l.trim().is_empty()))
        .unwrap_or("no message")
        .trim()
        .to_string()
}

/// The version `asked` names among `available`: the newest release it matches (`123` → 123.0.1),
/// or, with no `asked`, the newest release. An unknown version fails with its neighbours.
pub fn resolve(
    source: Distribution,
    asked: Option<&str>,
    available: &[Version],
) -> Result<Version, CacheError> {
    let unknown = |asked: &str| CacheError::Unknown {
        kind: source.kind().into(),
        asked: asked.into(),
        nearby: nearby(source, asked, available),
    };
    let Some(asked) = asked else {
        return available
            .iter()
            .rfind(|v| v.is_release())
            .cloned()
            .ok_or_else(|| unknown("latest"));
    };
    let want = Version::parse(asked).ok_or_else(|| unknown(asked))?;
    available
        .iter()
        .rfind(|v| v.matches(&want))
        .cloned()
        .ok_or_else(|| unknown(asked))
}

/// Up to four released versions on each side of `asked`, for an error message.
pub fn nearby(source: Distribution, asked: &str, available: &[Version]) -> String {
    let releases: Vec<&Version> = available.iter().filter(|v| v.is_release()).collect();
    if releases.is_empty() {
        return "none".into();
    }
    let at = match Version::parse(asked) {
        Some(a) => releases.partition_point(|v| v.numbers < a.numbers),
        None => releases.len(),
    };
    let from = at.saturating_sub(4);
    let to = (at + 4).min(releases.len());
    let mut s: Vec<&str> = releases[from..to].iter().map(|v| v.text.as_str()).collect();
    if from > 0 {
        s.insert(0, "…");
    }
    if to < releases.len() {
        s.push("…");
    }
    format!(
        "{} ({} in all, {}..{}; `morphtrace-record engines --available {}` lists them)",
        s.join(", "),
        releases.len(),
        releases[0].text,
        releases[releases.len() - 1].text,
        source.kind()
    )
}

/// An engine ready in the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub executable: PathBuf,
    /// `@sparticuz/chromium@123.0.1`.
    pub package: String,
    /// Whether this call downloaded it (false: it was in the cache, or another process put it
    /// there while this one waited).
    pub fetched: bool,
}

/// What an install holds, written last: its absence means the install is partial.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    package: String,
    version: String,
    /// The registry's integrity hash of the tarball.
    integrity: String,
    files: Vec<Entry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    path: String,
    size: u64,
    crc32: u32,
}

const MANIFEST: &str = "morphtrace-install.json";

/// Installs checked in this process (a check reads every byte: once is enough).
static CHECKED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);

/// `source` at `version` in the cache, installed first if it is missing, partial or corrupt.
/// `progress` is told what happens (downloading, unpacking, waiting for another install).
pub fn ensure(
    source: Distribution,
    version: &Version,
    progress: &dyn Fn(&str),
) -> Result<Installed, CacheError> {
    let what = format!("{}@{}", source.package(), version.text);
    let fail = |reason: String| CacheError::Install {
        what: what.clone(),
        reason,
    };
    let kind_dir = root().join(source.kind());
    let dir = kind_dir.join(&version.text);
    let installed = |fetched| Installed {
        executable: dir.join(source.executable()),
        package: what.clone(),
        fetched,
    };
    if checked(&dir) {
        return Ok(installed(false));
    }
    std::fs::create_dir_all(&kind_dir).map_err(|e| fail(format!("{}: {e}", kind_dir.display())))?;
    let lock = File::create(kind_dir.join(format!(".{}.lock", version.text)))
        .map_err(|e| fail(format!("the install lock: {e}")))?;
    if lock.try_lock().is_err() {
        progress(&format!("waiting for another install of {what}"));
        lock.lock()
            .map_err(|e| fail(format!("the install lock: {e}")))?;
    }
    // Under the lock: another process may have finished the install meanwhile.
    match verify(&dir) {
        Ok(()) => {
            mark_checked(&dir);
            return Ok(installed(false));
        }
        Err(why) if dir.exists() => {
            progress(&format!("replacing the install of {what}: {why}"));
            std::fs::remove_dir_all(&dir)
                .map_err(|e| fail(format!("removing {}: {e}", dir.display())))?;
        }
        Err(_) => {}
    }
    // Under the lock every staging directory of this version is another install's that died
    // (a killed recorder or npm): nothing will finish it.
    let prefix = format!(".{}.staging-", version.text);
    if let Ok(entries) = std::fs::read_dir(&kind_dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                progress(&format!("removing an interrupted install of {what}"));
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let staging = tempfile::Builder::new()
        .prefix(&prefix)
        .tempdir_in(&kind_dir)
        .map_err(|e| fail(e.to_string()))?;
    progress(&format!("downloading {what} from the npm registry"));
    let (tarball, integrity) = npm_pack(&what, staging.path()).map_err(&fail)?;
    progress(&format!("unpacking {what}"));
    let unpacked = staging.path().join("install");
    std::fs::create_dir(&unpacked).map_err(|e| fail(e.to_string()))?;
    unpack(source, &tarball, &unpacked).map_err(|e| fail(e.to_string()))?;
    let files = entries(&unpacked).map_err(|e| fail(e.to_string()))?;
    if !files.iter().any(|f| f.path == source.executable()) {
        return Err(fail(format!(
            "the package holds no {} executable",
            source.executable()
        )));
    }
    let manifest = Manifest {
        package: source.package().into(),
        version: version.text.clone(),
        integrity,
        files,
    };
    let json = serde_json::to_vec_pretty(&manifest).map_err(|e| fail(e.to_string()))?;
    std::fs::write(unpacked.join(MANIFEST), json).map_err(|e| fail(e.to_string()))?;
    std::fs::rename(&unpacked, &dir).map_err(|e| fail(format!("{}: {e}", dir.display())))?;
    mark_checked(&dir);
    drop(lock);
    Ok(installed(true))
}

fn checked(dir: &Path) -> bool {
    CHECKED
        .lock()
        .ok()
        .and_then(|s| s.as_ref().map(|s| s.contains(dir)))
        .unwrap_or(false)
}

fn mark_checked(dir: &Path) {
    if let Ok(mut s) = CHECKED.lock() {
        s.get_or_insert_with(HashSet::new).insert(dir.to_path_buf());
    }
}

/// Whether `dir` is a complete install: its manifest, and every file it lists with its size
/// and CRC-32.
pub fn verify(dir: &Path) -> Result<(), String> {
    let raw = std::fs::read(dir.join(MANIFEST)).map_err(|_| "no manifest (a partial install)")?;
    let m: Manifest =
        serde_json::from_slice(&raw).map_err(|e| format!("an unreadable manifest: {e}"))?;
    for f in &m.files {
        let p = dir.join(&f.path);
        let size = std::fs::metadata(&p)
            .map_err(|_| format!("{} is missing", f.path))?
            .len();
        if size != f.size {
            return Err(format!("{} has {size} bytes, not {}", f.path, f.size));
        }
        let crc = crc_of(&p).map_err(|e| format!("{}: {e}", f.path))?;
        if crc != f.crc32 {
            return Err(format!(
                "{} is corrupt (CRC-32 {crc:08x}, not {:08x})",
                f.path, f.crc32
            ));
        }
    }
    Ok(())
}

fn crc_of(p: &Path) -> std::io::Result<u32> {
    let mut h = crc32fast::Hasher::new();
    let mut f = File::open(p)?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            return Ok(h.finalize());
        }
        h.update(&buf[..n]);
    }
}

/// Every regular file under `dir`, relative, with its size and CRC-32.
fn entries(dir: &Path) -> std::io::Result<Vec<Entry>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let e = e?;
            let t = e.file_type()?;
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                let p = e.path();
                let rel = p
                    .strip_prefix(dir)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                out.push(Entry {
                    path: rel,
                    size: e.metadata()?.len(),
                    crc32: crc_of(&p)?,
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// `npm pack PACKAGE@VERSION` into `dir`: the tarball and the registry's integrity hash.
fn npm_pack(what: &str, dir: &Path) -> Result<(PathBuf, String), String> {
    let out = npm()
        .args(["pack", what, "--json", "--pack-destination"])
        .arg(dir)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("running npm: {e} (npm comes with Node; run scripts/setup.sh)"))?;
    if !out.status.success() {
        return Err(format!("npm pack: {}", first_error_line(&out.stderr)));
    }
    #[derive(Deserialize)]
    struct Packed {
        filename: String,
        #[serde(default)]
        integrity: String,
    }
    let packed: Vec<Packed> = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("npm pack printed no file list: {e}"))?;
    let p = packed
        .into_iter()
        .next()
        .ok_or("npm pack made no tarball")?;
    // Scoped packages are packed as `scope-name-version.tgz`; npm prints the name it used.
    Ok((dir.join(p.filename), p.integrity))
}

/// Unpacks what an engine needs from the package tarball into `dest`.
fn unpack(source: Distribution, tarball: &Path, dest: &Path) -> std::io::Result<()> {
    let gz = flate2::read::GzDecoder::new(BufReader::new(File::open(tarball)?));
    let mut tar = tar::Archive::new(gz);
    for entry in tar.entries()? {
        let mut entry = entry?;
        let path = entry.path()?.to_string_lossy().into_owned();
        match (source, path.as_str()) {
            (Distribution::Deno, "package/deno") => {
                write_executable(&mut entry, &dest.join("deno"))?
            }
            (Distribution::Bun, "package/bin/bun") => {
                write_executable(&mut entry, &dest.join("bun"))?
            }
            (Distribution::Sparticuz, "package/bin/chromium.br") => write_executable(
                &mut brotli_decompressor::Decompressor::new(entry, 1 << 16),
                &dest.join("chromium"),
            )?,
            // The software GL libraries Chromium loads from next to its binary. The fonts and
            // the Amazon Linux libraries (aws, al2, al2023) are for Lambda: this machine has its
            // own.
            (Distribution::Sparticuz, "package/bin/swiftshader.tar.br") => {
                let inner = brotli_decompressor::Decompressor::new(entry, 1 << 16);
                let mut inner = tar::Archive::new(inner);
                inner.set_preserve_permissions(true);
                for e in inner.entries()? {
                    let mut e = e?;
                    let name = e.path()?.to_path_buf();
                    // Only plain names: a path that climbs out of the install is refused.
                    if name.components().count() == 1
                        && matches!(
                            name.components().next(),
                            Some(std::path::Component::Normal(_))
                        )
                    {
                        e.unpack(dest.join(&name))?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn write_executable(from: &mut dyn Read, to: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o755)
        .open(to)?;
    std::io::copy(from, &mut f)?;
    f.flush()
}

/// `@sparticuz/chromium@123.0.1` when `exe` is an install of the cache (its manifest says so).
pub fn package_of(exe: &Path) -> Option<String> {
    let raw = std::fs::read(exe.parent()?.join(MANIFEST)).ok()?;
    let m: Manifest = serde_json::from_slice(&raw).ok()?;
    Some(format!("{}@{}", m.package, m.version))
}

/// The installs in the cache: (kind, version, complete?).
pub fn installed(source: Distribution) -> Vec<(Version, bool)> {
    let dir = root().join(source.kind());
    let mut out: Vec<(Version, bool)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v = Version::parse(&e.file_name().to_string_lossy())?;
            Some((v, e.path().join(MANIFEST).is_file()))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(v: &[&str]) -> Vec<Version> {
        let mut out: Vec<Version> = v.iter().filter_map(|t| Version::parse(t)).collect();
        out.sort();
        out
    }

    #[test]
    fn resolves_a_major_to_its_newest_release() {
        let a = versions(&[
            "92.0.0",
            "119.0.1-next.0",
            "119.0.2",
            "123.0.0",
            "123.0.1",
            "126.0.0",
        ]);
        let r = |s: Option<&str>| resolve(Distribution::Sparticuz, s, &a).map(|v| v.text);
        assert_eq!(r(Some("123")).unwrap(), "123.0.1");
        assert_eq!(r(Some("123.0.0")).unwrap(), "123.0.0");
        assert_eq!(r(Some("119")).unwrap(), "119.0.2");
        assert_eq!(r(Some("119.0.1-next.0")).unwrap(), "119.0.1-next.0");
        assert_eq!(r(None).unwrap(), "126.0.0");
        let Err(CacheError::Unknown { nearby, .. }) = r(Some("124")) else {
            panic!("124 resolved");
        };
        assert!(
            nearby.starts_with(
                "92.0.0, 119.0.2, 123.0.0, 123.0.1, 126.0.0 (5 in all, 92.0.0..126.0.0"
            ),
            "{nearby}"
        );
        // Far from the asked version, the list is cut on both sides.
        let many: Vec<String> = (90..110).map(|m| format!("{m}.0.0")).collect();
        let many = versions(&many.iter().map(String::as_str).collect::<Vec<_>>());
        let far = super::nearby(Distribution::Sparticuz, "100.5", &many);
        let want = "…, 97.0.0, 98.0.0, 99.0.0, 100.0.0, 101.0.0, 102.0.0, 103.0.0, 104.0.0, …";
        assert!(far.starts_with(want), "{far}");
        assert!(matches!(
            r(Some("garbage")),
            Err(CacheError::Unknown { .. })
        ));
    }

    #[test]
    fn orders_pre_releases_before_their_release() {
        let a = versions(&["2.7.10", "2.7.9", "2.7.1-rc.1", "2.7.1", "2.10.0"]);
        let t: Vec<&str> = a.iter().map(|v| v.text.as_str()).collect();
        assert_eq!(t, ["2.7.1-rc.1", "2.7.1", "2.7.9", "2.7.10", "2.10.0"]);
    }
}
