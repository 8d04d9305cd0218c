// Loaded (NODE_OPTIONS --import, set by scripts/test.mjs) by every Node process of a
// `npm test` run: test files, the servers and CLI runs they start, admin commands.
//
// WebAssembly is compiled by V8's baseline compiler (Liftoff) only, never tiered up to
// TurboFan: each process opens PGlite for seconds, too short to earn back the TurboFan
// recompilation of PGlite's start-up code (docs/decisions.md "WebAssembly on the baseline
// compiler in test runs", with the measurements). The service keeps V8's defaults.
import v8 from 'node:v8';

v8.setFlagsFromString('--no-wasm-tier-up');
v8.setFlagsFromString('--no-wasm-dynamic-tiering');
