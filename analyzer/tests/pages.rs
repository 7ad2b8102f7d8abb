//! The HTML pages as a reader sees them: the findings index, the report and the version matrix
//! opened in Chromium through WebDriver (fantoccini, driving Debian's chromedriver). Each check
//! asserts on the rendered page — elements displayed, where they stand — and each is shown to
//! fail on a copy of its page that lost what it asserts, so a check that passes is a page that
//! shows it.

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn analyze(args: &[&str]) {
    let o = Command::new(env!("CARGO_BIN_EXE_morphtrace-analyze"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "morphtrace-analyze {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// chromedriver on a loopback port of its own, with a fresh Chromium profile; killed on drop.
struct Driver {
    child: Child,
    port: u16,
    profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start() -> Driver {
        // A port the kernel just gave out, released for chromedriver (it listens on loopback
        // only unless told otherwise).
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver; scripts/setup.sh installs it)");
        Driver {
            child,
            port,
            profile: tempfile::tempdir().unwrap(),
        }
    }

    async fn client(&self) -> Client {
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({"args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                format!("--user-data-dir={}", self.profile.path().display()),
            ]}),
        );
        let url = format!("http://127.0.0.1:{}", self.port);
        let t0 = Instant::now();
        loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(c) => return c,
                Err(e) if t0.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("no WebDriver session on {url}: {e}"),
            }
        }
    }
}

type Check = Result<(), String>;

fn fail<T>(why: impl Into<String>) -> Result<T, String> {
    Err(why.into())
}

async fn displayed(e: &Element) -> Result<bool, String> {
    e.is_displayed().await.map_err(|e| e.to_string())
}

async fn rect(e: &Element) -> Result<(f64, f64, f64, f64), String> {
    e.rectangle().await.map_err(|e| e.to_string())
}

async fn all(c: &Client, xpath: &str) -> Result<Vec<Element>, String> {
    c.find_all(Locator::XPath(xpath))
        .await
        .map_err(|e| format!("{xpath}: {e}"))
}

async fn text(e: &Element) -> Result<String, String> {
    e.text().await.map_err(|e| e.to_string())
}

/// Cells that stand in one row, left to right, each wide enough to read.
async fn side_by_side(cells: &[Element], what: &str) -> Check {
    let mut last: Option<(f64, f64, f64, f64)> = None;
    for c in cells {
        if !displayed(c).await? {
            return fail(format!("{what}: a column is not displayed"));
        }
        let r = rect(c).await?;
        if r.2 < 30.0 {
            return fail(format!("{what}: a column is {} px wide", r.2));
        }
        if let Some(l) = last {
            if (r.1 - l.1).abs() > 2.0 || r.0 < l.0 + l.2 - 1.0 {
                return fail(format!(
                    "{what}: columns not side by side ({l:?} then {r:?})"
                ));
            }
        }
        last = Some(r);
    }
    Ok(())
}

/// The findings index: every bundle's section; for each debugger finding, one pause column per
/// engine, side by side, next to the program; the diverging step marked and a differing
/// variable marked, both displayed.
async fn check_findings(c: &Client, url: &str, bundles: &[(String, bool)]) -> Check {
    c.goto(url).await.map_err(|e| e.to_string())?;
    let mut debugger = 0;
    for (name, is_debugger) in bundles {
        let h = c
            .find(Locator::Id(name))
            .await
            .map_err(|_| format!("no section {name}"))?;
        if !displayed(&h).await? {
            return fail(format!("section {name} is not displayed"));
        }
        if !is_debugger {
            continue;
        }
        debugger += 1;
        let header = format!("//h2[@id='{name}']/following-sibling::table[1]//tr[1]/th");
        let cells = all(c, &header).await?;
        let mut pauses = Vec::new();
        let mut program = None;
        for cell in cells {
            let t = text(&cell).await?;
            if t.contains("pauses") {
                pauses.push(cell);
            } else if t == "program" {
                program = Some(cell);
            }
        }
        if pauses.len() < 2 {
            return fail(format!("{name}: {} engine pause columns", pauses.len()));
        }
        let Some(program) = program else {
            return fail(format!("{name}: no program column"));
        };
        let mut row = vec![program];
        row.extend(pauses);
        side_by_side(&row, name).await?;
    }
    if debugger == 0 {
        return fail("no debugger finding to look at");
    }
    for (css, what) in [
        (".mark.at", "the diverging step's mark"),
        ("td.diff", "a differing variable"),
    ] {
        let marks = c
            .find_all(Locator::Css(css))
            .await
            .map_err(|e| e.to_string())?;
        let mut shown = false;
        for m in &marks {
            shown |= displayed(m).await?;
        }
        if !shown {
            return fail(format!("{what} ({css}) is not displayed"));
        }
    }
    Ok(())
}

