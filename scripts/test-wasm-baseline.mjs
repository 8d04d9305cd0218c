// Loaded (NODE_OPTIONS --import, set by scripts/test.mjs) by every Node process of a
// `npm test` run: test files, the servers and CLI runs they start, admin commands.
//
// WebAssembly is compiled by V8's baseline compiler (Liftoff) only, never tiered up to
// TurboFan. Each process of the run opens PGlite (a PostgreSQL compiled to WebAssembly) for
// a few seconds; with tiering on, V8 spends its first second recompiling PGlite's hot startup
// code with TurboFan on a background thread, which a process that lives seconds never gets
// back. Measured 2026-11-29 on 2 cores, test/http and test/pointclouds (102 files) run alone:
// 533 → 457 CPU s, 275 → 236 s wall, no file slower by more than a second; one process that
// opens PGlite and runs 6,000 queries: 3.6 → 2.8 CPU s, its queries no slower.
// The service itself (`npm start`, long-lived) keeps V8's defaults.
import v8 from 'node:v8';

v8.setFlagsFromString('--no-wasm-tier-up');
v8.setFlagsFromString('--no-wasm-dynamic-tiering');
