// Runs the comparison's runs (wasm/src/check.rs) in the wasm build under Node and prints
// each digest, as the native build prints them (wasm/tests/node.rs compares the two).
//   node wasm/node/check.mjs MODULE.wasm RUN [RUN ...]
// Also prints, on stderr, each run's wall time.
import { readFileSync } from "node:fs";

const [wasmPath, ...runs] = process.argv.slice(2);
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const gl = instance.exports;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function call(fn, text) {
  const bytes = encoder.encode(text);
  const ptr = gl.gl_alloc(bytes.length);
  new Uint8Array(gl.memory.buffer, ptr, bytes.length).set(bytes);
  const status = fn(ptr, bytes.length);
  gl.gl_free(ptr, bytes.length);
  const out = new Uint8Array(gl.memory.buffer, gl.gl_out_ptr(), gl.gl_out_len());
  return { status, text: decoder.decode(out) };
}

let failed = false;
for (const run of runs) {
  const start = performance.now();
  const { status, text } = call(gl.gl_check, run);
  const ms = performance.now() - start;
  process.stderr.write(`${run}: ${ms.toFixed(0)} ms\n`);
  process.stdout.write(`== ${run} ${status}\n${text}`);
  failed ||= status !== 0;
}
process.exit(failed ? 1 : 0);
