// The player's data in `localStorage`, so a reload keeps the save.
//
// Before the game starts, the part asks the module for the project's key prefix
// (`jengine/<project name>/`) and hands it every key under it; the module keeps them in memory,
// holds to the store's rules whatever it is given (names, sizes, how many) and says what it
// refused. Refused keys are left exactly as they are. After each step the part asks for the
// changes since (new keys first, so a damaged save set aside as `save.json.bad` is kept before
// anything replaces it) and makes them in order; when the browser refuses a write (its quota is
// full) it says so once, stops there, and tries again a few seconds later, so nothing that came
// after a refused write is made before it.
//
// `jengine.storage` is what tests read: `prefix`, `loaded`, `held`, `problems`, `written` and
// `refused` (the browser's words for the last write it refused).
"use strict";
(window.jengineParts = window.jengineParts || []).push((() => {
  // Steps to wait after a refused write before trying again (5 s).
  const RETRY_STEPS = 300;
  const encoder = new TextEncoder();
  const api = { prefix: null, loaded: [], held: [], problems: [], written: 0, refused: null };
  let ex = null, store = null, wait = 0, quotaSaid = false;

  function say(problem) {
    api.problems.push(problem);
    console.warn(problem);
  }

  // `localStorage` itself may be missing, or throw when touched (storage switched off).
  function open() {
    try {
      const s = window.localStorage;
      void s.length;
      return s;
    } catch (e) {
      say("this browser gives the page no localStorage (" + e + "): the game's data lasts only until the page closes");
      return null;
    }
  }

  return {
    beforeStart(host) {
      window.jengine.storage = api;
      ex = host.exports();
      api.loaded = []; api.held = []; api.problems = []; wait = 0;
      host.input(host.bundle());
      if (!ex.jengine_storage_prefix()) { say("the game's data is kept in memory: " + host.answer()); return; }
      api.prefix = host.answer();
      store = open();
      const entries = [];
      if (store) {
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i);
          if (key !== null && key.startsWith(api.prefix)) entries.push([key.slice(api.prefix.length), store.getItem(key)]);
        }
      }
      host.input(encoder.encode(JSON.stringify(entries)));
      if (!ex.jengine_storage_load()) { say(host.answer()); return; }
      const loaded = JSON.parse(host.answer());
      api.loaded = loaded.loaded;
      api.held = loaded.held;
      for (const problem of loaded.problems) say(problem);
    },
    afterStep(host) {
      if (!ex || !store) return;
      if (wait > 0) { wait--; return; }
      if (!ex.jengine_storage_changes()) return;
      const changes = JSON.parse(host.answer());
      let done = 0;
      for (const [name, value] of changes) {
        const key = api.prefix + name;
        try {
          if (value === null) store.removeItem(key); else store.setItem(key, value);
        } catch (e) {
          api.refused = String(e && e.message || e);
          if (!quotaSaid) {
            quotaSaid = true;
            say("the browser refused to store " + key + " (" + api.refused + "); the game plays on and the write is tried again later");
          }
          wait = RETRY_STEPS;
          break;
        }
        done++;
      }
      api.written += done;
      ex.jengine_storage_written(done);
    },
    stopped() { ex = null; },
  };
})());
