//! The page part the browser client speaks through (`tools/web/page/net.js`), run in Node over
//! a `WebSocket` written by hand: a hostile server's oversized frame is dropped there with only
//! its size kept, a flood stops being kept past the bound and says so once, text frames count
//! as frames, closes say whether a close frame came, a send to a socket that is not open (or
//! whose buffer is full) is refused rather than lost, and a socket let go hears nothing more.
//!
//! Without Node the test says so and passes; with `JENGINE_REQUIRE_WASM=1` that is a failure.

use std::path::Path;
use std::process::Command;

const SCRIPT: &str = r#"
const assert = (ok, what) => { if (!ok) { console.error("FAILED: " + what); process.exit(1); } };
const made = [];
class WebSocket {
  static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3;
  constructor(url) {
    if (!url.startsWith("ws://")) throw new SyntaxError("bad url " + url);
    this.url = url; this.readyState = 0; this.bufferedAmount = 0; this.sent = []; this.closed = null;
    made.push(this);
  }
  send(data) { this.sent.push(Array.from(data)); }
  close(code, reason) { this.closed = [code, reason]; this.readyState = 2; }
}
globalThis.window = globalThis;
globalThis.WebSocket = WebSocket;
(0, eval)(PART);
const part = window.jengineParts[0];
const memory = new Uint8Array(4096);
const host = {
  bytes: (ptr, len) => memory.subarray(ptr, ptr + len),
  text: (ptr, len) => new TextDecoder().decode(memory.slice(ptr, ptr + len)),
};
const net = part.imports(host).net;
const put = (ptr, text) => { const b = new TextEncoder().encode(text); memory.set(b, ptr); return b.length; };
function next(id) {
  const kind = net.socket_next(id);
  const len = net.item_len();
  net.item_copy(1024);
  return { kind, number: net.item_number(), bytes: Array.from(memory.slice(1024, 1024 + len)) };
}

// A refused address.
assert(net.socket_open(0, put(0, "http://x/"), 8, 4, 100) === 0, "a bad address is refused");

// max_frame 8, max_waiting 4, max_buffered 100.
const id = net.socket_open(0, put(0, "ws://127.0.0.1:9/"), 8, 4, 100);
assert(id > 0, "a socket opens");
const ws = made[made.length - 1];
assert(ws.binaryType === "arraybuffer", "binary frames arrive as bytes");
assert(next(id).kind === 0, "nothing yet");
memory.set([1, 2, 3], 200);
assert(net.socket_send(id, 200, 3) === 0, "a send before the socket opens is refused");
ws.readyState = 1; ws.onopen();
assert(next(id).kind === 1, "opened");
assert(net.socket_send(id, 200, 3) === 1, "a send to an open socket is taken");
assert(JSON.stringify(ws.sent) === "[[1,2,3]]", "the bytes sent");
ws.bufferedAmount = 101;
assert(net.socket_send(id, 200, 3) === 0, "a full buffer refuses");
ws.bufferedAmount = 0;

// A frame, an oversized one (only its size kept), text, then a flood past four waiting.
ws.onmessage({ data: new Uint8Array([1, 7]).buffer });
ws.onmessage({ data: new ArrayBuffer(1 << 20) });
ws.onmessage({ data: "hello" });
ws.onmessage({ data: new Uint8Array([1, 8]).buffer });
for (let i = 0; i < 10000; i++) ws.onmessage({ data: new Uint8Array([1, 9]).buffer });
let item = next(id);
assert(item.kind === 2 && JSON.stringify(item.bytes) === "[1,7]", "the frame: " + JSON.stringify(item));
item = next(id);
assert(item.kind === 4 && item.number === 1 << 20 && item.bytes.length === 0, "too large: " + JSON.stringify(item));
assert(next(id).kind === 3, "text");
assert(next(id).kind === 2, "the fourth frame");
item = next(id);
assert(item.kind === 7 && item.number === 4, "behind, once: " + JSON.stringify(item));
assert(next(id).kind === 0, "nothing kept after the flood");

// A clean close with words, and a lost one.
ws.onclose({ wasClean: true, code: 1001, reason: "the server is shutting down" });
item = next(id);
assert(item.kind === 5 && item.number === 1001 &&
  new TextDecoder().decode(new Uint8Array(item.bytes)) === "the server is shutting down", "closed: " + JSON.stringify(item));
const other = net.socket_open(0, put(0, "ws://127.0.0.1:9/"), 8, 4, 100);
const ws2 = made[made.length - 1];
ws2.onclose({ wasClean: false, code: 1006, reason: "" });
item = next(other);
assert(item.kind === 6 && item.number === 1006, "lost: " + JSON.stringify(item));

// A close the module starts, with its words; a socket let go hears nothing more.
const third = net.socket_open(0, put(0, "ws://127.0.0.1:9/"), 8, 4, 100);
const ws3 = made[made.length - 1];
ws3.readyState = 1;
net.socket_close(third, 1000, 300, put(300, "closed by the client"));
assert(JSON.stringify(ws3.closed) === '[1000,"closed by the client"]', "the close frame");
const fourth = net.socket_open(0, put(0, "ws://127.0.0.1:9/"), 8, 4, 100);
const ws4 = made[made.length - 1];
ws4.readyState = 1;
net.socket_forget(fourth);
assert(ws4.closed !== null && ws4.onmessage === null, "a socket let go is closed and deaf");
assert(next(fourth).kind === 0 && net.socket_send(fourth, 200, 3) === 0, "and unknown");
// The instance stops: every socket is let go.
part.stopped(host);
assert(next(third).kind === 0, "gone with the instance");
console.log("ok");
"#;

#[test]
fn the_page_part_keeps_the_bounds_it_is_given_against_a_hostile_server() {
    let part = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/web/page/net.js");
    let part = std::fs::read_to_string(&part).unwrap();
    let script = format!(
        "const PART = {};\n{SCRIPT}",
        serde_json::to_string(&part).unwrap()
    );
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("jengine_net_page_part.mjs");
    std::fs::write(&file, script).unwrap();
    let run = match Command::new("node").arg(&file).output() {
        Ok(run) => run,
        Err(e) => {
            let why = format!(
                "the page part's test needs Node ({e}); install with: apt-get install nodejs"
            );
            assert!(
                std::env::var("JENGINE_REQUIRE_WASM").as_deref() != Ok("1"),
                "{why} (JENGINE_REQUIRE_WASM=1, so this cannot be skipped)"
            );
            eprintln!("skipped: {why}");
            return;
        }
    };
    assert!(
        run.status.success() && String::from_utf8_lossy(&run.stdout).trim() == "ok",
        "net.js in Node:\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}
