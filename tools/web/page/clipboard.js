// The clipboard where the browser allows it: a copy from a script (`Clipboard.copy`) is written
// with `navigator.clipboard.writeText`. Where the page may not write it (no clipboard API
// outside a secure context, permission refused, the page not focused) the module is told once,
// its log says so, and copies stay in memory from then on, as on a desktop without a
// clipboard. Pastes need nothing here: the loader passes the browser's paste on as text.
//
// `jengine.clipboard` is what tests read: `written` (copies the browser took), `refused` (its
// words, once it refused).
"use strict";
(window.jengineParts = window.jengineParts || []).push((() => {
  const encoder = new TextEncoder();
  const api = { written: 0, refused: null };
  let ex = null, host = null, told = false;

  // Said to the module once per instance, after its game started (a fresh instance hears it too).
  function refused(why) {
    if (api.refused === null) api.refused = why;
  }

  return {
    beforeStart(h) {
      window.jengine.clipboard = api;
      host = h; ex = h.exports(); told = false;
    },
    afterStep() {
      if (!ex) return;
      if (api.refused !== null && !told) {
        told = true;
        host.input(encoder.encode(api.refused));
        ex.jengine_clipboard_refused();
      }
      if (!ex.jengine_clipboard_take()) return;
      const text = host.answer();
      const board = navigator.clipboard;
      if (!board || !board.writeText) { refused("this page has no clipboard API; it needs a secure context"); return; }
      board.writeText(text).then(() => { api.written++; }, (e) => refused(String(e && e.message || e)));
    },
    stopped() { ex = null; },
  };
})());
