// Basic Proofs: three small gardens, each about one property.
const { word, object, level } = require('@miau/engine');

// A row of hedge objects from x0 to x1 (inclusive) on row y, skipping the listed gaps.
function hedges(y, x0, x1, gaps) {
  const out = [];
  for (let x = x0; x <= x1; x++) {
    if (!(gaps || []).includes(x)) out.push(object('HEDGE', x, y));
  }
  return out;
}

function sentence(x, y, ...words) {
  return words.map((w, i) => word(w, x + i, y));
}

module.exports = {
  manifest: { id: 'garden-basics', name: 'Basic Proofs', version: '1.0.0', engine: 1 },
  palette: {
    CAT: { glyph: '🐈', faces: 'left' },
    FLAG: '🚩',
    ROCK: '🪨',
    HEDGE: '🌳',
    POND: '🌊',
    THORN: '🌵',
  },
  vocabulary: ['CAT', 'FLAG', 'ROCK', 'HEDGE', 'POND', 'THORN'],
  levels: [
    level(7, 6, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      ...sentence(4, 0, 'ROCK', 'IS', 'PUSH'),
      ...hedges(1, 0, 6, [2, 3]),
      object('CAT', 0, 2), object('ROCK', 3, 2), object('FLAG', 6, 2),
      ...hedges(3, 0, 6, [3]),
      ...hedges(4, 2, 4),
      ...sentence(0, 5, 'FLAG', 'IS', 'WIN'),
      ...sentence(4, 5, 'HEDGE', 'IS', 'STOP'),
    ], {
      id: 'garden-push',
      title: 'Out of the way',
      hint: 'Shoving the rock toward the flag buries it. Find another direction.',
      allowBypass: true,
      allowHandsOff: true,
    }),
    level(9, 6, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      ...sentence(4, 0, 'ROCK', 'IS', 'PUSH'),
      ...hedges(1, 0, 8),
      object('CAT', 0, 2), object('ROCK', 2, 2), object('ROCK', 3, 2),
      object('POND', 5, 2), object('POND', 6, 2), object('FLAG', 8, 2),
      ...hedges(3, 0, 8),
      ...sentence(0, 4, 'FLAG', 'IS', 'WIN'),
      ...sentence(4, 4, 'POND', 'IS', 'SINK'),
      ...sentence(0, 5, 'HEDGE', 'IS', 'STOP'),
    ], {
      id: 'garden-pond',
      title: 'Stepping stones',
      hint: 'The pond swallows whatever enters it, and is gone with it.',
      allowBypass: true,
      allowHandsOff: true,
    }),
    level(7, 6, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      ...sentence(4, 0, 'THORN', 'IS', 'DEFEAT'),
      object('THORN', 3, 0), object('THORN', 3, 1), object('THORN', 3, 2),
      object('THORN', 3, 3), object('THORN', 3, 5),
      object('THORN', 5, 3), object('THORN', 5, 4), object('THORN', 6, 3),
      object('CAT', 1, 2), object('FLAG', 6, 4),
      ...sentence(0, 5, 'FLAG', 'IS', 'WIN'),
    ], {
      id: 'garden-thorns',
      title: 'Mind the thorns',
      hint: 'Touching a thorn ends the proof. There is always a way around.',
      allowBypass: true,
      allowHandsOff: true,
    }),
  ],
};
