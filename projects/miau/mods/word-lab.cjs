// Word Lab: three proofs about what sentences can do to the things they name.
const { word, object, level } = require('@miau/engine');

function sentence(x, y, ...words) {
  return words.map((w, i) => word(w, x + i, y));
}

// A vertical line of wall objects at column x, rows y0..y1.
function wallColumn(x, y0, y1) {
  const out = [];
  for (let y = y0; y <= y1; y++) out.push(object('WALL', x, y));
  return out;
}

module.exports = {
  manifest: { id: 'word-lab', name: 'Word Lab', version: '1.0.0', engine: 1 },
  palette: {
    CAT: { glyph: '🐈', faces: 'left' },
    DOG: { glyph: '🐕', faces: 'left' },
    FLAG: '🚩',
    ROCK: '🪨',
    WALL: '🧱',
  },
  vocabulary: ['CAT', 'DOG', 'FLAG', 'ROCK', 'WALL'],
  levels: [
    level(9, 6, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      ...sentence(0, 5, 'DOG', 'IS'),
      word('YOU', 3, 3),
      object('CAT', 1, 2),
      ...wallColumn(5, 0, 5),
      ...sentence(6, 0, 'WALL', 'IS', 'STOP'),
      ...sentence(6, 1, 'FLAG', 'IS', 'WIN'),
      object('DOG', 6, 3), object('FLAG', 8, 4),
    ], {
      id: 'shared-control',
      title: 'Two at once',
      hint: 'The dog is next to the flag. Who moves when you press a key?',
      mustForm: ['DOG IS YOU'],
    }),
    level(8, 4, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      word('ROCK', 3, 1), word('IS', 3, 2),
      word('CAT', 1, 3),
      object('CAT', 0, 2),
      ...wallColumn(4, 0, 3),
      ...sentence(5, 0, 'WALL', 'IS', 'STOP'),
      ...sentence(5, 1, 'FLAG', 'IS', 'WIN'),
      object('ROCK', 5, 2), object('FLAG', 7, 3),
    ], {
      id: 'change-what-you-are',
      title: 'Be the rock',
      hint: 'A sentence can say what a thing is, not only what it does.',
      mustForm: ['ROCK IS CAT'],
    }),
    level(7, 5, [
      ...sentence(0, 0, 'CAT', 'IS', 'YOU'),
      object('WALL', 3, 0),
      ...sentence(4, 0, 'WALL', 'IS', 'STOP'),
      object('WALL', 0, 1), object('WALL', 1, 1),
      word('FLAG', 0, 2), word('IS', 1, 2),
      // Two predicates share one cell: the flag is a wall and a trap at once.
      word('STOP', 2, 2), word('DEFEAT', 2, 2),
      object('WALL', 0, 3), object('WALL', 1, 3),
      object('WALL', 0, 4), object('WALL', 1, 4),
      word('WIN', 5, 3),
      object('CAT', 3, 4), object('FLAG', 6, 1),
    ], {
      id: 'rules-are-cargo',
      title: 'Rules are cargo',
      hint: 'Stacked words travel together. Carry them off and bring a better one.',
      mustForm: ['FLAG IS WIN'],
    }),
  ],
};
