//! The one campaign runner (random, differential, metamorphic and replay campaigns, coverage
//! campaigns, GenMorph recordings): it owns the archive (opened new, or resumed only with the
//! engines it was recorded with), the task queue, the worker threads, Ctrl-C (stop taking tasks,
//! let the ones in flight finish, close the archive), the progress bar and the summary. What one
//! task records is the strategy's: a [`Work`].

use crate::tally::{counts, Tally};
use morphtrace_schema::archive::{ArchiveError, ResumeInfo, WriterOptions};
use morphtrace_schema::{ArchiveHeader, ArchiveWriter, EngineDescriptor, Session, Shard};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Set by the first SIGINT of the process (a second one kills as usual).
#[derive(Clone)]
pub struct Interrupt(Arc<AtomicBool>);

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

extern "C" fn on_sigint(_: libc::c_int) {
    if let Some(s) = FLAG.get() {
        s.store(true, Ordering::SeqCst);
    }
    // SAFETY: restoring the default disposition is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

impl Interrupt {
    /// The process's flag, with the handler installed on first use. Works alike for worker
    /// threads and async tasks: the handler only stores to an atomic.
    pub fn install() -> Interrupt {
        let mut first = false;
        let flag = FLAG.get_or_init(|| {
            first = true;
            Arc::new(AtomicBool::new(false))
        });
        if first {
            // SAFETY: the handler only stores to an atomic and resets the disposition.
            unsafe {
                libc::signal(
                    libc::SIGINT,
                    on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t,
                );
            }
        }
        Interrupt(flag.clone())
    }

    pub fn requested(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("reopening {path} to resume: {source}")]
    Reopen { path: String, source: ArchiveError },
    #[error(
        "{path} was recorded with other engines ({engines}); resume with the same --engine list"
    )]
    OtherEngines { path: String, engines: String },
    #[error("creating {path} (use --resume to continue it): {source}")]
    Create { path: String, source: ArchiveError },
    #[error(
        "{path} holds {recorded}, not {asked}: resume it with the --shard it was recorded with"
    )]
    OtherShard {
        path: String,
        recorded: String,
        asked: String,
    },
}

/// `shard 2/4` or `the whole campaign`.
fn shard_name(s: Option<Shard>) -> String {
    s.map(|s| format!("shard {s}"))
        .unwrap_or_else(|| "the whole campaign".into())
}

/// The same engine: kind, executable and version (a resumed campaign must not mix versions).
pub fn same_engine(a: &EngineDescriptor, b: &EngineDescriptor) -> bool {
    a.kind == b.kind && a.executable == b.executable && a.version == b.version
}

