//! The program's terminal under gdb: a pseudo-terminal the recorder opens and gdb gives the
//! program (`-inferior-tty-set`), so that the program's output is apart from gdb's MI stream
//! and line-buffered as at a terminal (as under LLDB, whose adapter gives it one too). Output
//! processing is off: the program's `\n` arrives as written, not as `\r\n`.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Terminal {
    /// The path gdb opens for the program (`/dev/pts/N`).
    pub path: String,
    /// Held open until the program has ended: reads of the master fail once no one holds the
    /// slave, which ends the reader after the last byte.
    slave: Option<File>,
    reader: Option<std::thread::JoinHandle<()>>,
    text: Arc<Mutex<Vec<u8>>>,
}

impl Terminal {
    pub fn open() -> std::io::Result<Terminal> {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two fds into the given integers; name, termios and winsize
        // may be null.
        let r = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        if r != 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: both fds were just opened and are owned by nothing else.
        let (master, slave) = unsafe { (File::from_raw_fd(master), File::from_raw_fd(slave)) };
        for fd in [master.as_raw_fd(), slave.as_raw_fd()] {
            // SAFETY: FD_CLOEXEC on an fd this process owns: gdb must not inherit them (it
            // opens the slave by its path).
            unsafe {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
        // SAFETY: termios is plain data, filled by tcgetattr before use.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(slave.as_raw_fd(), &mut t) == 0 {
                t.c_oflag &= !libc::OPOST;
                t.c_lflag &= !libc::ECHO;
                libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &t);
            }
        }
        let path = std::fs::read_link(format!("/proc/self/fd/{}", slave.as_raw_fd()))?
            .display()
            .to_string();
        let text: Arc<Mutex<Vec<u8>>> = Arc::default();
        let t = text.clone();
        let reader = std::thread::Builder::new()
            .name("gdb-terminal".into())
            .spawn(move || {
                let mut master = master;
                let mut buf = [0u8; 8192];
                // Ends with EIO once the program and the recorder have closed the slave.
                while let Ok(n) = master.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    t.lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend_from_slice(&buf[..n]);
                }
            })?;
        Ok(Terminal {
            path,
            slave: Some(slave),
            reader: Some(reader),
            text,
        })
    }

    /// What the program wrote so far.
    pub fn text(&self) -> String {
        let t = self
            .text
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        String::from_utf8_lossy(&t).into_owned()
    }

    /// Once the program has ended: waits until the reader has read all it wrote (the slave
    /// closed, the reader's read fails after the last byte). Not forever: should another
    /// process still hold the terminal, what was read by then is the output.
    pub async fn drain(&mut self) {
        self.slave.take();
        let Some(reader) = self.reader.take() else {
            return;
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(2);
        while !reader.is_finished() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        if !reader.is_finished() {
            tracing::warn!("the program's terminal is still open after it ended");
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // The reader's next read fails once no one holds the slave (the program is dead).
        self.slave.take();
    }
}
