//! The stdio transport: one JSON-RPC message per line, as MCP's stdio transport says, with a
//! size limit and an answer for every bad line.
//!
//! The SDK's own line transport drops a line that is too long or is not JSON without a word,
//! which leaves the client waiting for an answer that never comes. This one answers instead:
//! a line over the limit gets `-32600` (invalid request) with the request's id when the first
//! bytes name it, text that is not JSON gets `-32700` (parse error), and JSON that is not an
//! MCP message gets `-32600` with its id. Memory stays within the limit: the rest of a long
//! line is read and thrown away, never buffered. A notification that does not parse is not
//! answered (JSON-RPC never answers notifications); a line too long to read whole is answered
//! even so, since it cannot be told from a request.

use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::model::{ErrorData, NumberOrString, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// How much of an over-long line is kept to find its id.
const HEAD: usize = 64 * 1024;

/// A line transport over a reader and a writer (the server's stdin and stdout).
pub struct Lines<R, W> {
    read: BufReader<R>,
    /// The line being read (at most `max` bytes).
    line: Vec<u8>,
    /// The most bytes one message may have.
    max: usize,
    /// Inside a line already refused as too long: its rest is skipped up to the newline.
    skipping: bool,
    /// The start of the refused line, kept to find its id.
    head: Vec<u8>,
    write: Arc<Mutex<W>>,
}

/// What one bounded line read found.
enum Read {
    Line,
    /// A line longer than the limit; its head is in `head`.
    TooLong,
    End,
}

impl<R, W> Lines<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport that refuses messages over `max` bytes.
    pub fn new(read: R, write: W, max: usize) -> Self {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            max,
            skipping: false,
            head: Vec::new(),
            write: Arc::new(Mutex::new(write)),
        }
    }

    /// Reads up to the next newline without ever holding more than `max` bytes. Cancel-safe:
    /// nothing is awaited between copying a chunk and consuming it, so a cancelled read
    /// leaves its partial line in `self.line` for the next call.
    async fn read_line(&mut self) -> Read {
        loop {
            let (used, done) = {
                let chunk = match self.read.fill_buf().await {
                    Ok(c) => c,
                    Err(_) => return Read::End,
                };
                if chunk.is_empty() {
                    return Read::End;
                }
                let newline = chunk.iter().position(|&b| b == b'\n');
                let used = newline.map_or(chunk.len(), |i| i + 1);
                let done = newline.is_some();
                if !self.skipping && self.line.len() + used > self.max {
                    self.head = std::mem::take(&mut self.line);
                    self.head.truncate(HEAD);
                    let room = HEAD.saturating_sub(self.head.len()).min(used);
                    self.head.extend_from_slice(&chunk[..room]);
                    self.skipping = true;
                } else if !self.skipping {
                    self.line.extend_from_slice(&chunk[..used]);
                } else if self.head.len() < HEAD {
                    let room = (HEAD - self.head.len()).min(used);
                    self.head.extend_from_slice(&chunk[..room]);
                }
                (used, done)
            };
            self.read.consume(used);
            if done {
                if self.skipping {
                    self.skipping = false;
                    return Read::TooLong;
                }
                return Read::Line;
            }
        }
    }

    /// Sends an error response. The write runs on its own task, so that a cancelled
    /// `receive` never leaves half a line on the output.
    fn answer(&self, error: ErrorData, id: Option<RequestId>) {
        let message = TxJsonRpcMessage::<RoleServer>::error(error, id);
        let write = self.write.clone();
        tokio::spawn(async move {
            let _ = write_line(&write, &message).await;
        });
    }
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = self.write.clone();
        async move { write_line(&write, &item).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Read::End => return None,
                Read::TooLong => {
                    let head = std::mem::take(&mut self.head);
                    self.answer(
                        ErrorData::invalid_request(
                            format!(
                                "request too large: over {} bytes, the limit of this server \
                                 (v4a mcp --max-request-bytes); nothing was done",
                                self.max
                            ),
                            None,
                        ),
                        peek_id(&head),
                    );
                    continue;
                }
                Read::Line => {}
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if let Some(message) = self.parse(text) {
                return Some(message);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.write.lock().await.flush().await
    }
}

impl<R, W> Lines<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// The message on a line, or `None` after answering (or ignoring) a bad one.
    fn parse(&self, text: &[u8]) -> Option<RxJsonRpcMessage<RoleServer>> {
        let value: Value = match serde_json::from_slice(text) {
            Ok(v) => v,
            Err(e) => {
                self.answer(
                    ErrorData::parse_error(format!("the message is not JSON: {e}"), None),
                    None,
                );
                return None;
            }
        };
        let Value::Object(object) = &value else {
            self.answer(
                ErrorData::invalid_request(
                    "a message must be one JSON-RPC object (batches are not part of MCP)",
                    None,
                ),
                None,
            );
            return None;
        };
        let id = object.get("id").and_then(request_id);
        let is_notification = !object.contains_key("id") && object.contains_key("method");
        match serde_json::from_value(value) {
            Ok(message) => Some(message),
            // A notification is never answered, even a malformed or unknown one.
            Err(_) if is_notification => None,
            Err(e) => {
                self.answer(
                    ErrorData::invalid_request(format!("not a valid MCP message: {e}"), None),
                    id,
                );
                None
            }
        }
    }
}

async fn write_line<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(io::Error::other)?;
    bytes.push(b'\n');
    let mut w = write.lock().await;
    w.write_all(&bytes).await?;
    w.flush().await
}

fn request_id(v: &Value) -> Option<RequestId> {
    match v {
        Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

/// The top-level `id` of a JSON object cut short (`None` when the cut comes before it, as in
/// a request whose huge `params` precede its id: that one is answered without an id).
fn peek_id(head: &[u8]) -> Option<RequestId> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};

    struct Peek<'a>(&'a mut Option<Value>);
    impl<'de> Visitor<'de> for Peek<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<String>()? {
                if key == "id" {
                    *self.0 = Some(map.next_value::<Value>()?);
                    return Ok(());
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut id = None;
    // The text is cut short, so the parse ends in an error after the id (if any) was seen.
    let _ = serde_json::Deserializer::from_slice(head).deserialize_map(Peek(&mut id));
    id.as_ref().and_then(request_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_of_a_cut_message_is_found_at_the_top_level_only() {
        let id = peek_id(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":"#);
        assert_eq!(id, Some(NumberOrString::Number(7)));
        let id = peek_id(br#"{"method":"tools/call","params":{"id":99,"input":"aaaa"#);
        assert_eq!(id, None);
        let id = peek_id(br#"{"params":{"a":[1,{"id":3}]},"id":"r-1","#);
        assert_eq!(id, Some(NumberOrString::String("r-1".into())));
        assert_eq!(peek_id(b"not json at all"), None);
    }
}
