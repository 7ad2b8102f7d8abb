//! Engines on demand, version matrices and bisection, against the npm registry and real
//! engines: an unknown version fails fast with its neighbours; a corrupt or partial install is
//! found and replaced; two processes asking for one new version install it once; a replay
//! matrix on Node and Deno tabulated by `morphtrace-analyze versions`; and the boundary that
//! `bisect` found in the bundled Chromium-vs-Node campaign, checked on its two versions; and a
//! bisection over three Node versions whose search loop probes the middle one.

mod common;
use common::root;

use common::analyzer;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const RECORD: &str = env!("CARGO_BIN_EXE_morphtrace-record");

/// The small engine the install tests fetch (about 50 MB; a Chromium is as large and slower
/// to unpack).
const DENO: &str = "deno@2.7.14";

fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `morphtrace-record ARGS` with the engine cache in `cache`.
fn record(cache: &Path, args: &[&str]) -> Output {
    Command::new(RECORD)
        .args(args)
        .env("MORPHTRACE_ENGINES", cache)
        .output()
        .unwrap()
}

#[test]
fn an_unknown_version_fails_fast_with_the_nearby_ones() {
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let o = record(
        cache.path(),
        &[
            "run",
            "--engine",
            "chromium@124",
            "--corpus",
            &root().join("corpus/dbdb/manual").display().to_string(),
            "--out",
            &out.path().join("a.mtrace").display().to_string(),
        ],
    );
    let all = text(&o);
    assert!(!o.status.success(), "{all}");
    assert!(all.contains("chromium@124 is not available"), "{all}");
    // 124 was never published: its neighbours are named.
    for near in ["123.0.1", "126.0.0"] {
        assert!(all.contains(near), "{near} missing: {all}");
    }
    // Nothing was downloaded, nothing recorded.
    assert!(!cache.path().join("chromium/124.0.0").exists());
    assert!(!out.path().join("a.mtrace").exists());
    // A malformed version is refused the same way.
    let o = record(cache.path(), &["engines", "--install", "deno@banana"]);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("deno@banana is not available"),
        "{}",
        text(&o)
    );
}

/// The one version directory of `kind` in `cache`.
fn install_dir(cache: &Path, kind: &str) -> PathBuf {
    let dirs: Vec<PathBuf> = std::fs::read_dir(cache.join(kind))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(dirs.len(), 1, "one install, no staging left: {dirs:?}");
    dirs[0].clone()
}

#[test]
fn a_corrupt_or_partial_install_is_found_and_replaced() {
    let cache = tempfile::tempdir().unwrap();
    let o = record(cache.path(), &["engines", "--install", DENO]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("downloading"), "{}", text(&o));
    let dir = install_dir(cache.path(), "deno");
    let exe = dir.join("deno");

    // Already there: no second download.
    let o = record(cache.path(), &["engines", "--install", DENO]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!text(&o).contains("downloading"), "{}", text(&o));

    // One byte changed in the middle, same size: the CRC finds it.
    let mut bytes = std::fs::read(&exe).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&exe, &bytes).unwrap();
    drop(bytes);
    let o = record(cache.path(), &["engines", "--install", DENO]);
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    assert!(
        all.contains("replacing the install") && all.contains("corrupt"),
        "{all}"
    );
    assert!(all.contains("downloading"), "{all}");

    // Cut short (a download or unpack that died): the size differs.
    let f = std::fs::OpenOptions::new().write(true).open(&exe).unwrap();
    f.set_len(1 << 20).unwrap();
    drop(f);
    let o = record(cache.path(), &["engines", "--install", DENO]);
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    assert!(all.contains("has 1048576 bytes"), "{all}");

    // No manifest: an install that never finished; and the staging folder of an install that
    // was killed, left beside it, goes with the next install.
    std::fs::remove_file(dir.join("morphtrace-install.json")).unwrap();
    let stale = dir.parent().unwrap().join(format!(
        ".{}.staging-killed",
        dir.file_name().unwrap().to_string_lossy()
    ));
    std::fs::create_dir_all(stale.join("install")).unwrap();
    let o = record(cache.path(), &["engines", "--install", DENO]);
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    assert!(all.contains("a partial install"), "{all}");
    assert!(
        !stale.exists(),
        "the killed install's staging folder is still there"
    );
    // Whole again, and it launches (engines --install launches what it installs).
    assert!(all.contains("deno@2.7.14"), "{all}");
    install_dir(cache.path(), "deno");
}

#[test]
fn two_processes_asking_for_one_new_version_install_it_once() {
    let cache = tempfile::tempdir().unwrap();
    let spawn = || {
        Command::new(RECORD)
            .args(["engines", "--install", DENO])
            .env("MORPHTRACE_ENGINES", cache.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success(), "{}", text(&a));
    assert!(b.status.success(), "{}", text(&b));
    let downloads = [&a, &b]
        .iter()
        .filter(|o| text(o).contains("downloading"))
        .count();
    assert_eq!(downloads, 1, "{}\n{}", text(&a), text(&b));
    // Both report the same installed engine.
    for o in [&a, &b] {
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("deno@2.7.14"),
            "{}",
            text(o)
        );
    }
    install_dir(cache.path(), "deno");
}

/// The default engine cache: versions installed by one test run are reused by the next.
fn default_cache() -> PathBuf {
    std::env::var_os("MORPHTRACE_ENGINES")
        .map(PathBuf::from)
        .unwrap_or_else(|| morphtrace_recorder::cache_root().join("engines"))
}

