//! The documentation stays true: every relative link in the README, `docs/` and the other
//! READMEs a reader follows leads to a file of the repository, and every `morphtrace-record` or
//! `morphtrace-analyze` command shown in a shell block names a subcommand and flags that the
//! binaries still accept (checked against each subcommand's `--help`).

mod common;
use common::root;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The pages a reader follows: the README, every page of `docs/` and the folders' READMEs.
fn pages() -> Vec<PathBuf> {
    let r = root();
    let mut out: Vec<PathBuf> = std::fs::read_dir(r.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    out.sort();
    for f in [
        "README.md",
        "corpus/README.md",
        "traces/README.md",
        "analyzer/README.md",
    ] {
        out.push(r.join(f));
    }
    out
}

/// The targets of `[text](target)` links that are neither web addresses nor anchors.
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or_default().trim();
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target.to_string());
        }
        rest = &rest[end..];
    }
    out
}

#[test]
fn every_relative_link_leads_to_a_file_of_the_repository() {
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in relative_links(&text) {
            let path = page.parent().unwrap().join(&target);
            assert!(
                path.exists(),
                "{}: the link to {target} leads nowhere",
                page.display()
            );
            checked += 1;
        }
    }
    // The README alone links every docs page.
    assert!(checked >= 30, "{checked} links checked");
}

/// The commands of the shell blocks of `text`, continuation lines joined, comments dropped.
fn shell_commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut current = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_block = t == "```sh" || t == "```bash" || t == "```shell";
            continue;
        }
        if !in_block {
            continue;
        }
        let code = match t.find(" #") {
            Some(i) => &t[..i],
            None if t.starts_with('#') => "",
            None => t,
        };
        match code.strip_suffix('\\') {
            Some(head) => {
                current.push_str(head);
                current.push(' ');
            }
            None => {
                current.push_str(code);
                if !current.trim().is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                current.clear();
            }
        }
    }
    out
}

/// A command line's binary (`record` or `analyze`), subcommand and long flags.
fn invocation(command: &str) -> Option<(&'static str, String, Vec<String>)> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.ends_with("morphtrace-record") || w.ends_with("morphtrace-analyze"))?;
    let bin = if words[at].ends_with("morphtrace-record") {
        "record"
    } else {
        "analyze"
    };
    let sub = words.get(at + 1)?.to_string();
    if sub.starts_with('-') {
        return None;
    }
    let flags = words[at + 2..]
        .iter()
        .take_while(|w| !matches!(**w, "|" | "&&" | ";" | ">"))
        .filter(|w| w.starts_with("--"))
        .map(|w| {
            w.split('=')
                .next()
                .unwrap_or(w)
                .trim_matches(['[', ']'])
                .to_string()
        })
        .collect();
    Some((bin, sub, flags))
}

