//! A Debug Adapter Protocol client over a byte stream (an adapter's stdin and stdout):
//! `Content-Length` framing, requests matched to responses by `seq`, events to one queue.
//!
//! Messages stay JSON values, read leniently by the session, as the inspector adapters do: the
//! typed DAP crates (`debug_types` 1.0, `dap` 0.4) close enums the protocol leaves open
//! (a stopped reason, a scope's presentation hint), have no room for an adapter's own launch
//! arguments (debugpy's `justMyCode`), and fail a whole message on one unknown value.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

/// The tracing target of every message sent (`>`) and received (`<`), whole:
/// `--log morphtrace::dap::wire=trace` prints the protocol as it went.
pub const WIRE: &str = "morphtrace::dap::wire";

/// A frame larger than this is a broken peer, not a message (a variables response of a big
/// object is a few hundred kilobytes).
const MAX_FRAME: usize = 64 << 20;

#[derive(Debug, Clone, thiserror::Error)]
pub enum DapError {
    /// The adapter answered `success: false`; `message` is its own words.
    #[error("{command}: {message}")]
    Failed { command: String, message: String },
    #[error("the debug adapter closed the connection")]
    Closed,
    #[error("{0}: no response within {1:?}")]
    Timeout(String, Duration),
    #[error("bad frame from the debug adapter: {0}")]
    Frame(String),
}

/// An event: its name and body (`Null` when it has none).
#[derive(Debug, Clone)]
pub struct DapEvent {
    pub event: String,
    pub body: Value,
}

type Reply = Result<Value, DapError>;

struct Inner {
    out: mpsc::UnboundedSender<Vec<u8>>,
    pending: Mutex<HashMap<u64, (String, oneshot::Sender<Reply>)>>,
    seq: AtomicU64,
    name: String,
}

/// A cheap, clonable handle on one adapter connection.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

/// Splits a byte stream into DAP messages: `Content-Length: N\r\n` (other headers ignored),
/// a blank line, N bytes of JSON.
#[derive(Default)]
pub struct Frames {
    buf: Vec<u8>,
}

impl Frames {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole message, `Ok(None)` while one is incomplete.
    pub fn message(&mut self) -> Result<Option<Value>, DapError> {
        let Some(end) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            if self.buf.len() > 4096 {
                return Err(DapError::Frame("a header longer than 4096 bytes".into()));
            }
            return Ok(None);
        };
        let header = String::from_utf8_lossy(&self.buf[..end]).into_owned();
        let length = header
            .split("\r\n")
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.trim()
                    .eq_ignore_ascii_case("content-length")
                    .then(|| v.trim().parse::<usize>().ok())?
            })
            .ok_or_else(|| DapError::Frame(format!("no Content-Length in {header:?}")))?;
        if length > MAX_FRAME {
            return Err(DapError::Frame(format!("a frame of {length} bytes")));
        }
        let start = end + 4;
        if self.buf.len() < start + length {
            return Ok(None);
        }
        let body: Vec<u8> = self.buf.drain(..start + length).skip(start).collect();
        serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| DapError::Frame(format!("not JSON ({e})")))
    }
}

/// One message framed for the wire.
pub fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

impl Connection {
    /// Speaks DAP over `read` and `write` (an adapter's stdout and stdin). Events go to the
    /// returned queue; it ends when the adapter closes its side.
    pub fn over(
        read: impl AsyncRead + Unpin + Send + 'static,
        mut write: impl AsyncWrite + Unpin + Send + 'static,
        name: &str,
    ) -> (Connection, mpsc::UnboundedReceiver<DapEvent>) {
        let (out, mut outgoing) = mpsc::unbounded_channel::<Vec<u8>>();
        let (events_tx, events) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            out,
            pending: Mutex::new(HashMap::new()),
            seq: AtomicU64::new(1),
            name: name.to_string(),
        });
        tokio::spawn(async move {
            while let Some(bytes) = outgoing.recv().await {
                if write.write_all(&bytes).await.is_err() || write.flush().await.is_err() {
                    break;
                }
            }
        });
        let reader = inner.clone();
        tokio::spawn(async move {
            let mut read = read;
            let mut frames = Frames::default();
            let mut chunk = vec![0u8; 64 * 1024];
            let end = 'read: loop {
                match read.read(&mut chunk).await {
                    Ok(0) | Err(_) => break DapError::Closed,
                    Ok(n) => frames.push(&chunk[..n]),
                }
                loop {
                    match frames.message() {
                        Ok(Some(m)) => {
                            tracing::trace!(target: WIRE, "< {} {m}", reader.name);
                            dispatch(&reader, &events_tx, m);
                        }
                        Ok(None) => break,
                        Err(e) => break 'read e,
                    }
                }
            };
            // Whoever waits learns why no answer comes.
            let pending: Vec<_> = reader
                .pending
                .lock()
                .map(|mut p| p.drain().collect())
                .unwrap_or_default();
            for (_, (_, tx)) in pending {
                let _ = tx.send(Err(end.clone()));
            }
        });
        (Connection { inner }, events)
    }

    /// Sends a request and waits for its response's body (`Null` when it has none).
    pub async fn call(
        &self,
        command: &str,
        arguments: Value,
        timeout: Duration,
    ) -> Result<Value, DapError> {
        let rx = self.send(command, arguments)?;
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(DapError::Closed),
            Err(_) => Err(DapError::Timeout(command.to_string(), timeout)),
        }
    }

    /// Sends a request; the receiver gets its response.
    pub fn send(
        &self,
        command: &str,
        arguments: Value,
    ) -> Result<oneshot::Receiver<Reply>, DapError> {
        let seq = self.inner.seq.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.inner
            .pending
            .lock()
            .map_err(|_| DapError::Closed)?
            .insert(seq, (command.to_string(), tx));
        let message =
            json!({"seq": seq, "type": "request", "command": command, "arguments": arguments});
        tracing::trace!(target: WIRE, "> {} {message}", self.inner.name);
        self.inner
            .out
            .send(frame(&message))
            .map_err(|_| DapError::Closed)?;
        Ok(rx)
    }
}

