//! A small client for Firefox's Remote Debugging Protocol: `<length>:<JSON>` packets over one
//! loopback TCP connection. Replies carry no request id: each actor answers its requests in
//! order, so pending requests wait in one FIFO per actor. Events (packets whose `type` is a
//! known event) go to a single event stream. A reply that does not come in time desynchronizes
//! its actor's FIFO for good, so a timeout poisons the connection: every later call fails and
//! the engine is restarted.

use serde_json::{Map, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

/// Longest packet accepted: a malformed length must not make us allocate gigabytes.
const MAX_PACKET: usize = 256 << 20;

#[derive(Debug, Clone, thiserror::Error)]
pub enum RdpError {
    /// The server answered with an `error` packet (e.g. `noSuchActor`, `wrongState`).
    #[error("{to}.{method}: {error}: {message}")]
    Server {
        to: String,
        method: String,
        error: String,
        message: String,
    },
    #[error("the debugger connection closed")]
    Closed,
    #[error("{0}: no reply within {1:?}")]
    Timeout(String, Duration),
    #[error("malformed packet: {0}")]
    Malformed(String),
    #[error("connection: {0}")]
    Io(String),
}

/// Packet types that are events, never replies (docs/debugger-protocols.md §3.2).
const EVENT_TYPES: &[&str] = &[
    "paused",
    "resumed",
    "newSource",
    "target-available-form",
    "target-destroyed-form",
    "resources-available-array",
    "resources-updated-array",
    "resources-destroyed-array",
    "evaluationResult",
    "frameUpdate",
    "tabListChanged",
    "descriptor-destroyed",
    "tabNavigated",
    "workerListChanged",
    "forwardingCancelled",
];

pub fn is_event(packet: &Value) -> bool {
    packet
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| EVENT_TYPES.contains(&t))
}

type Reply = Result<Value, RdpError>;
/// Requests waiting for a reply, per actor, in the order they were sent: (method, reply slot).
type Pending = HashMap<String, VecDeque<(String, oneshot::Sender<Reply>)>>;

struct Inner {
    /// Taken by `close`: dropping it ends the writer task, which shuts the socket.
    out: Mutex<Option<mpsc::UnboundedSender<Vec<u8>>>>,
    pending: Mutex<Pending>,
    poisoned: AtomicBool,
}

/// A cheap, clonable handle on one RDP connection.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

/// Incremental parser of `<decimal length>:<payload>` packets.
#[derive(Default)]
pub struct Framer {
    buf: Vec<u8>,
}

impl Framer {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete packet, `Ok(None)` if more bytes are needed, `Err` if the stream is
    /// not RDP (the connection cannot be resynchronized then).
    pub fn next_packet(&mut self) -> Result<Option<Value>, RdpError> {
        let Some(colon) = self.buf.iter().take(11).position(|&b| b == b':') else {
            if self.buf.len() > 10 || self.buf.iter().any(|b| !b.is_ascii_digit()) {
                return Err(RdpError::Malformed(format!(
                    "no length prefix in {:?}",
                    String::from_utf8_lossy(&self.buf[..self.buf.len().min(40)])
                )));
            }
            return Ok(None);
        };
        let digits = &self.buf[..colon];
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(RdpError::Malformed(format!(
                "bad length prefix {:?}",
                String::from_utf8_lossy(digits)
            )));
        }
        let len: usize = std::str::from_utf8(digits)
            .ok()
            .and_then(|s| s.parse().ok())
            .filter(|&n| n <= MAX_PACKET)
            .ok_or_else(|| RdpError::Malformed("packet length out of range".into()))?;
        if self.buf.len() < colon + 1 + len {
            return Ok(None);
        }
        let body: Vec<u8> = self.buf.drain(..colon + 1 + len).skip(colon + 1).collect();
        serde_json::from_slice(&body)
            .map(Some)
            .map_err(|e| RdpError::Malformed(format!("JSON: {e}")))
    }
}

