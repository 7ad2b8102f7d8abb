//! A thin inspector-protocol client (CDP, or WebKit's) over one websocket: requests matched to
//! replies by id, events routed by flat-mode `sessionId` (Chromium targets) or to the single
//! default route (Node, Deno, Bun).
//!
//! Events are kept as raw JSON and parsed leniently by the adapter: chromiumoxide's typed CDP
//! events (generated for one CDP revision) fail on Node 20 (no `buildId` in `scriptParsed`, a
//! `Break on start` pause reason outside the enum) and on Chromium 156 (a new `subtype`), and a
//! typed event that fails to parse is dropped.

use futures_util::{SinkExt, StreamExt};

/// The tracing target of every message sent (`>`) and received (`<`), whole:
/// `--log morphtrace::inspector::wire=trace` prints the protocol as it went.
pub const WIRE: &str = "morphtrace::inspector::wire";
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, Clone, thiserror::Error)]
pub enum InspectorError {
    #[error("{method}: protocol error {code}: {message}")]
    Protocol {
        method: String,
        code: i64,
        message: String,
    },
    #[error("the debugger connection closed")]
    Closed,
    #[error("{0}: no reply within {1:?}")]
    Timeout(String, Duration),
    #[error("websocket: {0}")]
    Ws(String),
}

#[derive(Debug, Clone)]
pub struct InspectorEvent {
    pub method: String,
    pub params: Value,
}

type Reply = Result<Value, InspectorError>;

struct Inner {
    out: mpsc::UnboundedSender<Message>,
    pending: Mutex<HashMap<u64, (String, oneshot::Sender<Reply>)>>,
    routes: Mutex<HashMap<String, mpsc::UnboundedSender<InspectorEvent>>>,
    next_id: AtomicU64,
    /// The websocket's address, naming the connection in the wire trace.
    url: String,
}

/// A cheap, clonable handle on one websocket to a debugger.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

/// The route key of events without a `sessionId` (Node, the browser target itself).
const DEFAULT_ROUTE: &str = "";

impl Connection {
    /// Connects to a `ws://127.0.0.1:PORT/...` debugger URL.
    pub async fn connect(url: &str) -> Result<Connection, InspectorError> {
        let addr = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| InspectorError::Ws(format!("{url}: not a ws:// URL")))?;
        let tcp = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| InspectorError::Ws(format!("{url}: {e}")))?;
        // CDP is many small request/reply pairs: no Nagle on our side, no delayed ACKs either.
        tcp.set_nodelay(true)
            .map_err(|e| InspectorError::Ws(format!("{url}: {e}")))?;
        let (ws, _) =
            tokio_tungstenite::client_async(url, crate::debugger::quickack::QuickAck(tcp))
                .await
                .map_err(|e| InspectorError::Ws(format!("{url}: {e}")))?;
        let (mut sink, mut stream) = ws.split();
        let (out, mut out_rx) = mpsc::unbounded_channel::<Message>();
        let inner = Arc::new(Inner {
            out,
            pending: Mutex::new(HashMap::new()),
            routes: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            url: url.to_string(),
        });
        tokio::spawn(async move {
            while let Some(m) = out_rx.recv().await {
                if sink.send(m).await.is_err() {
                    break;
                }
            }
            let _ = sink.close().await;
        });
        let reader = inner.clone();
        tokio::spawn(async move {
            while let Some(msg) = stream.next().await {
                let text = match msg {
                    Ok(Message::Text(t)) => t.to_string(),
                    Ok(Message::Binary(b)) => String::from_utf8_lossy(&b).into_owned(),
                    Ok(Message::Close(_)) | Err(_) => break,
                    Ok(_) => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    tracing::warn!("unparsable CDP message: {text:.200}");
                    continue;
                };
                tracing::trace!(target: WIRE, url = %reader.url, "< {text}");
                if v.get("id").is_none() {
                    tracing::trace!(event = %v.get("method").and_then(|m| m.as_str()).unwrap_or(""), "cdp event");
                }
                reader.dispatch(v);
            }
            // Connection gone: fail every waiter and end every event stream.
            let pending: Vec<_> = reader
                .pending
                .lock()
                .map(|mut p| p.drain().collect())
                .unwrap_or_default();
            for (_, (_, tx)) in pending {
                let _ = tx.send(Err(InspectorError::Closed));
            }
            if let Ok(mut r) = reader.routes.lock() {
                r.clear();
            }
        });
        Ok(Connection { inner })
    }

    /// Events of one flat session (or of the default route when `session` is `None`).
    pub fn subscribe(&self, session: Option<&str>) -> mpsc::UnboundedReceiver<InspectorEvent> {
        let (tx, rx) = mpsc::unbounded_channel();
        if let Ok(mut r) = self.inner.routes.lock() {
            r.insert(session.unwrap_or(DEFAULT_ROUTE).to_string(), tx);
        }
        rx
    }

    pub fn unsubscribe(&self, session: Option<&str>) {
        if let Ok(mut r) = self.inner.routes.lock() {
            r.remove(session.unwrap_or(DEFAULT_ROUTE));
        }
    }

    /// Sends a command and returns the receiver of its reply without waiting for it.
    pub fn send(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> oneshot::Receiver<Reply> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        if let Ok(mut p) = self.inner.pending.lock() {
            p.insert(id, (method.to_string(), tx));
        }
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let text = msg.to_string();
        tracing::trace!(target: WIRE, url = %self.inner.url, "> {text}");
        if self.inner.out.send(Message::Text(text.into())).is_err() {
            if let Ok(mut p) = self.inner.pending.lock() {
                if let Some((_, tx)) = p.remove(&id) {
                    let _ = tx.send(Err(InspectorError::Closed));
                }
            }
        }
        rx
    }

    /// Sends a command and waits for its reply, at most `timeout`.
    pub async fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, InspectorError> {
        let t0 = std::time::Instant::now();
        let rx = self.send(session, method, params);
        let reply = tokio::time::timeout(timeout, rx).await;
        tracing::trace!(method, us = t0.elapsed().as_micros() as u64, "cdp call");
        match reply {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(InspectorError::Closed),
            Err(_) => Err(InspectorError::Timeout(method.to_string(), timeout)),
        }
    }

    pub fn close(&self) {
        let _ = self.inner.out.send(Message::Close(None));
    }
}

impl Inner {
    fn dispatch(&self, v: Value) {
        if let Some(id) = v.get("id").and_then(Value::as_u64) {
            let waiter = self.pending.lock().ok().and_then(|mut p| p.remove(&id));
            if let Some((method, tx)) = waiter {
                let reply = match v.get("error") {
                    Some(e) => Err(InspectorError::Protocol {
                        method,
                        code: e.get("code").and_then(Value::as_i64).unwrap_or(0),
                        message: e
                            .get("message")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                    }),
                    None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
                };
                let _ = tx.send(reply);
            }
            return;
        }
        let Some(method) = v.get("method").and_then(Value::as_str) else {
            return;
        };
        let route = v
            .get("sessionId")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_ROUTE);
        let tx = self.routes.lock().ok().and_then(|r| r.get(route).cloned());
        if let Some(tx) = tx {
            let _ = tx.send(InspectorEvent {
                method: method.to_string(),
                params: v.get("params").cloned().unwrap_or(Value::Null),
            });
        }
    }
}
