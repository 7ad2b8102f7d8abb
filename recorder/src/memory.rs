//! A memory bound on engines: a program that allocates until the engine runs out of memory must
//! end its session, not the machine's other work. A watchdog thread sums the resident anonymous
//! memory of
//! every process tree the recorder started (an engine and its helpers: Chromium's renderers,
//! Firefox's content processes) and kills a tree that passes the bound. The session that used
//! it ends with the reason, and its engine is restarted like after any crash.
//!
//! Engines' own heap limits do not suffice: they leave out array buffers, Wasm memory and the
//! browser's other processes, and Firefox has none that ends a process.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the watchdog looks at a tree near its bound: a process allocating up to
/// `RATE_MIB_PER_S` passes the bound by at most what it allocates in this time.
const PERIOD: Duration = Duration::from_millis(100);
/// The longest wait between two looks, while every tree is far below the bound. A look reads
/// the status of every process of the machine (a few hundred with two browsers up): at 100 ms
/// throughout it was 3 % of the CPU of a test run.
const LONGEST: Duration = Duration::from_millis(400);
/// The allocation rate the waits are computed for: after a look, the next comes before a tree
/// that far below the bound could reach it at this rate.
const RATE_MIB_PER_S: u64 = 1024;

/// The wait before the next look, with `headroom` MiB left below the bound by the tree
/// closest to it.
fn wait_for(headroom_mib: u64) -> Duration {
    Duration::from_millis(headroom_mib.saturating_mul(1000) / RATE_MIB_PER_S).clamp(PERIOD, LONGEST)
}

/// A process tree killed for memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kill {
    /// The tree's root (the process the recorder started).
    pub pid: u32,
    pub used_mib: u64,
    pub bound_mib: u64,
}

impl Kill {
    pub fn reason(&self) -> String {
        format!(
            "memory bound: the processes used {} MiB, more than the bound of {} MiB; killed (an engine is restarted)",
            self.used_mib, self.bound_mib
        )
    }
}

static KILLS: Mutex<Vec<Kill>> = Mutex::new(Vec::new());

/// The bound of the recorder's watchdog, in MiB (0: none runs), for the last look at a session's
/// end.
static BOUND_MIB: AtomicU64 = AtomicU64::new(0);

/// Kills the tree `pids` rooted at `root` that used `used_mib`, noting the kill first: whoever
/// sees the death finds the reason.
fn kill_tree(root: u32, pids: &[u32], used_mib: u64, bound_mib: u64) {
    if let Ok(mut k) = KILLS.lock() {
        k.push(Kill {
            pid: root,
            used_mib,
            bound_mib,
        });
    }
    for p in pids {
        // SAFETY: kill(2) on a pid we just read as our descendant; the worst case of a reused
        // pid is a signal to a process of ours.
        unsafe {
            libc::kill(*p as i32, libc::SIGKILL);
        }
    }
    tracing::warn!(
        "process {root} and its children used {used_mib} MiB (bound {bound_mib} MiB): killed"
    );
}

/// One more look at the tree rooted at `pid`, at a session's end, under the recorder's bound
/// (nothing without a watchdog): a program that passes the bound and ends between two looks of
/// the watchdog (1.6 GB filled in a single statement, then the program's end, took under its
/// 400 ms in one CI run) still holds the memory when its session ends, and is killed and
/// reported like the watchdog would have. Memory the program freed again before the end
/// escapes both: the bound samples, it does not account.
pub fn look(pid: u32) {
    let bound_mib = BOUND_MIB.load(Ordering::Relaxed);
    if bound_mib > 0 {
        look_under(pid, bound_mib);
    }
}

fn look_under(pid: u32, bound_mib: u64) {
    let (children, rss) = crate::child::scan(stat);
    if !rss.contains_key(&pid) {
        return;
    }
    let pids = crate::child::tree(&children, pid);
    let used_mib = pids.iter().filter_map(|p| rss.get(p)).sum::<u64>() >> 20;
    if used_mib > bound_mib {
        kill_tree(pid, &pids, used_mib, bound_mib);
    }
}

/// The kill of the tree rooted at `pid`, if the watchdog made one (taken: reported once).
pub fn take_kill(pid: u32) -> Option<Kill> {
    let mut kills = KILLS.lock().ok()?;
    let i = kills.iter().position(|k| k.pid == pid)?;
    Some(kills.swap_remove(i))
}