pub fn encode(packet: &Value) -> Vec<u8> {
    let body = packet.to_string();
    let mut out = format!("{}:", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

impl Connection {
    /// Connects to a debugger server on loopback. Returns the connection, the server's greeting
    /// and the stream of events.
    pub async fn connect(
        port: u16,
        timeout: Duration,
    ) -> Result<(Connection, Value, mpsc::UnboundedReceiver<Value>), RdpError> {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|e| RdpError::Io(format!("127.0.0.1:{port}: {e}")))?;
        // Many small request/reply pairs: no Nagle.
        tcp.set_nodelay(true)
            .map_err(|e| RdpError::Io(e.to_string()))?;
        // Firefox sends a step's reply and its `paused` event as two segments (see quickack.rs).
        let (mut rd, mut wr) = tokio::io::split(crate::debugger::quickack::QuickAck(tcp));
        let (out, mut out_rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let (ev_tx, ev_rx) = mpsc::unbounded_channel::<Value>();
        let (greet_tx, greet_rx) = oneshot::channel::<Value>();
        let inner = Arc::new(Inner {
            out: Mutex::new(Some(out)),
            pending: Mutex::new(HashMap::new()),
            poisoned: AtomicBool::new(false),
        });
        tokio::spawn(async move {
            while let Some(bytes) = out_rx.recv().await {
                if wr.write_all(&bytes).await.is_err() {
                    break;
                }
            }
            // Closed by us: tell the server (it then drops this connection's watcher).
            let _ = wr.shutdown().await;
        });
        let reader = Arc::downgrade(&inner);
        tokio::spawn(async move {
            let mut framer = Framer::default();
            let mut greet = Some(greet_tx);
            let mut chunk = vec![0u8; 64 * 1024];
            'read: loop {
                let n = match rd.read(&mut chunk).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                framer.push(&chunk[..n]);
                loop {
                    let packet = match framer.next_packet() {
                        Ok(Some(p)) => p,
                        Ok(None) => break,
                        Err(e) => {
                            tracing::warn!("RDP: {e}; closing the connection");
                            break 'read;
                        }
                    };
                    if let Some(g) = greet.take() {
                        let _ = g.send(packet);
                        continue;
                    }
                    let Some(inner) = reader.upgrade() else {
                        break 'read;
                    };
                    route(&inner, &ev_tx, packet);
                }
            }
            // Fail whatever still waits: the server is gone.
            if let Some(inner) = reader.upgrade() {
                let waiting: Vec<_> = inner
                    .pending
                    .lock()
                    .map(|mut p| p.drain().flat_map(|(_, q)| q).collect())
                    .unwrap_or_default();
                for (_, tx) in waiting {
                    let _ = tx.send(Err(RdpError::Closed));
                }
                inner.poisoned.store(true, Ordering::SeqCst);
            }
        });
        let greeting = tokio::time::timeout(timeout, greet_rx)
            .await
            .map_err(|_| RdpError::Timeout("greeting".into(), timeout))?
            .map_err(|_| RdpError::Closed)?;
        Ok((Connection { inner }, greeting, ev_rx))
    }

    /// Sends `{"to": to, "type": method, ...fields}` and waits for the actor's reply.
    pub async fn request(
        &self,
        to: &str,
        method: &str,
        fields: Value,
        timeout: Duration,
    ) -> Result<Value, RdpError> {
        if self.inner.poisoned.load(Ordering::SeqCst) {
            return Err(RdpError::Closed);
        }
        let mut packet = match fields {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        packet.insert("to".into(), Value::String(to.into()));
        packet.insert("type".into(), Value::String(method.into()));
        let (tx, rx) = oneshot::channel();
        {
            // Queue and send under one lock: the FIFO order must be the wire order.
            let mut pending = self.inner.pending.lock().map_err(|_| RdpError::Closed)?;
            pending
                .entry(to.to_string())
                .or_default()
                .push_back((method.to_string(), tx));
            let out = self.inner.out.lock().map_err(|_| RdpError::Closed)?;
            let bytes = encode(&Value::Object(packet));
            tracing::trace!("→ {}", short(&bytes));
            out.as_ref()
                .ok_or(RdpError::Closed)?
                .send(bytes)
                .map_err(|_| RdpError::Closed)?;
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(r)) => r,
            Ok(Err(_)) => Err(RdpError::Closed),
            Err(_) => {
                self.inner.poisoned.store(true, Ordering::SeqCst);
                Err(RdpError::Timeout(format!("{to}.{method}"), timeout))
            }
        }
    }

    /// True once the connection closed or a reply went missing.
    pub fn is_broken(&self) -> bool {
        self.inner.poisoned.load(Ordering::SeqCst)
    }

    /// Closes the connection (the server then drops this connection's watcher and breakpoints).
    pub fn close(&self) {
        self.inner.poisoned.store(true, Ordering::SeqCst);
        if let Ok(mut out) = self.inner.out.lock() {
            out.take();
        }
    }
}

/// A packet's first bytes, for trace logs (`--log morphtrace_recorder::debugger::rdp::connection=trace`).
fn short(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned()
}

fn route(inner: &Inner, events: &mpsc::UnboundedSender<Value>, packet: Value) {
    if tracing::enabled!(tracing::Level::TRACE) {
        tracing::trace!("← {}", short(packet.to_string().as_bytes()));
    }
    let from = packet
        .get("from")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if !is_event(&packet) {
        let waiter = inner
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.get_mut(&from).and_then(VecDeque::pop_front));
        if let Some((method, tx)) = waiter {
            let reply = match packet.get("error").and_then(Value::as_str) {
                Some(error) => Err(RdpError::Server {
                    to: from,
                    method,
                    error: error.to_string(),
                    message: packet
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                }),
                None => Ok(packet),
            };
            let _ = tx.send(reply);
            return;
        }
        // Unsolicited and not a known event type: hand it on as an event.
    }
    let _ = events.send(packet);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn framing_handles_split_and_joined_packets() {
        let mut f = Framer::default();
        let a = encode(&json!({"from": "root", "n": 1}));
        let b = encode(&json!({"from": "x", "s": "ü:9"}));
        let mut all = a.clone();
        all.extend_from_slice(&b);
        for chunk in all.chunks(3) {
            f.push(chunk);
        }
        assert_eq!(f.next_packet().unwrap().unwrap()["n"], 1);
        assert_eq!(f.next_packet().unwrap().unwrap()["s"], "ü:9");
        assert!(f.next_packet().unwrap().is_none());
        f.push(b"12");
        assert!(f.next_packet().unwrap().is_none());
    }

    #[test]
    fn malformed_streams_are_errors_not_panics() {
        for bad in [
            &b"abc:{}"[..],
            b"99999999999:{}",
            b":{}",
            b"2:{x",
            b"4:[1]x",
            b"300000000:",
        ] {
            let mut f = Framer::default();
            f.push(bad);
            let r = f.next_packet();
            assert!(
                r.is_err() || matches!(r, Ok(None)),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        let mut f = Framer::default();
        f.push(b"3:{x}");
        assert!(f.next_packet().is_err());
    }

    #[test]
    fn replies_and_events_are_told_apart() {
        assert!(is_event(&json!({"from": "t", "type": "paused"})));
        // An environment reply has a `type` that is not an event type.
        assert!(!is_event(&json!({"from": "f", "type": "function"})));
        assert!(!is_event(&json!({"from": "t"})));
    }
}
