//! `report`: one self-contained HTML page (no scripts, no external files) with the tables and
//! SVG plots drawn by plotters: cumulative outcomes by number of actions (DBDB Figure 7), class
//! sizes, and cumulative warnings per round (ISSTA 2019 Figure 15).

use crate::load::Archives;
use crate::render::esc;
use crate::render::Table;
use plotters::prelude::*;
use std::fmt::Write as _;

const PALETTE: [RGBColor; 10] = [
    RGBColor(76, 175, 80),   // program finished: green, as in DBDB Figure 7
    RGBColor(33, 150, 243),  // breakpoint-location
    RGBColor(255, 152, 0),   // breakpoint-removal
    RGBColor(129, 212, 250), // termination: light blue
    RGBColor(13, 71, 161),   // pause-location: dark blue
    RGBColor(156, 39, 176),  // call-stack
    RGBColor(233, 30, 99),   // variables
    RGBColor(121, 85, 72),
    RGBColor(96, 125, 139),
    RGBColor(205, 220, 57),
];

fn plot_err<E: std::error::Error>(e: E) -> String {
    format!("plot failed: {e}")
}

/// Stacked bars of DBDB Figure 7 from its table (x, one column per result, completed, share).
pub fn figure7_svg(t: &Table) -> Result<String, String> {
    let cats = &t.columns[1..t.columns.len().saturating_sub(2)];
    let rows: Vec<(f64, Vec<f64>)> = t
        .rows
        .iter()
        .map(|r| {
            let x = r[0].parse::<f64>().unwrap_or(0.0);
            let v = r[1..=cats.len()]
                .iter()
                .map(|c| c.parse::<f64>().unwrap_or(0.0))
                .collect();
            (x, v)
        })
        .collect();
    let max_y = rows
        .iter()
        .map(|(_, v)| v.iter().sum::<f64>())
        .fold(1.0, f64::max);
    let max_x = rows.iter().map(|(x, _)| *x).fold(0.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Completed runs per maximum number of execution actions",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..max_x + 0.5, 0f64..max_y * 1.05)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("execution actions (x)")
            .y_desc("completed runs (cumulative)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .disable_x_mesh()
            .draw()
            .map_err(plot_err)?;
        for (ci, cat) in cats.iter().enumerate() {
            let color = PALETTE[ci % PALETTE.len()];
            let bars: Vec<Rectangle<(f64, f64)>> = rows
                .iter()
                .map(|(x, v)| {
                    let base: f64 = v[..ci].iter().sum();
                    Rectangle::new([(x - 0.4, base), (x + 0.4, base + v[ci])], color.filled())
                })
                .collect();
            chart
                .draw_series(bars)
                .map_err(plot_err)?
                .label(cat.as_str())
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// Members of each class per version (the table `versions_classes`): one line per class, the
/// largest eight, versions along the x axis in the table's order.
pub fn versions_svg(t: &Table) -> Result<String, String> {
    // Columns: class, one per version, then first, last, gaps.
    let versions = &t.columns[1..t.columns.len().saturating_sub(3)];
    let mut lines: Vec<(String, Vec<f64>)> = t
        .rows
        .iter()
        .map(|r| {
            let v = r[1..=versions.len()]
                .iter()
                .map(|c| c.parse::<f64>().unwrap_or(0.0))
                .collect();
            (r[0].clone(), v)
        })
        .collect();
    lines.sort_by(|a, b| {
        let s = |v: &[f64]| v.iter().sum::<f64>();
        s(&b.1).total_cmp(&s(&a.1))
    });
    lines.truncate(8);
    let max_y = lines
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .fold(1.0, f64::max);
    let n = versions.len().max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Divergence classes across versions (members)",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(70)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.3f64..(n as f64 - 0.7), 0f64..max_y * 1.1)
            .map_err(plot_err)?;
        let names: Vec<String> = versions.to_vec();
        chart
            .configure_mesh()
            .x_labels(n)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_desc("members")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .disable_x_mesh()
            .draw()
            .map_err(plot_err)?;
        for (ci, (name, v)) in lines.iter().enumerate() {
            let color = PALETTE[ci % PALETTE.len()];
            let pts: Vec<(f64, f64)> = v.iter().enumerate().map(|(i, y)| (i as f64, *y)).collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                .map_err(plot_err)?
                .label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], color));
            chart
                .draw_series(pts.iter().map(|p| Circle::new(*p, 3, color.filled())))
                .map_err(plot_err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// A page of tables (with the versions plot before `versions_classes`): `versions --html`.
pub fn tables_page(title: &str, intro: &str, tables: &[Table]) -> String {
    let mut body = format!("<h1>{}</h1>\n<p>{}</p>\n", esc(title), esc(intro));
    body.push_str(&contents(tables));
    for t in tables {
        let plot =
            (t.name == "versions_classes" && !t.rows.is_empty()).then(|| match versions_svg(t) {
                Ok(svg) => format!("<figure>{svg}</figure>\n"),
                Err(e) => format!("<p class=\"note\">{}</p>\n", esc(&e)),
            });
        body.push_str(&html_table(t, plot));
    }
    page(&body)
}

/// Bars of class sizes by rank (the table beside it names the classes).
pub fn classes_svg(sizes: &[f64], title: &str) -> Result<String, String> {
    let max_y = sizes.iter().copied().fold(1.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5f64..sizes.len() as f64 + 0.5, 0f64..max_y * 1.05)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("class rank")
            .y_desc("members")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .disable_x_mesh()
            .draw()
            .map_err(plot_err)?;
        chart
            .draw_series(sizes.iter().enumerate().map(|(i, s)| {
                let x = i as f64 + 1.0;
                Rectangle::new([(x - 0.4, 0.0), (x + 0.4, *s)], PALETTE[4].filled())
            }))
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// A line of cumulative warnings per round (ISSTA 2019 Figure 15).
pub fn rounds_svg(points: &[(f64, f64)]) -> Result<String, String> {
    let max_x = points.iter().map(|p| p.0).fold(1.0, f64::max);
    let max_y = points.iter().map(|p| p.1).fold(1.0, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Cumulative warnings per transformation round",
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0f64..max_x + 0.5, 0f64..max_y * 1.1)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .x_desc("round")
            .y_desc("warnings (cumulative)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(plot_err)?;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                PALETTE[4].stroke_width(2),
            ))
            .map_err(plot_err)?;
        chart
            .draw_series(
                points
                    .iter()
                    .map(|p| Circle::new(*p, 4, PALETTE[4].filled())),
            )
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// A cell as HTML: a web address or a path to a file of this machine (evidence, a finding's
/// bundle) as a link, anything else as text.
fn cell(c: &str) -> String {
    if c.starts_with("https://") || c.starts_with("http://") {
        return format!("<a href=\"{0}\">{0}</a>", esc(c));
    }
    let path = std::path::Path::new(c);
    if !c.contains(' ') && (c.contains('/') || c.contains('.')) && path.exists() {
        if let Ok(abs) = path.canonicalize() {
            return format!(
                "<a href=\"file://{}\">{}</a>",
                esc(&abs.display().to_string()),
                esc(c)
            );
        }
    }
    esc(c)
}

/// A text with its web addresses and the paths of this machine's files in it (a rule's
/// evidence, a finding's bundle) as links.
fn linked(text: &str) -> String {
    let mut out = String::new();
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // Punctuation around a word is not part of the address.
        let core = word.trim_matches(|c: char| "().,;:`'\"".contains(c));
        let linked = cell(core);
        if !core.is_empty() && linked.starts_with("<a ") {
            let at = word.find(core).unwrap_or(0);
            out.push_str(&esc(&word[..at]));
            out.push_str(&linked);
            out.push_str(&esc(&word[at + core.len()..]));
        } else {
            out.push_str(&esc(word));
        }
    }
    out
}

/// One table under its heading (its plot, if any, between them): columns empty in every row
/// left out; a `note` column's texts, each long and repeated on every row of its rule, listed
/// once under the table and referred to by number.
fn html_table(t: &Table, plot: Option<String>) -> String {
    let mut s = format!("<h3 id=\"{}\">{}</h3>\n", esc(&t.name), esc(&t.title));
    if let Some(p) = plot {
        s.push_str(&p);
    }
    let shown: Vec<usize> = (0..t.columns.len())
        .filter(|&i| {
            t.rows.is_empty()
                || t.rows
                    .iter()
                    .any(|r| r.get(i).is_some_and(|c| !c.is_empty()))
        })
        .collect();
    let note_column = t
        .columns
        .iter()
        .position(|c| c.eq_ignore_ascii_case("note"));
    let mut notes: Vec<&str> = Vec::new();
    s.push_str("<table>\n<thead><tr>");
    for &i in &shown {
        let _ = write!(s, "<th>{}</th>", esc(&t.columns[i]));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for r in &t.rows {
        s.push_str("<tr>");
        for &i in &shown {
            let c = r.get(i).map(String::as_str).unwrap_or_default();
            if Some(i) == note_column && !c.is_empty() {
                let n = match notes.iter().position(|x| *x == c) {
                    Some(n) => n,
                    None => {
                        notes.push(c);
                        notes.len() - 1
                    }
                };
                let _ = write!(
                    s,
                    "<td><a href=\"#{}-note-{}\">note {}</a></td>",
                    esc(&t.name),
                    n + 1,
                    n + 1
                );
                continue;
            }
            let num = !c.is_empty() && c.trim_end_matches('%').parse::<f64>().is_ok();
            let _ = write!(
                s,
                "<td{}>{}</td>",
                if num { " class=\"n\"" } else { "" },
                cell(c)
            );
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    if t.rows.is_empty() {
        s.push_str("<p class=\"note\">(no rows)</p>\n");
    }
    if !notes.is_empty() {
        s.push_str("<ol class=\"note\">\n");
        for (n, text) in notes.iter().enumerate() {
            let _ = writeln!(
                s,
                "<li id=\"{}-note-{}\">{}</li>",
                esc(&t.name),
                n + 1,
                linked(text)
            );
        }
        s.push_str("</ol>\n");
    }
    if let Some(n) = &t.note {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
    }
    s
}

/// Links to every table of the page, in order.
fn contents(tables: &[Table]) -> String {
    let mut s = String::from("<nav><h2>Contents</h2>\n<ol>\n");
    for t in tables {
        let _ = writeln!(
            s,
            "<li><a href=\"#{}\">{}</a></li>",
            esc(&t.name),
            esc(&t.title)
        );
    }
    s.push_str("</ol></nav>\n");
    s
}

/// The page: sources, a table of contents, then each table under its heading, with the plot of
/// the tables it draws between the heading and the table.
pub fn render(d: &Archives, tables: &[Table]) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>morphtrace report</h1>");
    let _ = writeln!(
        body,
        "<p>{} archive(s), {} sessions, {} events.</p>\n<table><thead><tr><th>archive</th><th>campaign</th><th>strategy</th><th>engines</th><th>sessions</th><th>integrity</th></tr></thead><tbody>",
        d.sources.len(),
        d.frames.sessions.height(),
        d.events
    );
    for s in &d.sources {
        let integrity = if s.is_damaged() {
            format!(
                "recovered: {} bytes dropped, {} undecodable session(s)",
                s.recovery.dropped_bytes(),
                s.undecodable.len()
            )
        } else {
            "intact".into()
        };
        let engines: Vec<String> = s.header.engines.iter().map(|e| e.label()).collect();
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            esc(&s.path),
            esc(&s.header.campaign.name),
            esc(&s.header.campaign.strategy),
            esc(&engines.join(" vs ")),
            s.sessions,
            esc(&integrity)
        );
    }
    body.push_str("</tbody></table>\n");
    for u in &d.unreadable {
        let _ = writeln!(body, "<p class=\"note\">unreadable: {}</p>", esc(u));
    }
    let plot = |r: Result<String, String>| match r {
        Ok(svg) => format!("<figure>{svg}</figure>\n"),
        Err(e) => format!("<p class=\"note\">{}</p>\n", esc(&e)),
    };
    body.push_str(&contents(tables));
    for t in tables {
        let figure = match t.name.as_str() {
            "figure7" if !t.rows.is_empty() => Some(plot(figure7_svg(t))),
            "table2" if !t.rows.is_empty() => {
                let sizes: Vec<f64> = t.rows.iter().map(|r| r[3].parse().unwrap_or(0.0)).collect();
                Some(plot(classes_svg(
                    &sizes,
                    "Sizes of the largest equivalence classes",
                )))
            }
            "figure15" if !t.rows.is_empty() => {
                let pts: Vec<(f64, f64)> = t
                    .rows
                    .iter()
                    .map(|r| (r[0].parse().unwrap_or(0.0), r[2].parse().unwrap_or(0.0)))
                    .collect();
                Some(plot(rounds_svg(&pts)))
            }
            _ => None,
        };
        body.push_str(&html_table(t, figure));
    }
    page(&body)
}

fn page(body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>morphtrace report</title>\n<style>\
         body{{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}}\
         table{{border-collapse:collapse;margin:.5em 0 1.5em}}\
         th,td{{border:1px solid #ccc;padding:3px 8px;text-align:left}}\
         td.n{{text-align:right;font-variant-numeric:tabular-nums}}\
         th{{background:#f3f3f3}} .note{{color:#555;font-size:90%}} figure{{margin:1em 0}}\
         </style></head>\n<body>\n{body}</body></html>\n"
    )
}
