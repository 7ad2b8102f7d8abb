//! `relations`: the recorded sessions re-judged, under the recorded policy and variants of it,
//! and the metamorphic follow-ups re-judged.

use crate::cli::RelationsArgs;
use crate::inputs::{code, print_tables, usage};
use anyhow::Result;
use morphtrace_analyzer::dbdb::rejudge;
use morphtrace_analyzer::load;
use morphtrace_analyzer::metamorphic;
use morphtrace_judges::dbdb::ComparisonPolicy;
use std::process::ExitCode;

pub(crate) fn relations(a: RelationsArgs) -> Result<ExitCode> {
    let RelationsArgs {
        archives,
        policies,
        format,
        top,
    } = a;
    let mut unreadable = false;
    let (readers, bad) = load::open_all(&load::expand(&archives)?);
    for b in &bad {
        eprintln!("morphtrace-analyze: {b}");
        unreadable = true;
    }
    if readers.is_empty() {
        anyhow::bail!("no archive could be read");
    }
    let base = readers
        .first()
        .map(|(_, r)| ComparisonPolicy::from_params(&r.header().campaign.params))
        .unwrap_or_default();
    let mut extra = Vec::new();
    for spec in &policies {
        extra.push(parse_policy(spec, &base)?);
    }
    let r = rejudge::rejudge(&readers, &extra);
    for s in r.inconsistent.iter().take(10) {
        eprintln!("morphtrace-analyze: re-judging under the recorded policy disagrees with the recording: {s}");
    }
    let m = metamorphic::rejudge(&readers);
    for f in m.follow_ups.iter().filter(|f| !f.agrees()).take(10) {
        eprintln!(
            "morphtrace-analyze: {}: follow-up {} re-judged differently: recorded {:?}, now {:?}{}",
            f.archive,
            f.session,
            f.recorded,
            f.again,
            f.message
                .as_ref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        );
    }
    let mut tables = Vec::new();
    if r.sessions > 0 || m.follow_ups.is_empty() {
        tables.extend(rejudge::tables(&r, top)?);
    }
    if !m.follow_ups.is_empty() {
        tables.push(metamorphic::table(&m));
    }
    print_tables(&tables, format);
    Ok(code(unreadable))
}

/// `NAME=key=value,...` as a variant of `base` (the recorded policy).
pub(crate) fn parse_policy(spec: &str, base: &ComparisonPolicy) -> Result<rejudge::PolicyVariant> {
    let (name, settings) = spec
        .split_once('=')
        .ok_or_else(|| usage(format!("--policy {spec:?}: expected NAME=key=value,...")))?;
    let mut policy = base.clone();
    for kv in settings.split(',') {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| usage(format!("--policy {spec:?}: {kv:?} is not key=value")))?;
        let v: bool = v
            .parse()
            .map_err(|_| usage(format!("--policy {spec:?}: {v:?} is not true or false")))?;
        if !policy.set(k, v) {
            return Err(usage(format!(
                "--policy {spec:?}: unknown key {k:?} ({})",
                ComparisonPolicy::KEYS.join(", ")
            )));
        }
    }
    Ok(rejudge::PolicyVariant {
        name: name.to_string(),
        policy,
    })
}
