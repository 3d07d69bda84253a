// The page's sound: plays what the module mixed, through Web Audio, and tells the module how
// far playback got, which is what the game's music clock reads.
//
// After each fixed step the part takes the newly mixed samples (48 kHz stereo, the mixer's own
// rate) and schedules them as one AudioBufferSourceNode that starts exactly where the last one
// ends, so the stream plays without gaps. The module keeps about 80 ms queued in front of what
// has played; a late frame eats into that margin rather than into the sound. Scheduled buffers
// were chosen over an AudioWorklet: they need no second script or thread, work on a page that
// is not a secure context, and the audio clock (`currentTime`) says at once what has played.
//
// Browsers start sound only from a user's gesture: until one, and whenever the context is not
// running (suspended, closed), the module counts each step's sound as played without anyone
// hearing it, exactly as a headless run does. `?silent` in the address keeps it that way, and
// so does `?trace` (its trace is meant to match a headless run's) unless `?sound` is given too.
//
// `jengine.audio` is what tests read: `state`, `taken` and `played` (frames of the mixed stream),
// `underruns` (times the output ran dry) and `clock()` (the module's own count and music clock).
"use strict";
(window.jengineParts = window.jengineParts || []).push((() => {
  const RATE = 48000;
  // Buffers that start later than this after the output ran dry are started this far ahead.
  const RESTART_S = 0.02;
  const params = new URLSearchParams(location.search);
  const silent = params.has("silent") || (params.has("trace") && !params.has("sound"));
  const api = {
    state: silent ? "silent" : "waiting for a gesture", taken: 0, played: 0, underruns: 0,
    clock: () => null,
  };
  let ctx = null, ex = null, on = false;
  // Buffers scheduled and not yet over: { at (stream frame), frames, start (context seconds) }.
  let playing = [], next = 0, playedTo = 0;

  function running() { return ctx !== null && ctx.state === "running"; }

  // Stops every scheduled buffer: the instance went, or the context stopped running.
  function drop() {
    for (const b of playing) { try { b.node.stop(); } catch (_) { /* already over */ } }
    playing = []; next = 0;
  }

  function setOutput(now) {
    if (!ex || on === now) return;
    on = now;
    drop();
    ex.jengine_audio_output(now ? 1 : 0);
    if (!silent) api.state = now ? "running" : ctx ? ctx.state : "waiting for a gesture";
  }

  // The stream frame the output has reached, from the audio clock.
  function reached() {
    const now = ctx.currentTime;
    while (playing.length) {
      const b = playing[0];
      if (now < b.start) break;
      const into = Math.floor((now - b.start) * RATE);
      if (into < b.frames) { playedTo = Math.max(playedTo, b.at + into); break; }
      playedTo = Math.max(playedTo, b.at + b.frames);
      playing.shift();
    }
    return playedTo;
  }

  function schedule(frames, at) {
    const samples = new Float32Array(ex.memory.buffer, ex.jengine_audio_samples(), frames * 2);
    const buffer = ctx.createBuffer(2, frames, RATE);
    const left = buffer.getChannelData(0), right = buffer.getChannelData(1);
    for (let i = 0; i < frames; i++) { left[i] = samples[2 * i]; right[i] = samples[2 * i + 1]; }
    const node = ctx.createBufferSource();
    node.buffer = buffer;
    node.connect(ctx.destination);
    let start = next;
    if (start < ctx.currentTime) {
      if (next !== 0) api.underruns++;
      start = ctx.currentTime + RESTART_S;
      // Nothing before this buffer is still to play: the clock moves on to its start.
      playedTo = Math.max(playedTo, at);
    }
    node.start(start);
    next = start + frames / RATE;
    playing.push({ node, at, frames, start });
    api.taken += frames;
  }

  return {
    beforeStart(host) {
      window.jengine.audio = api;
      ex = host.exports();
      on = false; playing = []; next = 0; playedTo = 0;
      api.clock = () => (ex && ex.jengine_audio_state() ? JSON.parse(host.answer()) : null);
      if (silent) return;
      host.gesture(() => {
        if (ctx) return;
        try {
          ctx = new AudioContext({ sampleRate: RATE, latencyHint: "interactive" });
        } catch (e) {
          api.state = "unavailable";
          console.warn("no sound: this browser gives the page no audio (" + e + ")");
          return;
        }
        ctx.onstatechange = () => { if (!running()) setOutput(false); };
        ctx.resume().catch((e) => console.warn("the sound did not start: " + e));
      });
    },
    afterStep() {
      if (!ex || silent) return;
      if (!running()) { setOutput(false); return; }
      setOutput(true);
      ex.jengine_audio_played(reached());
      api.played = playedTo;
      const frames = ex.jengine_audio_take();
      if (frames > 0) schedule(frames, ex.jengine_audio_at());
    },
    stopped() {
      drop();
      ex = null; on = false;
    },
  };
})());