#[test]
fn a_replay_matrix_on_node_and_deno_is_tabulated_by_version() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("matrix");
    let archive = root().join("traces/random-node-manual.mtrace");
    let o = record(
        &default_cache(),
        &[
            "replay",
            &archive.display().to_string(),
            "--engine",
            "node",
            "--engine",
            DENO,
            "--in-place-of",
            "node",
            "--jobs",
            "2",
            "--out",
            &out.display().to_string(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    for f in ["node@system.mtrace", "deno@2.7.14.mtrace"] {
        assert!(out.join(f).is_file(), "{f}: {}", text(&o));
    }
    let v = Command::new(analyzer())
        .args(["versions", &out.display().to_string(), "--format", "csv"])
        .output()
        .unwrap();
    let all = text(&v);
    assert!(v.status.success(), "{all}");
    // One column per version, Node's before Deno's by kind; every session judged on Deno
    // (a pause it did not hold would end sessions in errors, not verdicts).
    // The overview comes first: its two rows are the first lines that name a version.
    let overview: Vec<&str> = all
        .lines()
        .filter(|l| l.starts_with("deno@") || l.starts_with("node@"))
        .take(2)
        .collect();
    assert!(overview[1].starts_with("node@"), "{all}");
    let deno: Vec<&str> = overview[0].split(',').collect();
    assert!(deno[0].starts_with("deno@2.7.14"), "{all}");
    let (sessions, judged, undecided) = (deno[1], deno[2], deno[4]);
    assert_eq!(sessions, judged, "{all}");
    assert_eq!(undecided, "0", "{all}");
    assert!(sessions.parse::<usize>().unwrap() >= 20, "{all}");
    // Deno paused where the recording asked: its archive holds pauses.
    let show = Command::new(analyzer())
        .args([
            "show",
            &out.join("deno@2.7.14.mtrace").display().to_string(),
            "0",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&show.stdout).contains("paused at"),
        "{}",
        text(&show)
    );
}

/// The boundary `bisect` found in the bundled campaign's version matrix (traces/README.md):
/// Chromium 116 (V8 11.6) reports a `const` in its temporal dead zone as `undefined`, where
/// Node's adapter says `<uninitialized>`; Chromium 117 (V8 11.7) no longer does. Bisected on
/// exactly those two adjacent versions, the finding must disappear between them.
#[test]
fn bisect_finds_the_tdz_boundary_between_chromium_116_and_117() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("probes");
    let archive = root().join("traces/versions-chromium-node-dbdb/chromium@115.0.0.mtrace");
    let o = record(
        &default_cache(),
        &[
            "bisect",
            &archive.display().to_string(),
            "--session",
            "82ef44940485e1fa",
            "--versions",
            "chromium@116..117",
            "--out",
            &out.display().to_string(),
        ],
    );
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    assert!(
        all.contains(
            "variables at start disappears between chromium@116.0.0 and chromium@117.0.0 \
             (both sides probed twice)"
        ),
        "{all}"
    );
    // Every probe is an archive: two ends, then both probed again.
    let probes = std::fs::read_dir(&out)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "mtrace"))
        })
        .count();
    assert_eq!(probes, 4, "{all}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("bisect.json")).unwrap()).unwrap();
    let shows: Vec<Option<bool>> = json["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["shows"].as_bool())
        .collect();
    assert_eq!(
        shows,
        [Some(true), Some(false), Some(true), Some(false)],
        "{all}"
    );
}

/// A bisection whose search loop runs: three Node versions (20 on PATH, 22 and 24 installed by
/// `scripts/setup.sh`), on the finding of traces/findings/v8-13-steps-past-a-call-position-node-20-stops-at
/// recorded afresh against Chromium. The ends are probed first (20 shows it, 24 does not), then
/// the middle (22 shows it), then the boundary's two sides again.
#[test]
fn bisect_searches_three_node_versions_for_the_call_position_step() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("d.mtrace");
    let program =
        root().join("traces/findings/v8-13-steps-past-a-call-position-node-20-stops-at/program.js");
    let o = record(
        &default_cache(),
        &[
            "run",
            "--strategy",
            "differential",
            "--engine",
            "chromium",
            "--engine",
            "node",
            "--corpus",
            &program.display().to_string(),
            "--seeds",
            "1..1",
            "--stop-at-first-divergence",
            "--out",
            &archive.display().to_string(),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    // A divergence the session does not have is refused before anything is probed.
    let o = record(
        &default_cache(),
        &[
            "bisect",
            &archive.display().to_string(),
            "--session",
            "0",
            "--divergence",
            "3",
            "--versions",
            "node@20..24",
            "--out",
            &dir.path().join("none").display().to_string(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("has no divergence 3 (it has 1"),
        "{}",
        text(&o)
    );
    assert!(!dir.path().join("none").exists());
    let out = dir.path().join("probes");
    let o = record(
        &default_cache(),
        &[
            "bisect",
            &archive.display().to_string(),
            "--session",
            "0",
            "--versions",
            "node@20..24",
            "--out",
            &out.display().to_string(),
        ],
    );
    let all = text(&o);
    assert!(o.status.success(), "{all}");
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("bisect.json")).unwrap()).unwrap();
    assert_eq!(
        json["versions"],
        serde_json::json!(["node", "node@22", "node@24"]),
        "{all}"
    );
    let probes: Vec<(String, Option<bool>)> = json["probes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["version"].as_str().unwrap().to_string(),
                p["shows"].as_bool(),
            )
        })
        .collect();
    let expected: Vec<(String, Option<bool>)> = [
        ("node", true),
        ("node@24", false),
        ("node@22", true),
        ("node@22", true),
        ("node@24", false),
    ]
    .iter()
    .map(|(v, s)| (v.to_string(), Some(*s)))
    .collect();
    assert_eq!(probes, expected, "{all}");
    assert_eq!(
        json["verdict"],
        "pause-location at stepInto disappears between node@22 and node@24 (both sides probed twice)",
        "{all}"
    );
}
