//! Programs made deterministic without touching their text (issue 23): a prelude script, run
//! before the program in the same realm and blackboxed, seeds `Math.random` and
//! `crypto.getRandomValues`/`randomUUID` and puts `Date`, `Date.now`, `performance.now` and
//! `process.hrtime` on a clock that advances 1 ms per reading. The program's positions, and so
//! its breakpoints and pauses, are those of its own file.

/// The prelude's source.
pub const PRELUDE: &str = include_str!("determinism.js");

/// The URL the prelude runs under (blackboxed by this name).
pub const URL: &str = "morphtrace-determinism.js";

/// CDP's blackbox pattern for [`URL`].
pub const BLACKBOX_PATTERN: &str = r"morphtrace-determinism\.js$";

/// What an engine descriptor records when the prelude is on.
pub const DESCRIPTION: &str = "prelude morphtrace-determinism.js (blackboxed): Math.random and \
     crypto.getRandomValues/randomUUID from mulberry32 seeded 0x6d6f7270; Date, Date.now, \
     performance.now and process.hrtime on a clock from 2020-01-01T00:00:00Z advancing 1 ms per \
     reading";

/// The prelude named by its URL, ready for `Runtime.evaluate`.
pub fn script() -> String {
    format!("{PRELUDE}\n//# sourceURL={URL}\n")
}

/// What a Python engine's descriptor records when its prelude is on (the engine's
/// sitecustomize, `engines/python-site.py`).
pub const PYTHON_DESCRIPTION: &str = "sitecustomize (library code, never stepped into): random \
     seeded 0x6d6f7270; time.time, time_ns, monotonic, perf_counter and process_time (and their \
     _ns forms) on a clock from 2020-01-01T00:00:00Z advancing 1 ms per reading by the program; \
     PYTHONHASHSEED=0";

/// [`detail`] for a Python engine.
pub fn python_detail(on: bool) -> (String, String) {
    (
        "determinism".into(),
        if on {
            PYTHON_DESCRIPTION.into()
        } else {
            "off (--no-prelude): programs run on the interpreter's own clock and random source \
             (PYTHONHASHSEED=0 still)"
                .into()
        },
    )
}

/// The `details` entry an engine descriptor carries: which was done to make programs
/// deterministic.
pub fn detail(on: bool) -> (String, String) {
    (
        "determinism".into(),
        if on {
            DESCRIPTION.into()
        } else {
            "off (--no-prelude): programs run on the engine's own clock and random source; \
             violations are confirmed by a replay"
                .into()
        },
    )
}
