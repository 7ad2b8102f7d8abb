//! The modern relations through full chains on Node and Firefox.

#[allow(unused_imports)]
use super::*;
#[allow(unused_imports)]
use crate::{campaigns::*, chains::*, follow_ups::*, planted::*};

/// The modern relations that apply on an engine: Firefox's protocol cannot continue to a
/// location, so there is nothing to transform there.
pub(crate) fn relations(kind: &str) -> Vec<mm::Transformation> {
    mm::Transformation::MODERN
        .iter()
        .copied()
        .filter(|t| kind != "firefox" || *t != mm::Transformation::ContinueAsBreakpoint)
        .collect()
}

/// The modern relations, each alone through three rounds over generated programs (whose
/// sessions evaluate, set conditions and variables, continue to lines and pause on exceptions
/// themselves), on Node and Firefox:
/// every relation judges follow-ups, and none warns on a correct debugger.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_relations_run_full_chains_without_warnings() {
    let programs = corpus::load_specs(&["gen:1..3".to_string()], &dir()).unwrap();
    // A step into a function without side effects, a set at a breakpoint's pause on a statement
    // that starts its line: rarer, so more programs for those two relations. The restart, the
    // rarest, over all 37 (6 follow-ups judged on Firefox); the set, with parents that carry it
    // (`metamorphic::carrying`: a set at the first breakpoint pause), over the first 6.
    let wide = corpus::load_specs(&["gen:4..40".to_string()], &dir()).unwrap();
    let random = RandomParams {
        evaluate_weight: 0.5,
        condition_weight: 0.3,
        // Uncaught ones: what pausing on all of them must include.
        exceptions: Some(morphtrace_recorder::task::ExceptionChoice::Fixed(
            morphtrace_schema::ExceptionPause::Uncaught,
        )),
        ..RandomParams::default()
    };
    let run = |kind: &'static str| {
        let programs = programs.clone();
        let wide = wide.clone();
        let random = random.clone();
        async move {
            let mut e = engine(kind).await;
            let mut judged: BTreeMap<&str, usize> = BTreeMap::new();
            let mut warnings = Vec::new();
            for t in relations(kind) {
                let programs = match t {
                    mm::Transformation::RestartAsReentry => &wide[..],
                    mm::Transformation::SetAsCode => &wide[..6],
                    _ => &programs[..],
                };
                for p in programs {
                    for seed in 1..=2 {
                        // The two relations over actions of their own get parents that
                        // carry them, as a campaign that asks for them does.
                        let random = match t {
                            mm::Transformation::SetAsCode
                            | mm::Transformation::ContinueAsBreakpoint => {
                                metamorphic::carrying(&random, &[t])
                            }
                            // DBDB's four actions: steps into functions, and on within them.
                            mm::Transformation::RestartAsReentry => RandomParams::default(),
                            _ => random.clone(),
                        };
                        let mut params = ChainParams::random(seed, 3, random);
                        params.transformations = vec![t];
                        let c = chain_judged(&mut e, p, &params).await;
                        for s in &c.sessions[1..] {
                            if matches!(s.outcome.name(), "finished" | "action-limit" | "violated")
                            {
                                *judged.entry(t.name()).or_default() += 1;
                            } else {
                                eprintln!("{kind} {t}: {:?}", s.outcome);
                            }
                            warnings.extend(s.warnings.iter().map(|w| {
                                (
                                    p.program.origin.name(),
                                    seed,
                                    w.relation.clone(),
                                    w.message.clone(),
                                )
                            }));
                        }
                    }
                }
            }
            e.shutdown().await;
            (judged, warnings)
        }
    };
    let (a, b) = tokio::join!(run("node"), run("firefox"));
    for (kind, (judged, warnings)) in [("node", a), ("firefox", b)] {
        eprintln!("{kind}: judged {judged:?}");
        for t in relations(kind) {
            assert!(
                judged.get(t.name()).copied().unwrap_or(0) >= 3,
                "{kind}: {t} judged {:?}",
                judged.get(t.name())
            );
        }
        assert!(warnings.is_empty(), "{kind}: {warnings:#?}");
    }
}
