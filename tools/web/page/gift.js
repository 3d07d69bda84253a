// A gift in the address: opening `index.html#gift=<code>` offers that Miau pack to the game,
// as `--gift <link>` does natively. <code> is what follows `#` in a share link (`pack=1.…`) or
// a whole share link, percent-encoded or not.
//
// On every fresh instance, before the game starts, the code goes to the module's `miau_gift`
// export (jengine-miau); the game opens it on its Gift screen for the player to keep or leave,
// or says there why it cannot (the same words as natively), and nothing is installed or lost
// either way. A module without Miau has no such export, and the fragment is left alone.
"use strict";
(window.jengineParts = window.jengineParts || []).push({
  beforeStart(host) {
    const ex = host.exports();
    const hash = location.hash;
    if (!ex.miau_gift || !hash.startsWith("#gift=")) return;
    let code = hash.slice("#gift=".length);
    try {
      code = decodeURIComponent(code);
    } catch {
      // Left as it came: the game refuses what is not a pack, and says so.
    }
    const bytes = new TextEncoder().encode(code);
    ex.miau_gift(host.input(bytes), bytes.length);
  },
});