/// The watchdog; stops when dropped.
pub struct Guard {
    stop: Arc<AtomicBool>,
    /// Whether this is the recorder's watchdog (its bound is the one `look` applies).
    global: bool,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Guard {
    /// Starts watching the recorder's child process trees; `None` when the bound is 0 (off) or
    /// the system has no /proc.
    pub fn start(bound_mib: u64) -> Option<Guard> {
        let mut guard = Guard::watching(bound_mib, None)?;
        guard.global = true;
        BOUND_MIB.store(bound_mib, Ordering::Relaxed);
        Some(guard)
    }

    /// Watches only the tree rooted at `only`, if given (tests, which share their process).
    fn watching(bound_mib: u64, only: Option<u32>) -> Option<Guard> {
        if bound_mib == 0 || !std::path::Path::new("/proc/self/stat").exists() {
            return None;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let me = std::process::id();
        let thread = std::thread::Builder::new()
            .name("memory-guard".into())
            .spawn(move || {
                while !flag.load(Ordering::Relaxed) {
                    let mut headroom_mib = bound_mib;
                    for (root, pids, bytes) in trees(me) {
                        if only.is_some_and(|o| o != root) {
                            continue;
                        }
                        let used_mib = bytes >> 20;
                        headroom_mib = headroom_mib.min(bound_mib.saturating_sub(used_mib));
                        if used_mib > bound_mib {
                            kill_tree(root, &pids, used_mib, bound_mib);
                        }
                    }
                    // Woken early when the guard is dropped.
                    std::thread::park_timeout(wait_for(headroom_mib));
                }
            })
            .ok()?;
        Some(Guard {
            stop,
            global: false,
            thread: Some(thread),
        })
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.global {
            BOUND_MIB.store(0, Ordering::Relaxed);
        }
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// `(ppid, resident anonymous bytes)` of a process, from /proc. Anonymous memory is what a
/// program allocates (heaps, array buffers, Wasm memory); the resident set would count the
/// browser's shared libraries once per process (an idle headless Chromium sums to about 930 MB of
/// RSS over its nine processes, 224 MB anonymous).
fn stat(pid: u32) -> Option<(u32, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = s.lines().find(|l| l.starts_with(name))?;
        line[name.len()..].split_whitespace().next()?.parse().ok()
    };
    let ppid = field("PPid:")? as u32;
    // Kernel threads and zombies have no RssAnon line.
    let kib = field("RssAnon:").unwrap_or(0);
    Some((ppid, kib << 10))
}

/// Every tree rooted at a child of `me`: its root, its processes and their resident anonymous
/// bytes.
fn trees(me: u32) -> Vec<(u32, Vec<u32>, u64)> {
    let (children, rss) = crate::child::scan(stat);
    let roots = children.get(&me).cloned().unwrap_or_default();
    roots
        .into_iter()
        .map(|root| {
            let pids = crate::child::tree(&children, root);
            let bytes = pids.iter().filter_map(|p| rss.get(p)).sum();
            (root, pids, bytes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Far below the bound the watchdog looks less often, near it every 100 ms: a tree that
    /// allocates at the assumed rate cannot reach the bound between two looks.
    #[test]
    fn the_wait_shrinks_as_a_tree_nears_its_bound() {
        assert_eq!(wait_for(4096), LONGEST);
        assert_eq!(wait_for(256), Duration::from_millis(250));
        assert_eq!(wait_for(50), PERIOD);
        assert_eq!(wait_for(0), PERIOD);
    }

    #[test]
    fn a_child_over_the_bound_is_killed_and_reported_once() {
        // A child that holds about 200 MiB resident.
        let mut child = std::process::Command::new("python3")
            .args([
                "-c",
                "import time; b = bytearray(200 << 20); b[::4096] = b'x' * len(b[::4096]); time.sleep(30)",
            ])
            .spawn()
            .expect("python3");
        let pid = child.id();
        let guard = Guard::watching(64, Some(pid)).expect("a watchdog on Linux");
        let status = child.wait().expect("the child ends");
        drop(guard);
        assert!(!status.success(), "killed, not finished: {status:?}");
        let k = take_kill(pid).expect("the kill is reported");
        assert!(k.used_mib > 64 && k.bound_mib == 64, "{k:?}");
        assert!(k.reason().contains("memory bound"));
        assert_eq!(take_kill(pid), None, "reported once");
    }

    /// The last look at a session's end kills and reports a tree over the bound that the
    /// watchdog has not seen (none runs here), and leaves one under it alone.
    #[test]
    fn a_last_look_kills_a_tree_over_the_bound_between_two_looks_of_the_watchdog() {
        let hold = |mib: u32| {
            std::process::Command::new("python3")
                .args([
                    "-c",
                    &format!("import sys, time; b = bytearray({mib} << 20); b[::4096] = b'x' * len(b[::4096]); print(flush=True); time.sleep(30)"),
                ])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("python3")
        };
        let mut over = hold(200);
        let mut under = hold(8);
        for c in [&mut over, &mut under] {
            // The memory is touched once the line is printed.
            let mut line = String::new();
            std::io::BufRead::read_line(
                &mut std::io::BufReader::new(c.stdout.as_mut().unwrap()),
                &mut line,
            )
            .unwrap();
        }
        look_under(over.id(), 64);
        look_under(under.id(), 64);
        let status = over.wait().expect("the child ends");
        assert!(!status.success(), "killed: {status:?}");
        let k = take_kill(over.id()).expect("the kill is reported");
        assert!(k.used_mib > 64, "{k:?}");
        assert_eq!(under.try_wait().unwrap(), None, "under the bound: runs on");
        assert_eq!(take_kill(under.id()), None);
        let _ = under.kill();
        let _ = under.wait();
    }

    #[test]
    fn the_processes_of_a_tree_are_found_with_their_memory() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 5 & sleep 5; wait"])
            .spawn()
            .expect("sh");
        std::thread::sleep(Duration::from_millis(200));
        let t = trees(std::process::id());
        let mine = t.iter().find(|(root, _, _)| *root == child.id());
        let _ = child.kill();
        let _ = child.wait();
        let (_, pids, bytes) = mine.expect("the child's tree");
        assert!(pids.len() >= 3, "sh and its two sleeps: {pids:?}");
        assert!(*bytes > 0);
    }
}
