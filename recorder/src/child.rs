//! Children of the recorder (engines, profilers, compilers, the GenMorph harness) die with it,
//! even when it is killed with SIGKILL (no destructor runs then): a killed campaign must not
//! leave browsers, Node processes or programs-to-debug behind.

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

#[cfg(test)]
mod tests {
    use super::*;

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
