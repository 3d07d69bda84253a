// The Colyseus peer of kotodama-server: one room type, "battle", that mirrors Kotodama's room as
// closely as is fair, for `compare` to measure beside ours. Rooms of two players found by
// `joinOrCreate`; the state is a small battle (an 11x11 board of kana, two fighters with life,
// a hand of 7 and a score, a clock, the last move number acked per seat), patched to both
// players ten times a second. A move `{number, x, y, tile}` is applied at once (legal when the
// cell is free and the tile is in the hand), its number acked in the state, and the patch sent
// right away, as Kotodama answers every move with a state at once.
//
//   NODE_ENV=production node server.mjs [--port 2567]

import { monitorEventLoopDelay } from "node:perf_hooks";
import { Server, Room } from "@colyseus/core";
import { WebSocketTransport } from "@colyseus/ws-transport";
import { Schema, ArraySchema, defineTypes } from "@colyseus/schema";

const SIZE = 11;
const HAND = 7;
const LIFE = 100;
const COUNTDOWN = 3; // seconds, as Kotodama's default
const FIGHT = 90; // seconds of fighting, as Kotodama's default
const KANA = [..."あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"];

const draw = () => KANA[Math.floor(Math.random() * KANA.length)];

class Fighter extends Schema {
  constructor(id) {
    super();
    this.id = id; // the player's sessionId, so a client finds its seat
    this.life = LIFE;
    this.score = 0;
    this.combo = 0;
    this.comboLeft = 0; // seconds left to chain the next word, as Kotodama's combo_left
    this.stun = 0;
    this.hand = new ArraySchema(...Array.from({ length: HAND }, draw));
  }
}
defineTypes(Fighter, {
  id: "string",
  life: "uint16",
  score: "uint32",
  combo: "uint8",
  comboLeft: "float32",
  stun: "float32",
  hand: ["string"],
});

class Battle extends Schema {
  constructor() {
    super();
    this.board = new ArraySchema(...Array(SIZE * SIZE).fill(""));
    this.fighters = new ArraySchema();
    this.acked = new ArraySchema(0, 0);
    this.phase = "waiting";
    this.countdown = COUNTDOWN;
    this.timeLeft = FIGHT;
    this.opening();
  }

  // The board a battle starts on: ことば in the middle, as Kotodama's built-in board.
  opening() {
    const mid = Math.floor(SIZE / 2);
    for (let i = 0; i < this.board.length; i++) if (this.board[i] !== "") this.board[i] = "";
    [..."ことば"].forEach((k, i) => (this.board[mid * SIZE + mid - 1 + i] = k));
  }
}
defineTypes(Battle, {
  board: ["string"],
  fighters: [Fighter],
  acked: ["uint32"],
  phase: "string",
  countdown: "float32",
  timeLeft: "float32",
});

export class BattleRoom extends Room {
  maxClients = 2;

  onCreate() {
    this.setState(new Battle());
    this.setPatchRate(100);
    // The battle's clock, ten beats a second like Kotodama's room.
    this.setSimulationInterval((ms) => this.beat(ms / 1000), 100);
    this.onMessage("move", (client, move) => this.move(client, move));
  }

  onJoin(client) {
    this.state.fighters.push(new Fighter(client.sessionId));
    if (this.state.fighters.length === 2) this.state.phase = "countdown";
  }

  onLeave(client) {
    // The one who stays wins; the room closes with the last player (autoDispose).
    if (this.seatOf(client) >= 0) this.state.phase = "over";
  }

  seatOf(client) {
    return this.state.fighters.findIndex((f) => f.id === client.sessionId);
  }

  beat(dt) {
    const s = this.state;
    if (s.phase === "countdown") {
      s.countdown = Math.max(0, s.countdown - dt);
      if (s.countdown === 0) s.phase = "fight";
    } else if (s.phase === "fight") {
      s.timeLeft = Math.max(0, s.timeLeft - dt);
      for (const f of s.fighters) {
        if (f.stun > 0) f.stun = Math.max(0, f.stun - dt);
        if (f.comboLeft > 0) {
          f.comboLeft = Math.max(0, f.comboLeft - dt);
          if (f.comboLeft === 0) f.combo = 0;
        }
      }
      if (s.timeLeft === 0) this.rematch();
    }
  }

  // A battle that ran out of time or board starts again at once with the same two players
  // (Kotodama's players ask for a rematch, and both agree, a moment after the end). Move
  // numbers go on rising through the room's life, so `acked` is not reset.
  rematch() {
    const s = this.state;
    s.opening();
    s.fighters.forEach((f) => {
      f.life = LIFE;
      f.score = 0;
      f.combo = 0;
      f.comboLeft = 0;
      f.stun = 0;
      for (let j = 0; j < HAND; j++) f.hand[j] = draw();
    });
    s.countdown = COUNTDOWN;
    s.timeLeft = FIGHT;
    s.phase = "countdown";
  }

  move(client, m) {
    const s = this.state;
    const seat = this.seatOf(client);
    if (seat < 0 || typeof m !== "object" || m === null) return;
    const { number, x, y, tile } = m;
    if (!Number.isInteger(number) || number <= s.acked[seat]) return; // answered already
    const me = s.fighters[seat];
    const cell = Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < SIZE && y < SIZE ? y * SIZE + x : -1;
    const slot = me.hand.indexOf(tile);
    if (s.phase === "fight" && me.stun === 0 && cell >= 0 && s.board[cell] === "" && slot >= 0) {
      s.board[cell] = tile;
      me.hand[slot] = draw();
      me.score += 1;
      me.combo = Math.min(me.combo + 1, 4);
      me.comboLeft = 3;
      const other = s.fighters[1 - seat];
      if (other) other.life = Math.max(0, other.life - 1);
    }
    // Applied or refused, the number is acked, and both players hear it now.
    s.acked[seat] = number;
    // A full board ends the battle, as in Kotodama (`why=full`), and another begins.
    if (!s.board.includes("")) this.rematch();
    this.broadcastPatch();
  }
}

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const port = Number(arg("--port", 2567));
const server = new Server({
  greet: false,
  transport: new WebSocketTransport({ pingInterval: 3000, pingMaxRetries: 2 }),
});
server.define("battle", BattleRoom);
await server.listen(port, "127.0.0.1");
// How long work waited for the one thread, said on the way out (compare keeps it in its log).
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
process.on("exit", () => {
  const ms = (ns) => (ns / 1e6).toFixed(2);
  console.log(`peer: event loop delay p50 ${ms(lag.percentile(50))} ms, p99 ${ms(lag.percentile(99))} ms, max ${ms(lag.max)} ms`);
});
console.log(`peer: Colyseus listening on ws://127.0.0.1:${port} (NODE_ENV=${process.env.NODE_ENV ?? "unset"})`);
