// The load client of the Colyseus peer: many players from one Node process, playing the peer's
// "battle" rooms (server.mjs) the way kotodama-load plays Kotodama's. Each player joins a room
// by `joinOrCreate`, and once its room has two it sends one move a second (a tile from its hand
// on a free cell). Move-to-ack latency runs from sending move n to the first state patch whose
// `acked` for the player's seat is n or more. Bytes are counted on each player's TCP socket
// (`bytesWritten`/`bytesRead` of the WebSocket's socket) over the measured window.
//
//   node load.mjs --url ws://127.0.0.1:2567 --clients 1000 --seconds 30 --rate 1
//
// The summary lines on stdout read like kotodama-load's.

import { monitorEventLoopDelay } from "node:perf_hooks";
import { Client } from "colyseus.js";

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

const url = arg("--url", "ws://127.0.0.1:2567");
const clients = Number(arg("--clients", 100));
const seconds = Number(arg("--seconds", 30));
const rate = Number(arg("--rate", 1));
const ramp = Number(arg("--ramp", 500)); // joins a second
const every = Number(arg("--report", 5)); // seconds between progress lines on stderr (0: none)
if (!(clients > 0 && seconds > 0 && rate > 0 && ramp > 0)) {
  console.error("load: --clients, --seconds, --rate and --ramp must be more than 0");
  process.exit(2);
}

const SIZE = 11;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

const stats = { joined: 0, held: 0, sent: 0, acked: 0, errors: new Map(), measuring: false, window: [], recent: [] };
const error = (what) => stats.errors.set(what, (stats.errors.get(what) ?? 0) + 1);

// The WebSocket's TCP socket under colyseus.js (the `ws` package's), for its byte counts.
const socketOf = (room) => room.connection?.transport?.ws?._socket;

class Player {
  constructor(i) {
    this.i = i;
    this.room = null;
    this.seat = -1;
    this.next = 1;
    this.pending = []; // [number, sent at]
    this.timer = null;
    this.bytes = null; // [written, read] when the window opened
  }

  async join() {
    try {
      this.room = await new Client(url).joinOrCreate("battle", { name: `load${this.i}` });
    } catch (e) {
      error(`join: ${e.message ?? e}`);
      return;
    }
    stats.joined++;
    stats.held++;
    this.room.onStateChange((state) => this.patched(state));
    this.room.onLeave((code) => {
      stats.held--;
      clearInterval(this.timer);
      if (!this.leaving) error(`left: code ${code}`);
    });
    this.room.onError((code, message) => error(`room error ${code}: ${message}`));
    // One move a second from a random phase, as kotodama-load's players.
    setTimeout(() => {
      this.timer = setInterval(() => this.play(), 1000 / rate);
    }, Math.random() * (1000 / rate));
  }

  patched(state) {
    if (this.seat < 0) {
      this.seat = state.fighters.findIndex((f) => f.id === this.room.sessionId);
      if (this.seat < 0) return;
    }
    const acked = state.acked[this.seat];
    const t = now();
    while (this.pending.length > 0 && this.pending[0][0] <= acked) {
      const [, sent] = this.pending.shift();
      stats.acked++;
      const ms = t - sent;
      stats.recent.push(ms);
      if (stats.measuring) stats.window.push(ms);
    }
  }

  play() {
    const state = this.room?.state;
    if (!state || this.seat < 0 || state.phase !== "fight") return;
    const me = state.fighters[this.seat];
    if (!me || me.stun > 0 || me.hand.length === 0) return;
    const free = [];
    state.board.forEach((k, c) => k === "" && free.push(c));
    if (free.length === 0) return;
    const cell = free[Math.floor(Math.random() * free.length)];
    const tile = me.hand[Math.floor(Math.random() * me.hand.length)];
    const number = this.next++;
    this.pending.push([number, now()]);
    stats.sent++;
    this.room.send("move", { number, x: cell % SIZE, y: Math.floor(cell / SIZE), tile });
  }

  open() {
    const s = this.room && socketOf(this.room);
    this.bytes = s ? [s.bytesWritten, s.bytesRead] : null;
  }

  // Bytes [sent, received] since open().
  counted() {
    const s = this.room && socketOf(this.room);
    if (!s || !this.bytes) return [0, 0];
    return [s.bytesWritten - this.bytes[0], s.bytesRead - this.bytes[1]];
  }

  async leave() {
    this.leaving = true;
    clearInterval(this.timer);
    try {
      await this.room?.leave(true);
    } catch {
      // already gone
    }
  }
}

const quantile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.round((sorted.length - 1) * p)]);

const reporter =
  every > 0 &&
  setInterval(() => {
    const recent = stats.recent.sort((a, b) => a - b);
    stats.recent = [];
    const errors = [...stats.errors.values()].reduce((a, b) => a + b, 0);
    console.error(
      `load: held ${stats.held}  moves/s ${(recent.length / every).toFixed(0)}  p50 ${quantile(recent, 0.5)?.toFixed(2)} ms  p99 ${quantile(recent, 0.99)?.toFixed(2)} ms  errors ${errors}`,
    );
  }, every * 1000);

// Ramp up, let the last rooms fill, then measure.
const players = [];
const joins = [];
for (let i = 0; i < clients; i++) {
  const p = new Player(i);
  players.push(p);
  joins.push(p.join());
  await sleep(1000 / ramp);
}
await Promise.race([Promise.all(joins), sleep(20000)]);
await sleep(2000);
console.error(`load: ${stats.held} held; measuring for ${seconds} s`);
players.forEach((p) => p.open());
stats.measuring = true;
const started = now();
// How long this process's own thread kept work waiting, a share of what it measures.
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
await sleep(seconds * 1000);
stats.measuring = false;
lag.disable();
const took = (now() - started) / 1000;
let sent = 0;
let received = 0;
for (const p of players) {
  const [w, r] = p.counted();
  sent += w;
  received += r;
}
if (reporter) clearInterval(reporter);
await Promise.race([Promise.all(players.map((p) => p.leave())), sleep(5000)]);

const window = stats.window.sort((a, b) => a - b);
const errors = [...stats.errors.entries()];
const f = (x) => x.toFixed(2);
console.log(`clients        ${clients}`);
console.log(`held           ${stats.held} at the end, ${stats.joined} joined in all`);
console.log(`moves          ${stats.sent} sent, ${stats.acked} acked (${window.length} in the measured ${seconds} s: ${(window.length / seconds).toFixed(0)} moves/s)`);
console.log(`move-to-ack    p50 ${f(quantile(window, 0.5))} ms, p90 ${f(quantile(window, 0.9))} ms, p99 ${f(quantile(window, 0.99))} ms, max ${f(quantile(window, 1))} ms`);
console.log(`bytes          ${f(sent / took / clients)} B/s sent, ${f(received / took / clients)} B/s received a player (TCP payload, over ${f(took)} s)`);
console.log(`loop delay     p50 ${f(lag.percentile(50) / 1e6)} ms, p99 ${f(lag.percentile(99) / 1e6)} ms, max ${f(lag.max / 1e6)} ms (this process's event loop, in the window)`);
console.log(`errors         ${errors.reduce((a, [, n]) => a + n, 0)}`);
for (const [what, n] of errors) console.log(`  ${String(n).padStart(6)}  ${what}`);
process.exit(0);
