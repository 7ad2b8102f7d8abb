//! A GDB/MI client over gdb's stdin and stdout: each command carries a token, its result
//! record (`TOKEN^done`, `TOKEN^error`) answers it; asynchronous records and streams go to one
//! queue in the order gdb wrote them.

use super::parse::{record, Record};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::{mpsc, oneshot};

/// The tracing target of every line sent (`>`) and received (`<`):
/// `--log morphtrace::mi::wire=trace` prints the protocol as it went.
pub const WIRE: &str = "morphtrace::mi::wire";

#[derive(Debug, Clone, thiserror::Error)]
pub enum MiError {
    /// `^error,msg="…"`: gdb's own words.
    #[error("{command}: {message}")]
    Failed { command: String, message: String },
    #[error("gdb closed its output")]
    Closed,
    #[error("{0}: no answer within {1:?}")]
    Timeout(String, Duration),
}

/// What gdb says unasked: `*stopped`, `=breakpoint-modified`, its console's words.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Async { class: String, body: Json },
    Stream { kind: char, text: String },
}

type Reply = Result<Json, MiError>;
/// The commands awaiting their result record, by token: their name and who waits.
type Pending = Arc<Mutex<HashMap<u64, (String, oneshot::Sender<Reply>)>>>;

#[derive(Clone)]
pub struct Connection {
    out: mpsc::UnboundedSender<String>,
    pending: Pending,
    token: Arc<AtomicU64>,
}

impl Connection {
    pub fn over(
        read: impl AsyncRead + Unpin + Send + 'static,
        mut write: impl AsyncWrite + Unpin + Send + 'static,
    ) -> (Connection, mpsc::UnboundedReceiver<Event>) {
        let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
        let (events, queue) = mpsc::unbounded_channel();
        let pending: Pending = Arc::default();
        tokio::spawn(async move {
            while let Some(line) = outgoing.recv().await {
                tracing::trace!(target: WIRE, "> {}", line.trim_end());
                if write.write_all(line.as_bytes()).await.is_err() || write.flush().await.is_err() {
                    break;
                }
            }
        });
        let waiting = pending.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(read).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tracing::trace!(target: WIRE, "< {line}");
                match record(&line) {
                    Some(Record::Result {
                        token: Some(t),
                        class,
                        body,
                    }) => {
                        let Some((command, reply)) = lock(&waiting).remove(&t) else {
                            continue;
                        };
                        let answer = if class == "error" {
                            Err(MiError::Failed {
                                command,
                                message: body
                                    .get("msg")
                                    .and_then(Json::as_str)
                                    .unwrap_or("(no message)")
                                    .to_string(),
                            })
                        } else {
                            Ok(body)
                        };
                        let _ = reply.send(answer);
                    }
                    Some(Record::Async { class, body }) => {
                        let _ = events.send(Event::Async { class, body });
                    }
                    Some(Record::Stream { kind, text }) => {
                        let _ = events.send(Event::Stream { kind, text });
                    }
                    Some(Record::Result { token: None, .. }) | Some(Record::Prompt) | None => {}
                }
            }
            // Every command still waiting learns that gdb is gone.
            for (_, (_, reply)) in lock(&waiting).drain() {
                let _ = reply.send(Err(MiError::Closed));
            }
        });
        (
            Connection {
                out,
                pending,
                token: Arc::new(AtomicU64::new(1)),
            },
            queue,
        )
    }

    /// Sends `command` (an MI command, `-exec-next`, with its arguments) and waits for its
    /// result record.
    pub async fn call(&self, command: &str, timeout: Duration) -> Result<Json, MiError> {
        let token = self.token.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        let name = command
            .split_whitespace()
            .next()
            .unwrap_or(command)
            .to_string();
        lock(&self.pending).insert(token, (name.clone(), tx));
        if self.out.send(format!("{token}{command}\n")).is_err() {
            lock(&self.pending).remove(&token);
            return Err(MiError::Closed);
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(MiError::Closed),
            Err(_) => {
                lock(&self.pending).remove(&token);
                Err(MiError::Timeout(name, timeout))
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// An MI argument as a C string (`"a \"b\""`): what gdb reads as one argument whatever it holds.
pub fn quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