fn dispatch(inner: &Inner, events: &mpsc::UnboundedSender<DapEvent>, m: Value) {
    match m.get("type").and_then(Value::as_str) {
        Some("response") => {
            let Some(seq) = m.get("request_seq").and_then(Value::as_u64) else {
                return;
            };
            let Some((command, tx)) = inner.pending.lock().ok().and_then(|mut p| p.remove(&seq))
            else {
                return;
            };
            let reply = if m.get("success").and_then(Value::as_bool) == Some(true) {
                Ok(m.get("body").cloned().unwrap_or(Value::Null))
            } else {
                // The adapter's words: `message`, or a structured error's formatted text.
                let message = m
                    .get("message")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .or_else(|| m.pointer("/body/error/format").and_then(Value::as_str))
                    .unwrap_or("failed without a message")
                    .to_string();
                Err(DapError::Failed { command, message })
            };
            let _ = tx.send(reply);
        }
        Some("event") => {
            let event = m
                .get("event")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let body = m.get("body").cloned().unwrap_or(Value::Null);
            let _ = events.send(DapEvent { event, body });
        }
        // A reverse request (`runInTerminal`, `startDebugging`): never asked for (the client
        // declares neither capability), so nothing answers it.
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_split_wherever_the_bytes_break() {
        let a = frame(&json!({"seq": 1, "type": "event", "event": "initialized"}));
        let b = frame(
            &json!({"seq": 2, "type": "response", "request_seq": 1, "success": true, "body": {"é": "x"}}),
        );
        let wire: Vec<u8> = a.iter().chain(b.iter()).copied().collect();
        for cut in 0..wire.len() {
            let mut f = Frames::default();
            let mut got = Vec::new();
            for part in [&wire[..cut], &wire[cut..]] {
                f.push(part);
                while let Some(m) = f.message().expect("well framed") {
                    got.push(m["seq"].as_u64());
                }
            }
            assert_eq!(got, vec![Some(1), Some(2)], "cut at byte {cut}");
        }
    }

    #[test]
    fn a_frame_without_a_length_or_with_bad_json_is_an_error() {
        let mut f = Frames::default();
        f.push(b"Content-Type: x\r\n\r\n{}");
        assert!(matches!(f.message(), Err(DapError::Frame(m)) if m.contains("Content-Length")));
        let mut f = Frames::default();
        f.push(b"content-length: 3\r\n\r\n{x}");
        assert!(matches!(f.message(), Err(DapError::Frame(m)) if m.contains("not JSON")));
    }

    /// Responses reach their callers by `request_seq` in any order; a failure carries the
    /// adapter's message; events go to the queue; a closed stream fails what waits.
    #[tokio::test]
    async fn responses_find_their_requests_and_a_close_fails_the_rest() {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(ours);
        let (conn, mut events) = Connection::over(read, write, "test");
        let (mut their_read, mut their_write) = tokio::io::split(theirs);
        let first = conn.send("stackTrace", json!({})).expect("sent");
        let second = conn.send("evaluate", json!({})).expect("sent");
        let third = conn.send("next", json!({})).expect("sent");
        // Read the three requests the adapter got.
        let mut f = Frames::default();
        let mut seqs = Vec::new();
        let mut buf = [0u8; 4096];
        while seqs.len() < 3 {
            let n = their_read.read(&mut buf).await.expect("read");
            f.push(&buf[..n]);
            while let Some(m) = f.message().expect("framed") {
                seqs.push(m["seq"].as_u64().expect("seq"));
            }
        }
        let reply = |seq: u64, success: bool, extra: Value| {
            let mut m = json!({"seq": 100 + seq, "type": "response", "request_seq": seq, "success": success});
            if let (Some(m), Some(e)) = (m.as_object_mut(), extra.as_object()) {
                m.extend(e.clone());
            }
            frame(&m)
        };
        let mut wire = reply(
            seqs[1],
            false,
            json!({"message": "NameError: name 'x' is not defined"}),
        );
        wire.extend(frame(
            &json!({"seq": 50, "type": "event", "event": "stopped", "body": {"reason": "step"}}),
        ));
        wire.extend(reply(seqs[0], true, json!({"body": {"stackFrames": []}})));
        their_write.write_all(&wire).await.expect("write");
        assert_eq!(
            first.await.expect("answered").expect("succeeded"),
            json!({"stackFrames": []})
        );
        assert!(matches!(
            second.await.expect("answered"),
            Err(DapError::Failed { command, message }) if command == "evaluate" && message.starts_with("NameError")
        ));
        let e = events.recv().await.expect("an event");
        assert_eq!(
            (e.event.as_str(), &e.body["reason"]),
            ("stopped", &json!("step"))
        );
        drop(their_write);
        drop(their_read);
        assert!(matches!(
            third.await.expect("answered"),
            Err(DapError::Closed)
        ));
    }
}
