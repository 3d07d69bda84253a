// The network part: answers the module's `net` imports with the browser's WebSocket, so
// jengine-net's client plays online from the page. The module opens, sends, closes and lets go
// of sockets by id, and each frame takes what arrived, one item at a time (socket_next, then
// item_len / item_number / item_copy for its bytes). All the rules (queues, limits, reconnection,
// close reasons) are the module's; this part only keeps what arrived within the bounds the module
// gives at open: a frame over the size limit is dropped here and only its size is kept, and past
// `maxWaiting` unread frames nothing more is kept and the module is told (it closes, 4002).
// Frames are binary (`arraybuffer`). Every socket is let go when the instance stops.
"use strict";
(window.jengineParts = window.jengineParts || []).push((() => {
  // What socket_next returns (packages/jengine-net/src/client/web.rs).
  const OPENED = 1, BINARY = 2, TEXT = 3, TOO_LARGE = 4, CLOSED = 5, LOST = 6, BEHIND = 7;
  const encoder = new TextEncoder();
  const none = { kind: 0, number: 0, bytes: null };
  const sockets = new Map();
  let nextId = 1, item = none, host = null;

  function open(ptr, len, maxFrame, maxWaiting, maxBuffered) {
    let ws;
    try {
      ws = new WebSocket(host.text(ptr, len));
    } catch (e) {
      console.warn("jengine net: " + e.message);
      return 0;
    }
    ws.binaryType = "arraybuffer";
    const s = { ws, queue: [], waiting: 0, maxFrame, maxWaiting, maxBuffered, behind: false };
    const push = (entry) => s.queue.push(entry);
    ws.onopen = () => push({ kind: OPENED, number: 0, bytes: null });
    ws.onmessage = (e) => {
      if (s.behind) return;
      if (s.waiting >= s.maxWaiting) {
        s.behind = true;
        push({ kind: BEHIND, number: s.waiting, bytes: null });
        return;
      }
      s.waiting++;
      if (typeof e.data === "string") push({ kind: TEXT, number: 0, bytes: null, message: true });
      else if (e.data.byteLength > s.maxFrame) push({ kind: TOO_LARGE, number: e.data.byteLength, bytes: null, message: true });
      else push({ kind: BINARY, number: 0, bytes: new Uint8Array(e.data), message: true });
    };
    ws.onclose = (e) => push(e.wasClean
      ? { kind: CLOSED, number: e.code, bytes: encoder.encode(e.reason) }
      : { kind: LOST, number: e.code, bytes: null });
    const id = nextId++;
    sockets.set(id, s);
    return id;
  }

  function send(id, ptr, len) {
    const s = sockets.get(id);
    if (!s || s.ws.readyState !== WebSocket.OPEN || s.ws.bufferedAmount > s.maxBuffered) return 0;
    s.ws.send(host.bytes(ptr, len).slice());
    return 1;
  }

  function close(id, code, ptr, len) {
    const s = sockets.get(id);
    if (!s) return;
    try {
      s.ws.close(code, host.text(ptr, len));
    } catch (e) {
      s.ws.close();
    }
  }

  function forget(id) {
    const s = sockets.get(id);
    if (!s) return;
    sockets.delete(id);
    s.ws.onopen = s.ws.onmessage = s.ws.onclose = null;
    if (s.ws.readyState === WebSocket.CONNECTING || s.ws.readyState === WebSocket.OPEN) s.ws.close();
  }

  function next(id) {
    const s = sockets.get(id);
    item = (s && s.queue.shift()) || none;
    if (item.message) s.waiting--;
    return item.kind;
  }

  return {
    imports(h) {
      host = h;
      return {
        net: {
          socket_open: open,
          socket_send: send,
          socket_close: close,
          socket_forget: forget,
          socket_next: next,
          item_len: () => (item.bytes ? item.bytes.length : 0),
          item_number: () => item.number,
          item_copy: (ptr) => { if (item.bytes) host.bytes(ptr, item.bytes.length).set(item.bytes); },
        },
      };
    },
    stopped() {
      for (const id of [...sockets.keys()]) forget(id);
      item = none;
    },
  };
})());