#[test]
fn every_command_shown_names_what_the_binaries_accept() {
    let record = PathBuf::from(env!("CARGO_BIN_EXE_morphtrace-record"));
    let analyze = common::analyzer();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for command in shell_commands(&text) {
            let Some((bin, sub, flags)) = invocation(&command) else {
                continue;
            };
            let exe = if bin == "record" { &record } else { &analyze };
            // A subcommand of a subcommand (`genmorph search`) when the next word is one.
            let words: Vec<&str> = command.split_whitespace().collect();
            let next = words
                .iter()
                .position(|w| *w == sub)
                .and_then(|i| words.get(i + 1))
                .filter(|w| !w.starts_with('-'));
            let nested = next.map(|n| {
                Command::new(exe)
                    .args([sub.as_str(), n, "--help"])
                    .output()
                    .unwrap()
            });
            let help = match nested.filter(|o| o.status.success()) {
                Some(o) => o,
                None => Command::new(exe)
                    .args([sub.as_str(), "--help"])
                    .output()
                    .unwrap(),
            };
            assert!(
                help.status.success(),
                "{}: `{command}`: morphtrace-{bin} has no subcommand {sub}",
                page.display()
            );
            let help = String::from_utf8_lossy(&help.stdout);
            for f in flags.iter().filter(|f| f.len() > 2) {
                assert!(
                    help.contains(&format!("{f} ")) || help.contains(&format!("{f}\n")),
                    "{}: `{command}`: morphtrace-{bin} {sub} has no flag {f}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} commands checked");
}

#[test]
fn the_checks_read_links_and_commands_as_written() {
    assert_eq!(
        relative_links("[a](docs/x.md) [b](https://x.org) [c](#top) [d](y.md#part)"),
        ["docs/x.md", "y.md"]
    );
    let cmds = shell_commands(
        "text\n```sh\nB/morphtrace-record run --engine node \\\n    --seeds 1..2  # two\n# alone\n```\n`morphtrace-analyze info` inline\n",
    );
    assert_eq!(
        cmds,
        ["B/morphtrace-record run --engine node  --seeds 1..2 "]
    );
    let (bin, sub, flags) = invocation(&cmds[0]).unwrap();
    assert_eq!((bin, sub.as_str()), ("record", "run"));
    assert_eq!(flags, ["--engine", "--seeds"]);
}

/// The README counts the committed findings as `traces/findings/) holds N`: N is the number of
/// bundles there.
#[test]
fn the_readme_counts_the_committed_findings() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let said: usize = readme
        .split_once("(traces/findings/) holds ")
        .and_then(|(_, rest)| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .expect("the README says how many findings traces/findings/ holds, in digits");
    let bundles = std::fs::read_dir(root().join("traces/findings"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count();
    assert_eq!(said, bundles);
}

/// The spans in backquotes of `text` that name a file or folder of the repository: a slash or a
/// file extension the repository uses, no space, no Rust path, no flag, no `name:` corpus.
fn named_paths(text: &str) -> Vec<String> {
    let exts = [".rs", ".md", ".toml", ".sh", ".py", ".js", ".mtrace"];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.contains(' ') && !s.contains("::") && !s.starts_with('-'))
        .filter(|s| !s.contains(':') && !s.contains('*'))
        .filter(|s| s.contains('/') || exts.iter().any(|e| s.ends_with(e)))
        .map(str::to_string)
        .collect()
}

/// docs/architecture.md is the map a newcomer follows: every file and folder it names exists.
#[test]
fn the_architecture_page_names_only_paths_that_exist() {
    let r = root();
    let text = std::fs::read_to_string(r.join("docs/architecture.md")).unwrap();
    let named = named_paths(&text);
    // The code map names every crate's main files; a check that found few would check little.
    assert!(named.len() >= 50, "{named:?}");
    let missing: Vec<&String> = named.iter().filter(|p| !r.join(p).exists()).collect();
    assert!(
        missing.is_empty(),
        "named in docs/architecture.md, missing: {missing:?}"
    );
    assert_eq!(
        named_paths("`a/b.rs` `x.md` `--flag` `gen:1..3` `a::b` `two words` `plain`"),
        ["a/b.rs", "x.md"]
    );
}

/// A crate's `[dependencies]` (dev-dependencies and benches may use more): each name, whether
/// it is optional, and the features asked of it; with the crate's features (each feature's
/// `dep:` names).
struct Manifest {
    dependencies: Vec<(String, bool, Vec<String>)>,
    features: Vec<(String, Vec<String>)>,
}

fn manifest(path: &Path) -> Manifest {
    let text = std::fs::read_to_string(path).unwrap();
    let mut m = Manifest {
        dependencies: Vec::new(),
        features: Vec::new(),
    };
    let quoted = |s: &str| -> Vec<String> {
        s.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut section = "";
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if line.is_empty() || line.starts_with('#') {
        } else if section == "[dependencies]" {
            let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
            let features = line
                .split("features")
                .nth(1)
                .map(quoted)
                .unwrap_or_default();
            let optional = line.contains("optional = true");
            m.dependencies
                .push((name.trim().to_string(), optional, features));
        } else if section == "[features]" {
            let (name, deps) = line.split_once('=').unwrap();
            m.features.push((name.trim().to_string(), quoted(deps)));
        }
    }
    m
}

#[test]
fn manifests_are_read_with_optional_dependencies_and_features() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("Cargo.toml");
    std::fs::write(
        &path,
        "[package]\nname = \"x\"\n[features]\nc = [\"dep:tc\"]\n[dependencies]\n# note\n\
         a.workspace = true\nb = { workspace = true, features = [\"c\", \"d\"] }\n\
         tc = { workspace = true, optional = true }\n[dev-dependencies]\nz.workspace = true\n",
    )
    .unwrap();
    let m = manifest(&path);
    assert_eq!(
        m.dependencies,
        [
            ("a".to_string(), false, vec![]),
            (
                "b".to_string(),
                false,
                vec!["c".to_string(), "d".to_string()]
            ),
            ("tc".to_string(), true, vec![]),
        ]
    );
    assert_eq!(m.features, [("c".to_string(), vec!["dep:tc".to_string()])]);
}

/// The invariants docs/architecture.md states for each crate, checked on the manifests, over
/// the workspace's own crates transitively (a crate inherits what its workspace dependencies
/// depend on): the format judges nothing and parses no rules; the judges run nothing; the
/// analyzer never reaches the recorder or a browser client; the test kit ships in nothing.
#[test]
fn each_crate_depends_only_on_what_the_architecture_page_allows() {
    let r = root();
    let crates = [
        ("morphtrace-schema", "schema"),
        ("morphtrace-judges", "judges"),
        ("morphtrace-syntax", "syntax"),
        ("morphtrace-testkit", "testkit"),
        ("morphtrace-recorder", "recorder"),
        ("morphtrace-analyzer", "analyzer"),
    ];
    let manifests: std::collections::BTreeMap<&str, Manifest> = crates
        .iter()
        .map(|(name, dir)| (*name, manifest(&r.join(dir).join("Cargo.toml"))))
        .collect();
    // What building `name` alone builds: an optional dependency only where a crate on the way
    // asks for the feature that enables it (the analyzer's syntax crate without C, say).
    let reach = |name: &str| {
        let mut walked: Vec<(String, Vec<String>)> = Vec::new();
        let mut todo = vec![(name.to_string(), Vec::<String>::new())];
        while let Some((c, asked)) = todo.pop() {
            let Some(m) = manifests.get(c.as_str()) else {
                continue;
            };
            let enabled: Vec<&String> = m
                .features
                .iter()
                .filter(|(f, _)| asked.contains(f))
                .flat_map(|(_, deps)| deps)
                .collect();
            for (d, optional, features) in &m.dependencies {
                let on = !optional || enabled.iter().any(|e| *e == &format!("dep:{d}"));
                let step = (d.clone(), features.clone());
                if on && !walked.contains(&step) {
                    walked.push(step.clone());
                    todo.push(step);
                }
            }
        }
        let mut seen: Vec<String> = walked.into_iter().map(|(d, _)| d).collect();
        seen.sort();
        seen.dedup();
        seen
    };
    assert!(reach("morphtrace-schema").contains(&"zstd".to_string()));
    assert!(reach("morphtrace-recorder").contains(&"tree-sitter-c".to_string()));
    assert!(reach("morphtrace-recorder").contains(&"tree-sitter-go".to_string()));
    let forbid = |name: &str, banned: &[&str]| {
        let all = reach(name);
        let bad: Vec<&String> = all
            .iter()
            .filter(|d| {
                banned
                    .iter()
                    .any(|b| d == b || (b.ends_with('*') && d.starts_with(&b[..b.len() - 1])))
            })
            .collect();
        assert!(bad.is_empty(), "{name} depends on {bad:?} (all: {all:?})");
    };
    let engines = ["tokio", "tokio-tungstenite", "futures-util", "async-trait"];
    let frames = ["polars", "plotters"];
    forbid(
        "morphtrace-schema",
        &[
            &["morphtrace-*", "regex", "toml", "swc*", "tree-sitter*"][..],
            &engines,
            &frames,
        ]
        .concat(),
    );
    forbid(
        "morphtrace-judges",
        &[
            &[
                "morphtrace-syntax",
                "morphtrace-recorder",
                "morphtrace-analyzer",
                "morphtrace-testkit",
                "swc*",
                "tree-sitter*",
            ][..],
            &engines,
            &frames,
        ]
        .concat(),
    );
    forbid(
        "morphtrace-syntax",
        &[
            &[
                "morphtrace-judges",
                "morphtrace-recorder",
                "morphtrace-analyzer",
            ][..],
            &engines,
            &frames,
        ]
        .concat(),
    );
    forbid(
        "morphtrace-analyzer",
        &[
            &[
                "morphtrace-recorder",
                "morphtrace-testkit",
                "tree-sitter-c",
                "tree-sitter-go",
            ][..],
            &engines,
        ]
        .concat(),
    );
    forbid(
        "morphtrace-testkit",
        &[
            "morphtrace-judges",
            "morphtrace-syntax",
            "morphtrace-recorder",
            "morphtrace-analyzer",
        ],
    );
    forbid(
        "morphtrace-recorder",
        &["morphtrace-analyzer", "morphtrace-testkit", "polars"],
    );
}

/// The module graph of every crate has no cycle (issue 67; docs/architecture.md), as
/// `scripts/module-graph.py` draws it; and that script finds a cycle where one is, beside the
/// parent-child uses it leaves out.
#[test]
fn no_crate_has_a_module_cycle() {
    let script = root().join("scripts/module-graph.py");
    let o = Command::new("python3").arg(&script).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Every crate was read, with its modules: an empty walk would pass vacuously.
    for c in ["schema:", "judges:", "syntax:", "recorder:", "analyzer:"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(c))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            line.ends_with(" 0 cycles") && !line.contains(" 0 modules"),
            "{line}"
        );
    }

    let tree = tempfile::tempdir().unwrap();
    let src = tree.path().join("toy/src");
    std::fs::create_dir_all(src.join("room")).unwrap();
    let files = [
        ("lib.rs", "pub mod a;\npub mod b;\npub mod room;\n"),
        ("a.rs", "use crate::b::B;\npub struct A;\n"),
        (
            "b.rs",
            "use crate::{room::inner::C, a::A};\npub struct B;\n",
        ),
        ("room/mod.rs", "pub mod inner;\nuse inner::C;\n"),
        (
            "room/inner.rs",
            "use super::super::b;\npub struct C;\n// crate::a::A\n",
        ),
    ];
    for (f, text) in files {
        std::fs::write(src.join(f), text).unwrap();
    }
    let toy = |args: &[&str]| {
        let o = Command::new("python3")
            .arg(&script)
            .arg("--root")
            .arg(tree.path())
            .args(args)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, out) = toy(&["toy"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("cycle: a, b, room::inner"), "{out}");
    // With `b` using nothing: no cycle, and the commented path is no edge.
    std::fs::write(src.join("b.rs"), "pub struct B;\n").unwrap();
    let (code, out) = toy(&["toy"]);
    assert_eq!(
        (code, out.trim()),
        (Some(0), "toy: 4 modules, 2 edges, 0 cycles")
    );
}
