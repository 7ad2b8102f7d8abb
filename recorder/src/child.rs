//! Children of the recorder (engines, profilers, compilers, the GenMorph harness) die with it,
//! even when it is killed with SIGKILL (no destructor runs then): a killed campaign must not
//! leave browsers, Node processes or programs-to-debug behind.

use std::collections::HashMap;
use std::time::Duration;

/// Every process's children by parent pid, from /proc.
pub fn children_by_parent() -> HashMap<u32, Vec<u32>> {
    scan(|pid| state(pid).map(|(_, ppid)| (ppid, ()))).0
}

/// Every process /proc lists that `read` can read as `(ppid, what)`: the children by parent
/// pid, and what was read by pid (a process gone meanwhile is left out).
pub fn scan<T>(
    read: impl Fn(u32) -> Option<(u32, T)>,
) -> (HashMap<u32, Vec<u32>>, HashMap<u32, T>) {
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut what: HashMap<u32, T> = HashMap::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return (children, what);
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        if let Some((ppid, w)) = read(pid) {
            children.entry(ppid).or_default().push(pid);
            what.insert(pid, w);
        }
    }
    (children, what)
}

/// `root` and every process below it in `children`.
pub fn tree(children: &HashMap<u32, Vec<u32>>, root: u32) -> Vec<u32> {
    let mut pids = vec![root];
    let mut i = 0;
    while i < pids.len() {
        if let Some(c) = children.get(&pids[i]) {
            // Parent links form a tree: nothing is reached twice.
            pids.extend_from_slice(c);
        }
        i += 1;
    }
    pids
}

