// The jengine web loader: fetches game.wasm and game.bundle, runs the game's fixed 60 Hz steps
// from requestAnimationFrame, draws each new frame to the canvas at the device's pixels, and
// hands pointer, touch, keyboard, text and paste events to the module in the runtime's names.
// A trap (a panic inside the module) is caught: the page says what happened and starts a fresh
// instance from the same compiled module and bundle.
//
// `window.jengine` is what tests read: `state`, `frame()`, `trace` (with `?trace` in the
// address), `recording()`, `pause()`, `resume()`, `replay(text)`, `advance(n)`, `frameRGBA()`,
// `restarts`, `lastError`, `firstFrameMs`.
//
// The page's other jobs (sound, saves, the network, ...) are parts: files loaded before this one
// that each add an object to `window.jengineParts`. A part may give any of:
//   imports(host)      the module imports it answers, as { namespace: { name: function } }
//   beforeStart(host)  called on every fresh instance, after `_initialize` and before the game
//                      starts (saves go in here)
//   afterStep(host)    called after each fixed step
//   stopped(host)      the instance is gone (a trap, a restart, the end): let go of its things
// `host` is the loader's view of the running instance: `exports()`, `bytes(ptr, len)`,
// `text(ptr, len)`, `answer()` (the module's buffer as text), `input(bytes)` (into the input
// area, returns its address), `state()`, `gesture(fn)` (runs fn on the first user gesture),
// `bundle()` (the project's bundle bytes).
"use strict";
(() => {
  const parts = window.jengineParts || [];
  const STEP_MS = 1000 / 60;
  const MAX_STEPS_PER_DRAW = 4;
  const MAX_QUICK_RESTARTS = 3;
  const params = new URLSearchParams(location.search);
  const seed = BigInt.asUintN(64, BigInt(params.get("seed") || "1"));
  const canvas = document.getElementById("game");
  const ctx = canvas.getContext("2d");
  const message = document.getElementById("message");
  const end = document.getElementById("end");
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // Key names as the desktop window gives them to scripts.
  const NAMED = {
    ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down", " ": "space",
    Enter: "enter", Tab: "tab", Backspace: "backspace", Delete: "delete", Insert: "insert",
    Shift: "shift", Control: "ctrl", Alt: "alt", Home: "home", End: "end", PageUp: "pageup",
    PageDown: "pagedown", Escape: "escape", F1: "f1", F2: "f2", F3: "f3", F4: "f4",
  };

  const api = {
    state: "loading", restarts: 0, lastError: null, trace: params.has("trace") ? [] : null,
    width: 0, height: 0, firstFrameMs: null,
  };
  window.jengine = api;

  let module = null, bundle = null, ex = null;
  let started = 0, stepped = 0, drawnFrame = -1, drawnSize = "", paused = params.has("paused");
  let pending = [], pressed = false, quickRestarts = 0, lastStart = 0;

  function bytes(ptr, len) { return new Uint8Array(ex.memory.buffer, ptr, len); }
  function answer() { return decoder.decode(bytes(ex.jengine_buffer(), ex.jengine_buffer_len()).slice()); }
  function write(data) { const ptr = ex.jengine_input(data.length); bytes(ptr, data.length).set(data); return ptr; }

  // Browsers start sound only from a user's gesture: parts wait for the first one here.
  const gestureWaiters = [];
  let gestured = false;
  function gesture(fn) { if (gestured) fn(); else gestureWaiters.push(fn); }
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    addEventListener(type, () => {
      if (gestured) return;
      gestured = true;
      for (const fn of gestureWaiters.splice(0)) fn();
    }, { capture: true });
  }
  const host = {
    exports: () => ex,
    bytes,
    text: (ptr, len) => decoder.decode(bytes(ptr, len).slice()),
    answer: () => answer(),
    input: write,
    state: () => api.state,
    gesture,
    bundle: () => bundle,
  };
  function each(hook) {
    for (const part of parts) if (part[hook]) part[hook](host);
  }
  // Parts hear once that an instance is gone, however it went.
  let live = false;
  function stop() { if (live) { live = false; each("stopped"); } }

  function show(text, button) {
    message.textContent = text;
    if (button) {
      const b = document.createElement("button");
      b.textContent = button.label;
      b.onclick = button.action;
      message.prepend(b);
    }
    message.classList.add("on");
  }

  function printLog() {
    if (!ex.jengine_log()) return;
    for (const line of JSON.parse(answer())) {
      (line.level === "error" ? console.error : line.level === "warn" ? console.warn : console.info)(line.message);
    }
  }

  // A fresh instance: the module's memory starts clean, the bundle is handed in again.
  // Instantiated asynchronously: browsers refuse a large module on the main thread otherwise.
  async function launch() {
    const imports = { clock: { monotonic_ms: () => performance.now(), unix_ms: () => Date.now() } };
    for (const part of parts) {
      if (!part.imports) continue;
      for (const [space, fns] of Object.entries(part.imports(host))) {
        imports[space] = Object.assign(imports[space] || {}, fns);
      }
    }
    stop();
    api.state = "starting";
    ex = (await WebAssembly.instantiate(module, imports)).exports;
    live = true;
    if (ex._initialize) ex._initialize();
    each("beforeStart");
    // `?scene=NAME` and `&arg=..` (repeated) are `jengine run --scene NAME -- ARGS`.
    const launchOptions = { scene: params.get("scene") || null, args: params.getAll("arg") };
    if (launchOptions.scene || launchOptions.args.length) {
      write(encoder.encode(JSON.stringify(launchOptions)));
      if (!ex.jengine_launch()) {
        api.state = "failed";
        api.lastError = answer();
        show("The game cannot start:\n" + api.lastError);
        return false;
      }
    }
    write(bundle);
    if (!ex.jengine_start(Number(seed & 0xffffffffn), Number(seed >> 32n))) {
      api.state = "failed";
      api.lastError = answer();
      show("The game cannot start:\n" + api.lastError);
      return false;
    }
    printLog();
    api.width = ex.jengine_window_width();
    api.height = ex.jengine_window_height();
    started = performance.now();
    lastStart = started;
    stepped = 0; drawnFrame = -1; pending = []; pressed = false;
    if (api.trace) api.trace.length = 0;
    api.state = "running";
    layout();
    return true;
  }

  // Scaled to the window with the project's aspect, letterboxed; the backing store is in
  // device pixels and the frame is drawn at that size, so nothing is stretched.
  function layout() {
    if (!api.width) return;
    const aspect = api.width / api.height;
    const cssW = Math.max(1, Math.min(innerWidth, innerHeight * aspect));
    const cssH = Math.max(1, cssW / aspect);
    const dpr = devicePixelRatio || 1;
    canvas.style.width = cssW + "px";
    canvas.style.height = cssH + "px";
    const w = Math.max(1, Math.round(cssW * dpr)), h = Math.max(1, Math.round(cssH * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }

  function stepOnce() {
    write(encoder.encode(JSON.stringify(pending)));
    pending = [];
    const r = ex.jengine_step();
    if (r === 0) throw new Error(answer());
    if (api.trace && ex.jengine_trace()) api.trace.push(answer());
    printLog();
    each("afterStep");
    if (r === 2) {
      api.state = "ended";
      end.classList.add("on");
      stop();
    }
  }

  function draw() {
    const frame = ex.jengine_frame();
    const size = canvas.width + "x" + canvas.height;
    if (frame === drawnFrame && size === drawnSize) return;
    const ptr = ex.jengine_render(canvas.width, canvas.height);
    if (!ptr) throw new Error(answer());
    const pixels = new Uint8ClampedArray(ex.memory.buffer, ptr, canvas.width * canvas.height * 4);
    ctx.putImageData(new ImageData(pixels, canvas.width, canvas.height), 0, 0);
    printLog();
    drawnFrame = frame; drawnSize = size;
    // Milliseconds from the page's navigation to the first frame on screen.
    if (api.firstFrameMs === null) api.firstFrameMs = performance.now();
  }

  function tick(now) {
    if (api.state !== "running" || paused) return;
    try {
      const due = Math.floor((now - started) / STEP_MS);
      let budget = MAX_STEPS_PER_DRAW;
      while (stepped < due && budget > 0 && api.state === "running") {
        stepOnce();
        stepped++; budget--;
      }
      // Fell behind by more than the budget: the backlog is dropped, as on the desktop.
      stepped = Math.max(stepped, due);
      draw();
    } catch (e) {
      trapped(e);
      return;
    }
    if (api.state === "running") requestAnimationFrame(tick);
  }

  function trapped(e) {
    let what = String(e && e.message || e);
    if (e instanceof WebAssembly.RuntimeError) {
      try { what = answer() || what; } catch (_) { /* the memory is unreadable: keep the trap */ }
    }
    api.lastError = what;
    console.error(what);
    stop();
    quickRestarts = performance.now() - lastStart < 10000 ? quickRestarts + 1 : 1;
    if (quickRestarts > MAX_QUICK_RESTARTS) {
      api.state = "failed";
      show("The game stopped again:\n" + what, { label: "Start again", action: restart });
      return;
    }
    api.restarts++;
    show("The game stopped and was started again:\n" + what, { label: "Close", action: () => message.classList.remove("on") });
    run();
  }

  // Starts a fresh instance and its frames; a trap while starting is handled as any other.
  // With `?paused` in the address the first instance waits for `jengine.resume()` or
  // `jengine.advance(n)` (tests replay input files frame by frame that way).
  function run() {
    launch().then((ok) => { if (ok && !paused) requestAnimationFrame(tick); }, trapped);
  }

  document.getElementById("again").addEventListener("click", () => restart());

  function restart() {
    message.classList.remove("on");
    end.classList.remove("on");
    quickRestarts = 0;
    run();
  }

  // Moves between two frames collapse into the latest one, as on the desktop.
  function push(event) {
    const last = pending[pending.length - 1];
    if (event.type === "pointer" && last && last.type === "pointer" && last.phase === event.phase
        && (event.phase === "hover" || event.phase === "drag")) {
      pending.pop();
    }
    pending.push(event);
  }

  // A pointer position in pixels of the frame last drawn (the host maps it into the world).
  function framePoint(e) {
    const r = canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left) * canvas.width / r.width, y: (e.clientY - r.top) * canvas.height / r.height };
  }

  function pointer(phase, e) {
    if (api.state !== "running") return;
    const p = framePoint(e);
    push({ type: "pointer", phase, x: p.x, y: p.y });
  }

  // Mouse, touch and pen alike: a tap is a press and a release (a click), a swipe a drag.
  canvas.addEventListener("pointerdown", (e) => {
    if (!e.isPrimary || e.button !== 0) return;
    canvas.focus();
    // A pointer the browser does not know as active (a made-up event) cannot be captured.
    try { canvas.setPointerCapture(e.pointerId); } catch (_) { /* drags stay on the canvas */ }
    pressed = true;
    pointer("press", e);
    e.preventDefault();
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!e.isPrimary) return;
    if (!pressed && e.pointerType !== "mouse") return;
    pointer(pressed ? "drag" : "hover", e);
  });
  const release = (e) => {
    if (!e.isPrimary || !pressed) return;
    pressed = false;
    pointer("release", e);
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);

  // The wheel scrolls the game's scroll boxes: sent in notches, above zero away from the
  // player (a browser's deltaY is about 100 pixels, or 3 lines, a notch, and down).
  canvas.addEventListener("wheel", (e) => {
    if (api.state !== "running") return;
    const per = e.deltaMode === 1 ? 3 : e.deltaMode === 2 ? 1 / 3 : 100;
    const dy = -e.deltaY / per;
    if (!dy) return;
    e.preventDefault();
    const p = framePoint(e);
    push({ type: "wheel", x: p.x, y: p.y, dy });
  }, { passive: false });

  function keyName(e) {
    if (Object.prototype.hasOwnProperty.call(NAMED, e.key)) return NAMED[e.key];
    return [...e.key].length === 1 ? e.key.toLowerCase() : null;
  }

  // The browser's paste (Ctrl+V, Shift+Insert) arrives as a paste event with its text; the
  // keys themselves are not passed on, or the runtime would paste its own clipboard too.
  function isPaste(e, name) {
    return (e.ctrlKey && name === "v") || (e.shiftKey && name === "insert");
  }

  // Paste keys pressed and not yet released: their release is not passed on either, even when
  // Ctrl or Shift came up first.
  const pasteHeld = new Set();

  function key(e, down) {
    if (api.state !== "running") return;
    const name = keyName(e);
    if (name === null || e.metaKey) return;
    if (down && isPaste(e, name)) { pasteHeld.add(name); return; }
    if (!down && pasteHeld.delete(name)) return;
    if (!e.repeat) push({ type: "key", key: name, down });
    // Typed characters repeat as text while held; shortcuts (Ctrl without Alt) type nothing.
    if (down && !e.isComposing && [...e.key].length === 1 && !(e.ctrlKey && !e.altKey)) {
      const text = [...e.key].filter((c) => c >= " " && c !== "\u007f").join("");
      if (text) push({ type: "text", text });
    }
    if (!(e.ctrlKey && (name === "c" || name === "x"))) e.preventDefault();
  }
  addEventListener("keydown", (e) => key(e, true));
  addEventListener("keyup", (e) => key(e, false));
  addEventListener("paste", (e) => {
    const text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (text && api.state === "running") push({ type: "text", text });
    e.preventDefault();
  });
  addEventListener("resize", () => { layout(); });

  api.frame = () => (ex ? ex.jengine_frame() : 0);
  api.recording = () => (ex && ex.jengine_recording() ? answer() : "[]");
  // Stops stepping and draws the frame just run, so a reader sees the frame and trace agree.
  api.pause = () => {
    paused = true;
    draw();
    return { frame: ex.jengine_frame(), width: canvas.width, height: canvas.height };
  };
  // Plays an input file (its text) from the next frame on, in world units, as a headless
  // replay does.
  api.replay = (text) => {
    write(encoder.encode(text));
    if (!ex.jengine_replay()) throw new Error(answer());
    return ex.jengine_replay_end();
  };
  // Runs `n` frames now, paused or not, and says where the game is; a trap is handled as in
  // play and reported.
  api.advance = (n) => {
    try {
      for (let i = 0; i < n && api.state === "running"; i++) { stepOnce(); stepped++; }
    } catch (e) {
      trapped(e);
      return { frame: 0, state: api.state, error: api.lastError };
    }
    return { frame: ex.jengine_frame(), state: api.state };
  };
  // Figures: runs `n` steps, each followed by a `w`x`h` render, and gives each one's
  // milliseconds; the module's memory in bytes.
  api.timeFrames = (n, w, h) => {
    const step = [], render = [];
    for (let i = 0; i < n && api.state === "running"; i++) {
      const t0 = performance.now();
      stepOnce(); stepped++;
      const t1 = performance.now();
      if (!ex.jengine_render(w, h)) throw new Error(answer());
      render.push(performance.now() - t1);
      step.push(t1 - t0);
    }
    return { step, render };
  };
  api.memoryBytes = () => (ex ? ex.memory.buffer.byteLength : 0);
  api.resume = () => { if (paused) { paused = false; started = performance.now() - stepped * STEP_MS; requestAnimationFrame(tick); } };
  // The last frame drawn, as base64 RGBA (tests compare it with a native frame).
  api.frameRGBA = () => {
    const ptr = ex.jengine_render(canvas.width, canvas.height);
    const pixels = bytes(ptr, canvas.width * canvas.height * 4);
    let s = "";
    for (let i = 0; i < pixels.length; i += 0x8000) s += String.fromCharCode.apply(null, pixels.subarray(i, i + 0x8000));
    return btoa(s);
  };
  // A --dev build's deliberate panic: the trap is caught and the game starts again.
  api.crash = () => {
    if (!ex.jengine_crash) throw new Error("only a web build made with --dev can crash on purpose");
    try { ex.jengine_crash(); } catch (e) { trapped(e); }
  };

  async function boot() {
    try {
      const [wasm, data] = await Promise.all([fetch("game.wasm"), fetch("game.bundle")]);
      if (!wasm.ok || !data.ok) throw new Error(`cannot fetch the game (game.wasm ${wasm.status}, game.bundle ${data.status})`);
      module = await WebAssembly.compile(await wasm.arrayBuffer());
      bundle = new Uint8Array(await data.arrayBuffer());
    } catch (e) {
      api.state = "failed";
      api.lastError = String(e && e.message || e);
      show("The game cannot load:\n" + api.lastError);
      return;
    }
    restart();
  }
  boot();
})();
