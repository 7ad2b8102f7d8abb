//! Engine processes started ahead of the sessions that will use them (`--prepared`): one
//! process per session for Node, Deno and Bun, so that process start-up is off the critical
//! path. `size` 0 starts each process when its session opens (the naive baseline).

use crate::debugger::DebuggerError;
use futures_util::future::BoxFuture;
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::task::JoinHandle;

/// A started process, waiting for its session.
pub trait Waiting: Send + 'static {
    /// Kills the process (does not wait for it).
    fn start_kill(&mut self);
}

type Start<W> = Arc<dyn Fn() -> BoxFuture<'static, Result<W, DebuggerError>> + Send + Sync>;

pub struct Prepared<W: Waiting> {
    ready: VecDeque<JoinHandle<Result<W, DebuggerError>>>,
    size: usize,
    start: Start<W>,
}

impl<W: Waiting> Prepared<W> {
    /// `size` processes started by `start` now, in the background.
    pub fn new(
        size: usize,
        start: impl Fn() -> BoxFuture<'static, Result<W, DebuggerError>> + Send + Sync + 'static,
    ) -> Prepared<W> {
        let mut p = Prepared {
            ready: VecDeque::new(),
            size,
            start: Arc::new(start),
        };
        p.fill();
        p
    }

    fn fill(&mut self) {
        while self.ready.len() < self.size {
            self.ready.push_back(tokio::spawn((self.start)()));
        }
    }

    /// The oldest prepared process (another is started in its place), or one started now.
    pub async fn take(&mut self) -> Result<W, DebuggerError> {
        self.fill();
        let next = self.ready.pop_front();
        self.fill();
        match next {
            Some(h) => h.await.map_err(|e| DebuggerError::Crashed(e.to_string()))?,
            None => (self.start)().await,
        }
    }

    /// Every prepared process dropped and started again (after a crash or a memory bound).
    pub fn restart(&mut self) {
        for h in self.ready.drain(..) {
            h.abort();
        }
        self.fill();
    }

    /// Every prepared process stopped: those still starting aborted, those started killed.
    pub async fn shutdown(&mut self) {
        for h in self.ready.drain(..) {
            h.abort();
            if let Ok(Ok(mut w)) = h.await {
                w.start_kill();
            }
        }
    }
}