/// A process's state letter and parent, from `/proc/PID/stat` (`None`: it is gone).
fn state(pid: u32) -> Option<(char, u32)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) S ppid …`: the command may hold spaces and parentheses; the state follows
    // the last `)`.
    let mut rest = s.get(s.rfind(')')? + 1..)?.split_whitespace();
    let state = rest.next()?.chars().next()?;
    let ppid = rest.next()?.parse().ok()?;
    Some((state, ppid))
}

/// Whether `pid` still runs (not gone, not a zombie waiting to be reaped).
pub fn running(pid: u32) -> bool {
    state(pid).is_some_and(|(s, _)| s != 'Z' && s != 'X')
}

/// Makes the recorder the "subreaper" of its descendants: a browser's helpers that outlive the
/// browser are re-parented to the recorder (not to init), which can then wait for them and reap
/// them. Called once at startup.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes no pointers.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
    }
}

/// Reaps `pid` if it is an exited child of the recorder (an adopted helper). Never called on a
/// process tokio spawned: those it reaps itself.
fn reap(pid: u32) {
    if state(pid).is_some_and(|(s, ppid)| s == 'Z' && ppid == std::process::id()) {
        // SAFETY: waitpid on one pid, without blocking; the status is not needed.
        unsafe {
            libc::waitpid(pid as i32, std::ptr::null_mut(), libc::WNOHANG);
        }
    }
}

/// Waits until every process in `pids` has exited, or `timeout`; then SIGKILLs what still
/// runs. A browser's helpers (renderers, GPU, zygote) outlive it by a few hundred
/// milliseconds: the recorder waits for them and reaps those it adopted, so that it leaves
/// nothing behind when it exits.
pub async fn wait_exited(pids: &[u32], timeout: Duration) {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        pids.iter().for_each(|&p| reap(p));
        let alive: Vec<u32> = pids.iter().copied().filter(|&p| running(p)).collect();
        if alive.is_empty() {
            return;
        }
        if tokio::time::Instant::now() >= deadline {
            // With no grace period the caller means to kill them (a killed engine's helpers):
            // nothing to warn about.
            if timeout.is_zero() {
                tracing::debug!("{} engine helper processes killed", alive.len());
            } else {
                tracing::warn!(
                    "{} engine processes still ran after {timeout:?}: killed",
                    alive.len()
                );
            }
            for &p in &alive {
                // SAFETY: kill(2) on a pid read as the engine's descendant moments ago.
                unsafe {
                    libc::kill(p as i32, libc::SIGKILL);
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            alive.iter().for_each(|&p| reap(p));
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// At the recorder's end, once no tokio runtime owns a child any more: waits up to `timeout`
/// for every remaining child (helpers adopted from engines that are shutting down), reaping
/// them, and SIGKILLs what still runs then.
pub fn reap_all(timeout: Duration) {
    let deadline = std::time::Instant::now() + timeout;
    let me = std::process::id();
    loop {
        // SAFETY: waitpid(-1) without blocking: no other code waits for children any more.
        while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
        let left = children_by_parent().remove(&me).unwrap_or_default();
        if left.is_empty() {
            return;
        }
        if std::time::Instant::now() >= deadline {
            for p in left {
                // SAFETY: kill(2) on our own child.
                unsafe {
                    libc::kill(p as i32, libc::SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_millis(50));
            // SAFETY: as above.
            while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A launched engine's helpers right now (every process below it), to wait for once the
/// engine is closed or killed.
pub fn helpers(engine: &tokio::process::Child) -> Vec<u32> {
    engine.id().map(descendants).unwrap_or_default()
}

/// Kills (SIGKILL) every process whose command line holds `needle` as one argument's part (a
/// browser's helpers name its profile directory), but the recorder; answers how many. Helpers
/// whose browser died first are orphans no tree below the browser finds any more.
pub fn kill_naming(needle: &str) -> usize {
    let me = std::process::id();
    let (_, named) = scan(|pid| {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let hit = cmdline
            .split(|b| *b == 0)
            .any(|arg| arg.windows(needle.len()).any(|w| w == needle.as_bytes()));
        (hit && pid != me).then_some((0, ()))
    });
    for &pid in named.keys() {
        // SAFETY: kill(2) takes no pointers; a pid gone meanwhile is an ESRCH, ignored.
        unsafe {
            libc::kill(pid as i32, libc::SIGKILL);
        }
    }
    named.len()
}

/// The processes below `root` (a browser's helpers), without `root`.
pub fn descendants(root: u32) -> Vec<u32> {
    let mut t = tree(&children_by_parent(), root);
    t.remove(0);
    t
}

/// Asks the kernel to SIGKILL the calling process when its parent dies. Meant to run in the
/// child between fork and exec, where only async-signal-safe calls are allowed (prctl is).
pub fn die_with_parent_now() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG takes no pointers and is async-signal-safe.
    unsafe {
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A command whose process dies with the recorder.
pub trait DieWithParent {
    fn die_with_parent(&mut self) -> &mut Self;
}

impl DieWithParent for std::process::Command {
    fn die_with_parent(&mut self) -> &mut Self {
        use std::os::unix::process::CommandExt;
        // SAFETY: the hook only calls prctl, which is async-signal-safe.
        unsafe { self.pre_exec(die_with_parent_now) }
    }
}

impl DieWithParent for tokio::process::Command {
    fn die_with_parent(&mut self) -> &mut Self {
        // SAFETY: the hook only calls prctl, which is async-signal-safe.
        unsafe { self.pre_exec(die_with_parent_now) }
    }
}

/// Node's start-up settings in the recorder's environment, which no Node (or Deno) process of a
/// session inherits: `NODE_OPTIONS` would change how the engine runs with flags no trace records
/// (a user's `--jitless` would make every session another tier), and `NODE_EXTRA_CA_CERTS`
/// (machines behind a TLS-inspecting proxy set it) makes every start parse the whole CA bundle:
/// 0.1 s of CPU, more than the rest of Node's start (`node -e 0`: 0.12 s of user time with it,
/// 0.03 s without). No program-to-debug talks TLS.
pub const AMBIENT_NODE_SETTINGS: [&str; 2] = ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"];

/// A command that runs Node without the recorder's ambient Node settings.
pub trait WithoutAmbientNode {
    fn without_ambient_node(&mut self) -> &mut Self;
}

impl WithoutAmbientNode for std::process::Command {
    fn without_ambient_node(&mut self) -> &mut Self {
        for name in AMBIENT_NODE_SETTINGS {
            self.env_remove(name);
        }
        self
    }
}

impl WithoutAmbientNode for tokio::process::Command {
    fn without_ambient_node(&mut self) -> &mut Self {
        for name in AMBIENT_NODE_SETTINGS {
            self.env_remove(name);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Orphaned helpers are found by what their command line names, and only they.
    #[test]
    fn processes_naming_a_path_are_killed_and_no_other() {
        let token = format!("/tmp/morphtrace-kill-naming-{}", std::process::id());
        // A shell named by its `$0`, looping on short sleeps (what it starts ends by itself).
        let mut named = std::process::Command::new("sh")
            .args(["-c", "while :; do sleep 0.1; done"])
            .arg(format!("--user-data-dir={token}"))
            .spawn()
            .unwrap();
        let mut other = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(kill_naming(&token), 1);
        let status = named.wait().unwrap();
        assert!(!status.success(), "{status:?}");
        assert!(
            other.try_wait().unwrap().is_none(),
            "the other one still runs"
        );
        other.kill().unwrap();
        other.wait().unwrap();
    }

    /// Node told to read extra CA certificates from a file that is not there says so on stderr,
    /// and `NODE_OPTIONS=--title=…` renames the process: neither reaches a command without the
    /// ambient settings, whatever the recorder's environment.
    #[test]
    fn node_runs_without_the_ambient_node_settings() {
        let run = |clean: bool| {
            let mut c = std::process::Command::new("node");
            c.args(["-e", "console.log(process.title)"])
                .env("NODE_EXTRA_CA_CERTS", "/nonexistent/morphtrace-ca.pem")
                .env("NODE_OPTIONS", "--title=morphtrace-probe");
            if clean {
                c.without_ambient_node();
            }
            let out = c.output().expect("node runs (scripts/setup.sh)");
            (
                String::from_utf8_lossy(&out.stdout).trim().to_string(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            )
        };
        let (out, err) = run(false);
        assert_eq!(out, "morphtrace-probe");
        assert!(err.contains("extra certs"), "{err}");
        let (out, err) = run(true);
        assert_eq!(out, "node");
        assert!(!err.contains("extra certs"), "{err}");
    }

    /// The child's own view: `prctl(PR_GET_PDEATHSIG)` (asked from Python) is SIGKILL (9) for a
    /// command made to die with its parent, and 0 for one that is not.
    #[test]
    fn a_child_is_told_to_die_with_the_recorder() {
        let ask = "import ctypes; s = ctypes.c_int(); \
                   ctypes.CDLL(None).prctl(2, ctypes.byref(s)); print(s.value)";
        let signal = |die: bool| {
            let mut c = std::process::Command::new("python3");
            c.args(["-c", ask]);
            if die {
                c.die_with_parent();
            }
            let out = c.output().expect("python3 runs");
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        assert_eq!(signal(true), "9");
        assert_eq!(signal(false), "0");
    }
}