/// Opens `out`: with `resume` and an existing file, the archive to append to (a torn tail cut),
/// refused unless it was recorded with `header`'s engines; otherwise a new archive with `header`.
/// Returns the writer and, when resuming, what the archive already holds.
pub fn open_archive(
    out: &Path,
    resume: bool,
    header: &ArchiveHeader,
    options: WriterOptions,
) -> Result<(ArchiveWriter, Option<ResumeInfo>), OpenError> {
    let path = out.display().to_string();
    if resume && out.exists() {
        let (w, info) =
            ArchiveWriter::open_append(out, options).map_err(|source| OpenError::Reopen {
                path: path.clone(),
                source,
            })?;
        let recorded = &info.header.engines;
        if recorded.len() != header.engines.len()
            || !recorded
                .iter()
                .zip(&header.engines)
                .all(|(a, b)| same_engine(a, b))
        {
            return Err(OpenError::OtherEngines {
                path,
                engines: recorded
                    .iter()
                    .map(|e| e.label())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
        if info.header.shard != header.shard {
            return Err(OpenError::OtherShard {
                path,
                recorded: shard_name(info.header.shard),
                asked: shard_name(header.shard),
            });
        }
        if info.truncated_bytes > 0 {
            tracing::warn!(
                "cut {} bytes of a torn tail before resuming",
                info.truncated_bytes
            );
        }
        return Ok((w, Some(info)));
    }
    let w = ArchiveWriter::create(out, header, options)
        .map_err(|source| OpenError::Create { path, source })?;
    Ok((w, None))
}

/// Where and how a campaign runs.
#[derive(Debug, Clone)]
pub struct Options {
    pub out: PathBuf,
    /// Continue `out` if it exists: tasks whose key it holds are skipped.
    pub resume: bool,
    pub writer: WriterOptions,
    /// Worker threads, each with its own engines.
    pub jobs: usize,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// Record only this part of the task list (its archive says so in the header).
    pub shard: Option<Shard>,
    /// `cpu::spent_us` when the campaign began (before its first engines launched), from which
    /// the first task written is charged; `None`: from when the runner starts.
    pub cpu_from: Option<u64>,
}

/// What identifies a task's result in an archive, so that a resumed campaign skips it.
pub use morphtrace_schema::TaskKey as Key;

/// What a strategy's summary adds to the runner's, and how its judged work is named.
pub trait Counts: Default + std::fmt::Display {
    /// What the summary's first line counts (`sessions`, `programs`, `functions`).
    fn unit(&self) -> &'static str;
    /// What a judged session is called (`sessions judged`, `test cases judged`, …); `None` when
    /// the work records no sessions (GenMorph's execution frames).
    fn judged(&self) -> Option<&'static str>;
}

/// One kind of campaign: what a task is, what a worker holds (engines, harnesses, a work
/// directory) and what one task records. A task's own failure is what it records (an outcome),
/// never an error: only the archive can end a campaign.
pub trait Work: Sync {
    type Task: Send;
    type Worker;
    type Done: Send;
    type Counts: Counts;
    type Error: From<OpenError> + From<ArchiveError> + std::fmt::Display + Send;

    fn key(&self, task: &Self::Task) -> Key;
    /// The task's expected cost in arbitrary units (program lines × engines × rounds, …), by
    /// which shards are balanced; it must depend on the task alone, never on the machine.
    fn cost(&self, _task: &Self::Task) -> u64 {
        1
    }
    /// The state of worker `index`, made on its thread.
    fn start(&self, index: usize) -> Result<Self::Worker, Self::Error>;
    fn record(&self, worker: &mut Self::Worker, task: Self::Task) -> Self::Done;
    /// Ends a worker (engines shut down) once the queue is empty or Ctrl-C came.
    fn stop(&self, worker: Self::Worker) {
        drop(worker);
    }
    /// Charges a task's sessions with the CPU spent since the previous task was written
    /// (`Session::cpu_us`), before it is written. Strategies without sessions charge nothing.
    fn charge(&self, _done: &mut Self::Done, _cpu_us: u64) {}
    /// Appends what a task recorded (its programs first).
    fn write(&self, done: &Self::Done, writer: &mut ArchiveWriter) -> Result<(), ArchiveError>;
    /// The sessions a task recorded, for the tally.
    fn sessions<'a>(&self, _done: &'a Self::Done) -> &'a [Session] {
        &[]
    }
    /// What the strategy counts beyond the tally.
    fn count(&self, done: &Self::Done, counts: &mut Self::Counts);
}

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Summary<C> {
    /// Tasks that this run recorded.
    pub done: usize,
    /// Tasks already in the archive (resumed).
    pub skipped: usize,
    /// The recorded sessions by verdict.
    pub tally: Tally,
    pub counts: C,
    pub elapsed: Duration,
    /// Ctrl-C stopped the campaign before its queue was empty.
    pub interrupted: bool,
    /// The shard recorded, its tasks, and the whole campaign's.
    pub shard: Option<(Shard, usize, usize)>,
}

impl<C: Counts> std::fmt::Display for Summary<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let unit = self.counts.unit();
        let secs = self.elapsed.as_secs_f64();
        let note = resume_note(self.skipped, self.interrupted);
        if let Some((shard, tasks, total)) = self.shard {
            writeln!(f, "shard {shard}: {tasks} of the campaign's {total} tasks")?;
        }
        match self.counts.judged() {
            Some(what) => {
                writeln!(
                    f,
                    "recorded {} {unit} in {secs:.1} s{note}: {}",
                    self.tally.recorded,
                    self.tally.judged_line(what, self.elapsed)
                )?;
                writeln!(f, "outcomes: {}", counts(&self.tally.outcomes))?;
            }
            None => writeln!(f, "recorded {} {unit} in {secs:.1} s{note}", self.done)?,
        }
        write!(f, "{}", self.counts)
    }
}