/// The rows of the table after heading `id`, as the reader sees their cells' text.
async fn table_rows(c: &Client, id: &str) -> Result<(Vec<String>, Vec<Vec<String>>), String> {
    let h = c
        .find(Locator::Id(id))
        .await
        .map_err(|_| format!("no table {id}"))?;
    if !displayed(&h).await? {
        return fail(format!("{id} is not displayed"));
    }
    let mut header = Vec::new();
    for th in all(
        c,
        &format!("//h3[@id='{id}']/following-sibling::table[1]//th"),
    )
    .await?
    {
        if !displayed(&th).await? {
            return fail(format!("{id}: a column header is not displayed"));
        }
        header.push(text(&th).await?);
    }
    let mut rows = Vec::new();
    let rows_at = format!("//h3[@id='{id}']/following-sibling::table[1]/tbody/tr");
    for tr in all(c, &rows_at).await? {
        let mut row = Vec::new();
        for td in tr
            .find_all(Locator::XPath("td"))
            .await
            .map_err(|e| e.to_string())?
        {
            row.push(text(&td).await?);
        }
        rows.push(row);
    }
    Ok((header, rows))
}

async fn a_plot_is_shown(c: &Client) -> Check {
    for svg in c
        .find_all(Locator::Css("svg"))
        .await
        .map_err(|e| e.to_string())?
    {
        if displayed(&svg).await? && rect(&svg).await?.2 > 300.0 {
            return Ok(());
        }
    }
    fail("no plot displayed")
}

/// The report: the classes by verdict — a table of new classes, all `new`, and one of triaged
/// classes, none `new` — and a plot.
async fn check_report(c: &Client, url: &str) -> Check {
    c.goto(url).await.map_err(|e| e.to_string())?;
    for (id, new) in [
        ("divergence_classes_new", true),
        ("divergence_classes_triaged", false),
    ] {
        let (header, rows) = table_rows(c, id).await?;
        let Some(v) = header.iter().position(|h| h == "Verdict") else {
            return fail(format!("{id}: no Verdict column in {header:?}"));
        };
        if rows.is_empty() {
            return fail(format!("{id}: no classes shown"));
        }
        for r in &rows {
            let verdict = r.get(v).map(String::as_str).unwrap_or("");
            if (verdict == "new") != new || verdict.is_empty() {
                return fail(format!("{id}: a class with verdict {verdict:?}"));
            }
        }
    }
    a_plot_is_shown(c).await
}

/// The version matrix: the classes × versions table with one column per version, in version
/// order left to right, and its plot.
async fn check_versions(c: &Client, url: &str, versions: &[String]) -> Check {
    c.goto(url).await.map_err(|e| e.to_string())?;
    let (header, rows) = table_rows(c, "versions_classes").await?;
    if rows.is_empty() {
        return fail("versions_classes: no classes shown");
    }
    let shown: Vec<&String> = header.iter().filter(|h| versions.contains(h)).collect();
    if shown.len() != versions.len() {
        return fail(format!("versions shown {shown:?}, of {versions:?}"));
    }
    let cells = all(
        c,
        "//h3[@id='versions_classes']/following-sibling::table[1]//th",
    )
    .await?;
    let mut in_order = Vec::new();
    for (cell, h) in cells.into_iter().zip(&header) {
        if versions.contains(h) {
            in_order.push(cell);
        }
    }
    side_by_side(&in_order, "versions_classes").await?;
    a_plot_is_shown(c).await
}

