//! The CPU a campaign spends: the recorder's own and that of every process it started
//! (engines, adapters, launchers and their children), so that an oracle's yield can be told per
//! CPU-hour (`Session::cpu_us`).
//!
//! Processes still running are read from `/proc/PID/stat` (their user and system time, and
//! that of the children they have waited for); processes that ended and were waited for are
//! in `getrusage(RUSAGE_CHILDREN)`. A process is in exactly one of the two at any moment, so
//! two readings subtract without counting anything twice. Not counted: a descendant whose
//! parent died without waiting for it (it is then nobody's child of ours).

/// Microseconds of CPU (user and system) spent so far by this process and all its
/// descendants, living or waited for.
pub fn spent_us() -> u64 {
    own_and_waited_us() + living_descendants_us()
}

fn own_and_waited_us() -> u64 {
    let mut total = 0;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: getrusage writes one struct rusage, which we own; nothing else is touched.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut u) } == 0 {
            let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
            total += us(u.ru_utime) + us(u.ru_stime);
        }
    }
    total
}

/// The CPU of every living descendant (zombies included: not waited for yet), each with the
/// children it has waited for.
fn living_descendants_us() -> u64 {
    let (children, ticks) = crate::child::scan(stat);
    let me = std::process::id();
    let tree = crate::child::tree(&children, me);
    let sum: u64 = tree[1..].iter().filter_map(|p| ticks.get(p)).sum();
    // SAFETY: sysconf reads a constant of the system.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let hz = if hz > 0 { hz as u64 } else { 100 };
    sum * 1_000_000 / hz
}

/// `(ppid, utime + stime + cutime + cstime in clock ticks)` of a process.
fn stat(pid: u32) -> Option<(u32, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces and parentheses: fields count from its end.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state (3), ppid (4), …, utime (14), stime (15), cutime (16), cstime (17).
    let ppid = f.get(1)?.parse().ok()?;
    let t = (11..15)
        .map(|i| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0))
        .sum();
    Some((ppid, t))
}

/// Shares `cpu_us` among parts in proportion to their weights (wall times), the remainder to
/// the last, so that the shares sum to it exactly; equal shares when every weight is 0.
pub fn share(cpu_us: u64, weights: &[u64]) -> Vec<u64> {
    let n = weights.len();
    if n == 0 {
        return Vec::new();
    }
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    let mut out: Vec<u64> = weights
        .iter()
        .map(|&w| match (cpu_us as u128 * w as u128).checked_div(total) {
            Some(c) => c as u64,
            None => cpu_us / n as u64,
        })
        .collect();
    let given: u64 = out.iter().sum();
    out[n - 1] += cpu_us - given;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child that burns CPU and is waited for moves from the living to the waited-for
    /// without being lost or counted twice.
    #[test]
    fn a_childs_cpu_is_counted_living_and_after_it_ended() {
        let before = spent_us();
        let mut c = std::process::Command::new("sh")
            .arg("-c")
            .arg("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done")
            .spawn()
            .unwrap();
        // While it runs, its CPU shows among the living.
        let mut living = 0;
        for _ in 0..200 {
            std::thread::sleep(std::time::Duration::from_millis(20));
            living = living_descendants_us();
            if living >= 100_000 || c.try_wait().unwrap().is_some() {
                break;
            }
        }
        c.wait().unwrap();
        let after = spent_us();
        assert!(after - before >= 100_000, "{before} → {after}");
        // Other tests' processes may run meanwhile: they only add.
        assert!(after >= before + living, "{before} + {living} > {after}");
    }

    #[test]
    fn shares_sum_to_the_whole_in_proportion() {
        assert_eq!(share(1000, &[1, 3]), vec![250, 750]);
        assert_eq!(share(1001, &[1, 1, 1]), vec![333, 333, 335]);
        assert_eq!(share(10, &[0, 0]), vec![5, 5]);
        assert_eq!(share(10, &[]), Vec::<u64>::new());
    }
}