/// `, 3 already in the archive — interrupted`: what a summary's first line adds.
pub fn resume_note(skipped: usize, interrupted: bool) -> String {
    let mut s = String::new();
    if skipped > 0 {
        s.push_str(&format!(", {skipped} already in the archive"));
    }
    if interrupted {
        s.push_str(" — interrupted");
    }
    s
}

/// Runs `tasks` on `opts.jobs` worker threads into the archive `opts.out` (written with
/// `header`, or resumed). Every completed task is in the archive when this returns, whatever
/// happened to the others.
pub fn run<W: Work>(
    work: &W,
    header: &ArchiveHeader,
    tasks: Vec<W::Task>,
    opts: &Options,
) -> Result<Summary<W::Counts>, W::Error> {
    let started = Instant::now();
    let cpu_at_start = crate::cpu::spent_us();
    let campaign_tasks = tasks.len();
    let (header, tasks) = match opts.shard {
        None => (header.clone(), tasks),
        Some(shard) => {
            let costs: Vec<u64> = tasks.iter().map(|t| work.cost(t)).collect();
            let parts = crate::shard::partition(&costs, shard.count);
            let mine: Vec<W::Task> = tasks
                .into_iter()
                .zip(parts)
                .filter(|(_, p)| *p == shard.index)
                .map(|(t, _)| t)
                .collect();
            let mut h = header.clone();
            h.shard = Some(shard);
            h.shard_tasks = mine.iter().map(|t| work.key(t)).collect();
            (h, mine)
        }
    };
    let (mut writer, resumed) = open_archive(&opts.out, opts.resume, &header, opts.writer)?;
    let (sessions, subjects) = match resumed {
        Some(ResumeInfo {
            sessions, subjects, ..
        }) => (sessions, subjects),
        None => Default::default(),
    };
    let total = tasks.len();
    let todo: VecDeque<W::Task> = tasks
        .into_iter()
        .filter(|t| match work.key(t) {
            Key::Session(id) => !sessions.contains(&id),
            Key::Subject(name) => !subjects.contains(&name),
        })
        .collect();
    let mut summary = Summary {
        skipped: total - todo.len(),
        shard: opts.shard.map(|s| (s, total, campaign_tasks)),
        ..Summary::default()
    };
    let bar = crate::progress_bar(todo.len(), opts.progress);
    let queue = Mutex::new(todo);
    let stop = Interrupt::install();
    // Set when the archive fails: workers stop taking tasks.
    let abort = AtomicBool::new(false);
    let started_workers = AtomicBool::new(false);
    let failed_starts: Mutex<Vec<W::Error>> = Mutex::new(Vec::new());
    let mut write_error = None;
    // No more workers than tasks: each starts its own engines (a browser's start costs seconds of
    // CPU), and one with no task would only start them and stop them again.
    let workers = opts.jobs.min(total - summary.skipped).max(1);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<W::Done>(16);
        let mut handles = Vec::new();
        for index in 0..workers {
            let tx = tx.clone();
            let (queue, stop, abort) = (&queue, &stop, &abort);
            let (started_workers, failed_starts) = (&started_workers, &failed_starts);
            handles.push(scope.spawn(move || {
                let mut worker = match work.start(index) {
                    Ok(w) => w,
                    Err(e) => {
                        tracing::error!("worker {index} could not start: {e}");
                        if let Ok(mut f) = failed_starts.lock() {
                            f.push(e);
                        }
                        return;
                    }
                };
                started_workers.store(true, Ordering::SeqCst);
                tracing::debug!("worker {index} ready");
                while !stop.requested() && !abort.load(Ordering::SeqCst) {
                    let task = queue.lock().ok().and_then(|mut q| q.pop_front());
                    let Some(task) = task else { break };
                    if tx.send(work.record(&mut worker, task)).is_err() {
                        break;
                    }
                }
                work.stop(worker);
            }));
        }
        drop(tx);
        let mut charged = opts.cpu_from.unwrap_or(cpu_at_start);
        for mut done in rx.iter() {
            let now = crate::cpu::spent_us();
            work.charge(&mut done, now.saturating_sub(charged));
            charged = now;
            if let Err(e) = work.write(&done, &mut writer) {
                abort.store(true, Ordering::SeqCst);
                write_error = Some(e);
                break;
            }
            summary.done += 1;
            for s in work.sessions(&done) {
                summary.tally.add(s);
            }
            work.count(&done, &mut summary.counts);
            bar.inc(1);
            if !summary.tally.outcomes.is_empty() {
                bar.set_message(
                    summary
                        .tally
                        .outcomes
                        .iter()
                        .map(|(k, v)| format!("{k}:{v}"))
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
        // The receiver goes first, so that a worker blocked on a full channel sees it closed.
        drop(rx);
        for h in handles {
            if h.join().is_err() {
                tracing::error!("a worker panicked; the others went on");
            }
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        // What was appended before is durable; the index is rebuilt when the archive is read.
        return Err(e.into());
    }
    writer.finish()?;
    if !started_workers.load(Ordering::SeqCst) {
        if let Some(e) = failed_starts
            .into_inner()
            .ok()
            .and_then(|v| v.into_iter().next())
        {
            return Err(e);
        }
    }
    summary.interrupted = stop.requested();
    summary.elapsed = started.elapsed();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    //! The runner's own behaviour, the same for every strategy: resume, workers that cannot
    //! start or that panic, an archive that refuses a frame. The tasks record plain sessions of
    //! a one-line program (what engines record is tested with the engines, in tests/).
    use super::*;
    use morphtrace_schema::{
        ArchiveReader, CampaignConfig, EngineRef, Language, Program, ProgramOrigin, SessionId,
        SessionMode, SessionOutcome,
    };

    #[derive(Default, Debug)]
    struct Seen(usize);

    impl Counts for Seen {
        fn unit(&self) -> &'static str {
            "sessions"
        }
        fn judged(&self) -> Option<&'static str> {
            Some("sessions complete")
        }
    }

    impl std::fmt::Display for Seen {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            writeln!(f, "seen: {}", self.0)
        }
    }

    /// Task `n` records session `n`; workers listed in `broken` cannot start; task `panic`
    /// panics; with `twice`, every task's session id is the same (the archive refuses the second).
    struct Plain {
        program: Program,
        broken: Vec<usize>,
        panic: Option<u64>,
        twice: bool,
        /// Workers started so far.
        started: std::sync::atomic::AtomicUsize,
    }

    impl Plain {
        fn new() -> Plain {
            Plain {
                program: Program::new(
                    Language::JavaScript,
                    "let x = 1;\n",
                    ProgramOrigin::Generated {
                        generator: "runner test".into(),
                        seed: 0,
                    },
                ),
                broken: vec![],
                panic: None,
                twice: false,
                started: Default::default(),
            }
        }

        fn id(&self, n: u64) -> SessionId {
            SessionId::from_key(&format!("runner test {}", if self.twice { 0 } else { n }))
        }
    }

    impl Work for Plain {
        type Task = u64;
        type Worker = usize;
        type Done = Session;
        type Counts = Seen;
        type Error = OpenOrWrite;

        fn key(&self, n: &u64) -> Key {
            Key::Session(self.id(*n))
        }
        fn start(&self, index: usize) -> Result<usize, OpenOrWrite> {
            if self.broken.contains(&index) {
                return Err(OpenOrWrite(format!("worker {index} is broken")));
            }
            self.started.fetch_add(1, Ordering::SeqCst);
            Ok(index)
        }
        fn record(&self, _: &mut usize, n: u64) -> Session {
            assert!(self.panic != Some(n), "task {n} panics");
            let outcome = if n % 4 == 3 {
                SessionOutcome::Timeout
            } else {
                SessionOutcome::Finished
            };
            Session::new(
                self.id(n),
                SessionMode::Random,
                n,
                vec![EngineRef(0)],
                self.program.hash,
                outcome,
            )
        }
        fn write(&self, s: &Session, w: &mut ArchiveWriter) -> Result<(), ArchiveError> {
            w.add_program(&self.program)?;
            w.append(s)
        }
        fn sessions<'a>(&self, s: &'a Session) -> &'a [Session] {
            std::slice::from_ref(s)
        }
        fn count(&self, _: &Session, c: &mut Seen) {
            c.0 += 1;
        }
    }

    #[derive(Debug)]
    struct OpenOrWrite(String);

    impl std::fmt::Display for OpenOrWrite {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }
    impl From<OpenError> for OpenOrWrite {
        fn from(e: OpenError) -> Self {
            OpenOrWrite(e.to_string())
        }
    }
    impl From<ArchiveError> for OpenOrWrite {
        fn from(e: ArchiveError) -> Self {
            OpenOrWrite(e.to_string())
        }
    }

    fn header() -> ArchiveHeader {
        ArchiveHeader::new(CampaignConfig::default(), vec![])
    }

    fn options(out: &Path, resume: bool, jobs: usize) -> Options {
        Options {
            out: out.to_path_buf(),
            resume,
            writer: WriterOptions::default(),
            jobs,
            progress: false,
            shard: None,
            cpu_from: None,
        }
    }

    fn seeds(path: &Path) -> Vec<u64> {
        let mut s: Vec<u64> = ArchiveReader::open(path)
            .unwrap()
            .sessions()
            .map(|s| s.unwrap().seed)
            .collect();
        s.sort();
        s
    }

    #[test]
    fn every_task_once_and_a_resume_records_only_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.mtrace");
        let w = Plain::new();
        let s = run(&w, &header(), (0..8).collect(), &options(&out, false, 3)).unwrap();
        assert_eq!((s.done, s.skipped, s.counts.0), (8, 0, 8));
        assert_eq!(s.tally.recorded, 8);
        // Tasks 3 and 7 timed out: undecided, not complete.
        assert_eq!(s.tally.judged, 6);
        assert_eq!(s.tally.undecided.get("timeout"), Some(&2));
        assert!(s.to_string().starts_with("recorded 8 sessions in "), "{s}");
        assert!(s.to_string().contains("6 sessions complete"), "{s}");
        assert_eq!(seeds(&out), (0..8).collect::<Vec<_>>());
        // Without --resume an existing archive is refused.
        assert!(run(&w, &header(), (0..8).collect(), &options(&out, false, 1)).is_err());
        let s = run(&w, &header(), (0..12).collect(), &options(&out, true, 2)).unwrap();
        assert_eq!((s.done, s.skipped), (4, 8));
        assert!(s.to_string().contains(", 8 already in the archive"), "{s}");
        assert_eq!(seeds(&out), (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn no_more_workers_start_than_there_are_tasks() {
        let dir = tempfile::tempdir().unwrap();
        let w = Plain::new();
        let out = dir.path().join("a.mtrace");
        let s = run(&w, &header(), vec![0], &options(&out, false, 2)).unwrap();
        assert_eq!((s.done, w.started.load(Ordering::SeqCst)), (1, 1));
        // Resumed with one task left of three: one worker.
        let out = dir.path().join("b.mtrace");
        run(&w, &header(), vec![0, 1], &options(&out, false, 1)).unwrap();
        w.started.store(0, Ordering::SeqCst);
        let s = run(&w, &header(), vec![0, 1, 2], &options(&out, true, 3)).unwrap();
        assert_eq!((s.done, w.started.load(Ordering::SeqCst)), (1, 1));
        // As many as asked for where the tasks are more.
        w.started.store(0, Ordering::SeqCst);
        let out = dir.path().join("c.mtrace");
        run(&w, &header(), (0..5).collect(), &options(&out, false, 2)).unwrap();
        assert_eq!(w.started.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn shards_hold_every_task_once_and_resume_only_their_own_archive() {
        let dir = tempfile::tempdir().unwrap();
        let w = Plain::new();
        let mut all = Vec::new();
        for k in 0..4 {
            let out = dir.path().join(format!("s{k}.mtrace"));
            let mut o = options(&out, false, 2);
            o.shard = Some(Shard::new(k, 4).unwrap());
            let s = run(&w, &header(), (0..10).collect(), &o).unwrap();
            assert!(
                s.to_string().contains(&format!("shard {}/4: ", k + 1)),
                "{s}"
            );
            let r = ArchiveReader::open(&out).unwrap();
            assert_eq!(r.header().shard, o.shard);
            // The header lists the shard's tasks: exactly the sessions it recorded.
            let mut listed: Vec<Key> = r.header().shard_tasks.clone();
            let mut held: Vec<Key> = r.sessions().map(|x| Key::Session(x.unwrap().id)).collect();
            listed.sort();
            held.sort();
            assert_eq!(listed, held);
            all.extend(seeds(&out));
        }
        all.sort();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        // A shard's archive is continued only as that shard.
        let out = dir.path().join("s1.mtrace");
        let mut o = options(&out, true, 1);
        o.shard = Some(Shard::new(2, 4).unwrap());
        let e = run(&w, &header(), (0..10).collect(), &o).unwrap_err();
        assert!(e.0.contains("holds shard 2/4, not shard 3/4"), "{e}");
        o.shard = None;
        assert!(run(&w, &header(), (0..10).collect(), &o).is_err());
        o.shard = Some(Shard::new(1, 4).unwrap());
        let s = run(&w, &header(), (0..10).collect(), &o).unwrap();
        assert_eq!(s.done, 0);
        assert!(s.skipped > 0);
    }

    #[test]
    fn a_worker_that_cannot_start_or_panics_leaves_the_others_working() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.mtrace");
        let mut w = Plain::new();
        w.broken = vec![0];
        w.panic = Some(5);
        let s = run(&w, &header(), (0..10).collect(), &options(&out, false, 3)).unwrap();
        // Task 5 died with its worker; the other live worker took the rest.
        assert_eq!(s.done, 9);
        assert_eq!(seeds(&out), [0, 1, 2, 3, 4, 6, 7, 8, 9]);
        // No worker at all: the campaign fails with the first worker's reason.
        w.broken = vec![0, 1];
        w.panic = None;
        let out = dir.path().join("b.mtrace");
        let e = run(&w, &header(), (0..3).collect(), &options(&out, false, 2)).unwrap_err();
        assert!(e.0.contains("is broken"), "{e}");
    }

    #[test]
    fn an_archive_that_refuses_a_frame_ends_the_campaign_keeping_what_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.mtrace");
        let mut w = Plain::new();
        w.twice = true;
        let e = run(&w, &header(), (0..6).collect(), &options(&out, false, 2)).unwrap_err();
        assert!(e.0.contains("already") || e.0.contains("duplicate"), "{e}");
        assert_eq!(seeds(&out).len(), 1);
    }
}
