// Runs the sandbox suite module (argument 1) case by case and prints one line a case:
// `ok NAME` or `FAILED NAME: MESSAGE`, then a summary; exits 1 when any case failed.
// A failed case aborts its instance (a trap), so the next case runs in a fresh one.
import { readFileSync } from "node:fs";

const module = await WebAssembly.compile(readFileSync(process.argv[2]));
const imports = {
  clock: { monotonic_ms: () => performance.now(), unix_ms: () => Date.now() },
};
const wanted = WebAssembly.Module.imports(module).map((i) => `${i.module}.${i.name}`);
console.log(`imports: ${wanted.join(", ") || "none"}`);

function fresh() {
  const instance = new WebAssembly.Instance(module, imports);
  instance.exports._initialize();
  return instance.exports;
}

function buffer(x) {
  const bytes = new Uint8Array(x.memory.buffer, x.selftest_buffer(), x.selftest_buffer_len());
  return new TextDecoder().decode(bytes);
}

let x = fresh();
const count = x.selftest_count();
let failed = 0;
const started = performance.now();
for (let i = 0; i < count; i++) {
  x.selftest_name(i);
  const name = buffer(x);
  try {
    x.selftest_run(i);
    console.log(`ok ${name}`);
  } catch (e) {
    failed++;
    let message = "";
    try {
      message = buffer(x);
    } catch {}
    console.log(`FAILED ${name}: ${(message || String(e)).replaceAll("\n", " | ")}`);
    x = fresh();
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`${count - failed} passed, ${failed} failed, of ${count} cases in ${seconds} s`);
process.exit(failed ? 1 : 0);