/// A copy of `page` with `from` replaced by `to` (which must occur), beside it.
fn spoiled(page: &Path, name: &str, from: &str, to: &str) -> String {
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.contains(from), "{from:?} is not in {}", page.display());
    let out = page.with_file_name(name);
    std::fs::write(&out, html.replacen(from, to, usize::MAX)).unwrap();
    format!("file://{}", out.display())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn the_html_pages_show_what_a_reader_must_see_in_a_real_browser() {
    let dir = tempfile::tempdir().unwrap();
    let p = |x: &Path| x.display().to_string();
    // The findings index of the repository's bundles.
    let findings = dir.path().join("findings");
    copy_dir(&root().join("traces/findings"), &findings);
    let mut bundles = Vec::new();
    for e in std::fs::read_dir(&findings).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            // A debugger bundle replays actions; a coverage bundle has none.
            let debugger = e.path().join("actions.json").is_file();
            bundles.push((e.file_name().to_string_lossy().to_string(), debugger));
        }
    }
    bundles.sort();
    assert!(bundles.iter().filter(|b| b.1).count() >= 2, "{bundles:?}");
    analyze(&["findings", "--index-only", "--out", &p(&findings)]);
    let index = findings.join("index.html");
    // The report of a differential campaign, classes judged by the repository's triage.
    let report = dir.path().join("report.html");
    let archive = root().join("traces/differential-chromium-firefox-dbdb.mtrace");
    analyze(&["report", &p(&archive), "--out", &p(&report)]);
    // The version matrix of the repository's Chromium versions.
    let matrix = root().join("traces/versions-chromium-node-dbdb");
    let versions_page = dir.path().join("versions.html");
    analyze(&["versions", &p(&matrix), "--html", &p(&versions_page)]);
    // The versions the page names (its matrix's columns between the class and first, last,
    // gaps), one per archive of the matrix.
    let html = std::fs::read_to_string(&versions_page).unwrap();
    let table = html.split("<h3 id=\"versions_classes\">").nth(1).unwrap();
    let header = table.split("</tr>").next().unwrap();
    let columns: Vec<String> = header
        .split("<th>")
        .skip(1)
        .map(|c| c.split("</th>").next().unwrap().to_string())
        .collect();
    let versions = columns[1..columns.len() - 3].to_vec();
    let archives = std::fs::read_dir(&matrix).unwrap().count();
    assert_eq!(versions.len(), archives, "{columns:?}");

    let file = |x: &Path| format!("file://{}", x.display());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let driver = Driver::start();
    rt.block_on(async {
        let c = driver.client().await;
        let outcome = async {
            // Each page shows what it must.
            check_findings(&c, &file(&index), &bundles).await?;
            check_report(&c, &file(&report)).await?;
            check_versions(&c, &file(&versions_page), &versions).await?;
            // Each check fails on a page that lost it.
            let lost = [
                (
                    check_findings(
                        &c,
                        &spoiled(
                            &index,
                            "no-mark.html",
                            "class=\"mark at\"",
                            "class=\"mark\"",
                        ),
                        &bundles,
                    )
                    .await,
                    "the diverging step unmarked",
                ),
                (
                    check_findings(
                        &c,
                        &spoiled(
                            &index,
                            "stacked.html",
                            "</style>",
                            "th{display:block}</style>",
                        ),
                        &bundles,
                    )
                    .await,
                    "pause columns stacked",
                ),
                (
                    check_report(
                        &c,
                        &spoiled(
                            &report,
                            "no-plot.html",
                            "</style>",
                            "svg{display:none}</style>",
                        ),
                    )
                    .await,
                    "plots hidden",
                ),
                (
                    check_report(
                        &c,
                        &spoiled(
                            &report,
                            "all-new.html",
                            "<td>by design</td>",
                            "<td>new</td>",
                        ),
                    )
                    .await,
                    "triaged classes shown as new",
                ),
                (
                    check_versions(
                        &c,
                        &spoiled(
                            &versions_page,
                            "hidden-version.html",
                            "</style>",
                            "th:nth-child(3){display:none}</style>",
                        ),
                        &versions,
                    )
                    .await,
                    "a version's column hidden",
                ),
            ];
            for (r, what) in lost {
                if r.is_ok() {
                    return fail(format!("a check passed on a page with {what}"));
                }
            }
            Ok::<(), String>(())
        }
        .await;
        let _ = c.close().await;
        if let Err(e) = outcome {
            panic!("{e}");
        }
    });
}
