// Clockwork: proofs with creatures that move on their own after every move you make.
const { word, object, level } = require('@miau/engine');

function sentence(x, y, ...words) {
  return words.map((w, i) => word(w, x + i, y));
}

function hedgeRow(y, x0, x1, gaps) {
  const out = [];
  for (let x = x0; x <= x1; x++) {
    if (!gaps.includes(x)) out.push(object('HEDGE', x, y));
  }
  return out;
}

module.exports = {
  manifest: {
    id: 'clockwork',
    name: 'Clockwork',
    version: '1.0.0',
    engine: 1,
    features: ['automata'],
  },
  palette: {
    CAT: { glyph: '🐈', faces: 'left' },
    BEE: { glyph: '🐝', faces: 'left' },
    FLAG: '🚩',
    ROCK: '🪨',
    HEDGE: '🌳',
    POND: '🌊',
  },
  vocabulary: ['CAT', 'BEE', 'FLAG', 'ROCK', 'HEDGE', 'POND'],
  levels: [
    level(9, 7, [
      ...sentence(0, 0, 'HEDGE', 'IS', 'STOP'),
      object('HEDGE', 3, 0), object('FLAG', 4, 0), object('HEDGE', 5, 0),
      ...sentence(6, 0, 'FLAG', 'IS', 'WIN'),
      ...hedgeRow(1, 0, 8, [4]),
      object('BEE', 2, 2, 'bee'),
      ...hedgeRow(3, 0, 8, [4]),
      object('CAT', 4, 4),
      ...sentence(0, 5, 'BEE', 'IS', 'PATROL', 'AND', 'DEFEAT'),
      ...sentence(0, 6, 'CAT', 'IS', 'YOU'),
    ], {
      id: 'busy-bee',
      title: 'Busy bee',
      hint: 'The bee walks its lane and turns at the ends. Cross behind it.',
      automata: { PATROL: 'walk' },
      allowBypass: true,
      allowHandsOff: true,
    }),
    level(9, 7, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      ...sentence(6, 0, 'ROCK', 'IS', 'PUSH'),
      object('HEDGE', 5, 1), word('FLAG', 8, 1),
      ...hedgeRow(2, 0, 7, [5]), word('IS', 8, 2),
      object('BEE', 0, 3), word('WIN', 1, 3), object('ROCK', 5, 3),
      ...hedgeRow(4, 0, 8, [5]),
      object('CAT', 4, 5), object('FLAG', 7, 5),
      ...sentence(0, 6, 'BEE', 'IS', 'PATROL'),
      ...sentence(6, 6, 'HEDGE', 'IS', 'STOP'),
    ], {
      id: 'carrier',
      title: 'Special delivery',
      hint: 'The bee will carry the word for you, if nothing is in its way.',
      automata: { PATROL: 'walk' },
      mustForm: ['FLAG IS WIN'],
      allowBypass: true,
    }),
    level(7, 7, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      ...sentence(4, 0, 'ROCK', 'IS', 'HEAVY'),
      ...sentence(0, 1, 'HEDGE', 'IS', 'STOP'),
      ...sentence(4, 1, 'ROCK', 'IS', 'PUSH'),
      object('CAT', 0, 2), object('ROCK', 3, 2),
      object('HEDGE', 3, 3), object('HEDGE', 5, 3), object('HEDGE', 6, 3),
      object('HEDGE', 3, 4), object('HEDGE', 5, 4), object('HEDGE', 6, 4),
      object('POND', 4, 5), object('FLAG', 6, 5),
      ...sentence(0, 6, 'FLAG', 'IS', 'WIN'),
      ...sentence(4, 6, 'POND', 'IS', 'SINK'),
    ], {
      id: 'rockslide',
      title: 'Rockslide',
      hint: 'Heavy things drop when nothing holds them up.',
      automata: { HEAVY: 'fall' },
      allowBypass: true,
      allowHandsOff: true,
    }),
  ],
};
