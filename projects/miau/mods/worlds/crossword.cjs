// Crossword: sentences that cross and share a word, so one tile can serve two rules and one
// push can change both. Rules a proof must not reach are kept out of play by the board's edge:
// a sentence flush in a corner cannot be pushed at all.
const { word, object, level } = require('@miau/engine');

function across(x, y, ...words) {
  return words.map((w, i) => word(w, x + i, y));
}

function down(x, y, ...words) {
  return words.map((w, i) => word(w, x, y + i));
}

// Wall objects on every listed cell.
function walls(...cells) {
  return cells.map(([x, y]) => object('WALL', x, y));
}

// Hedge objects on every listed cell.
function hedges(...cells) {
  return cells.map(([x, y]) => object('HEDGE', x, y));
}

// A full row of walls from x0 to x1 on row y.
function wallRow(y, x0, x1) {
  const out = [];
  for (let x = x0; x <= x1; x++) out.push(object('WALL', x, y));
  return out;
}

module.exports = {
  manifest: { id: 'crossword', name: 'Crossword', version: '1.0.0', engine: 1 },
  palette: {
    CAT: { glyph: '🐈', faces: 'left' },
    FLAG: '🚩',
    ROCK: '🪨',
    WALL: '🧱',
    HEDGE: '🌳',
  },
  vocabulary: ['CAT', 'FLAG', 'ROCK', 'WALL', 'HEDGE'],
  levels: [
    // The IS of CAT IS YOU also reads down, once WIN is under it.
    level(6, 5, [
      word('FLAG', 2, 0),
      ...across(1, 1, 'CAT', 'IS', 'YOU'),
      word('WIN', 4, 2), object('CAT', 5, 2),
      object('FLAG', 0, 4),
    ], {
      id: 'crossing',
      title: 'Across and down',
      hint: 'A word can sit in two sentences at once. Read down through the IS.',
      mustForm: ['FLAG IS WIN'],
    }),
    // One loose IS; FLAG IS WIN across and ROCK IS PUSH down both need it. Pushing the row in
    // from the right drops it on the crossing square.
    level(9, 6, [
      ...across(0, 0, 'CAT', 'IS', 'YOU'),
      ...across(4, 0, 'WALL', 'IS', 'STOP'),
      ...across(4, 1, 'ROCK', 'IS', 'STOP'),
      ...wallRow(2, 0, 8),
      word('ROCK', 1, 3),
      word('FLAG', 0, 4), word('IS', 2, 4), word('WIN', 3, 4),
      word('PUSH', 1, 5),
      object('CAT', 4, 3),
      ...walls([5, 3], [6, 3], [7, 3], [8, 3], [8, 4], [5, 5], [6, 5], [7, 5], [8, 5]),
      object('ROCK', 5, 4), object('FLAG', 6, 4),
    ], {
      id: 'two-birds',
      title: 'Two birds',
      hint: 'Only one IS is loose, and two sentences need it. Put it where they cross.',
      mustForm: ['FLAG IS WIN', 'ROCK IS PUSH'],
    }),
    // CAT IS YOU down and WALL IS STOP across share the IS. Pushed up along itself, the cat's
    // sentence still reads and the wall's breaks; pushed sideways, the cat is no longer YOU.
    // Nothing is formed here, so there is no mustForm: the gate proves the route and no bypass.
    level(7, 7, [
      ...across(0, 0, 'FLAG', 'IS', 'WIN'),
      ...walls([1, 2], [2, 2], [4, 2], [5, 2], [1, 3], [5, 3], [1, 4], [5, 4], [1, 5], [5, 5]),
      ...wallRow(6, 1, 5),
      ...down(3, 2, 'CAT', 'IS', 'YOU'),
      word('WALL', 2, 3), word('STOP', 4, 3),
      object('CAT', 2, 5), object('FLAG', 6, 6),
    ], {
      id: 'along-the-grain',
      title: 'Along the grain',
      hint: 'Push a sentence along its own line and it still reads. Push it across and it breaks.',
    }),
    // FLAG and WIN are walled in with a gap between them where YOU stands. Pushing CAT IS YOU
    // down from above keeps it and lands its IS in the gap: FLAG IS WIN.
    level(7, 6, [
      ...across(4, 0, 'WALL', 'IS', 'STOP'),
      ...down(1, 1, 'CAT', 'IS', 'YOU'),
      ...walls([0, 2], [2, 2], [0, 4], [2, 4], [3, 3]),
      word('FLAG', 0, 3), word('WIN', 2, 3),
      object('CAT', 5, 4), object('FLAG', 6, 5),
    ], {
      id: 'slide-rule',
      title: 'Slide rule',
      hint: 'The one IS in reach is already in a sentence. Move the whole sentence, not the word.',
      mustForm: ['FLAG IS WIN'],
    }),
    // The flag cannot be reached, and FLAG cannot be read after another IS (walls above and to
    // its left), but WIN is open from above: ROCK IS stacked on it reads ROCK IS WIN down.
    level(8, 6, [
      ...across(0, 0, 'CAT', 'IS', 'YOU'),
      ...across(5, 0, 'WALL', 'IS', 'STOP'), object('WALL', 5, 1),
      word('ROCK', 1, 2), word('IS', 5, 2),
      object('CAT', 0, 1), object('ROCK', 2, 3),
      ...walls([0, 4], [2, 4], [1, 5]),
      object('FLAG', 0, 5),
      ...across(2, 5, 'FLAG', 'IS', 'WIN'),
    ], {
      id: 'pass-it-on',
      title: 'Pass it on',
      hint: 'The flag is walled in, but its WIN can be read down as well as across.',
      mustForm: ['ROCK IS WIN'],
    }),
    // The cat starts boxed in by walls and a hedge door, the hedge's STOP crossing its YOU.
    // Out along the grain, then HEDGE IS onto the corner WIN the sealed flag cannot use.
    level(9, 7, [
      ...across(6, 0, 'WALL', 'IS', 'STOP'),
      ...walls([6, 1], [8, 1], [7, 2]),
      object('FLAG', 7, 1),
      ...walls([0, 1], [1, 1], [3, 1], [4, 1], [0, 2], [4, 2], [0, 3], [0, 4], [4, 4]),
      ...wallRow(5, 0, 4),
      object('HEDGE', 4, 3),
      ...down(2, 1, 'CAT', 'IS', 'YOU'),
      word('HEDGE', 1, 2), word('STOP', 3, 2),
      object('CAT', 1, 4),
      word('HEDGE', 5, 3), word('IS', 6, 4),
      ...walls([5, 6], [6, 5]),
      ...across(6, 6, 'FLAG', 'IS', 'WIN'),
    ], {
      id: 'inside-out',
      title: 'Inside out',
      hint: 'First get past the hedge. Then the hedge can have what the flag cannot use.',
      mustForm: ['HEDGE IS WIN'],
    }),
  ],
};
