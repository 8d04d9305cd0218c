// The process entry point (`npm start`, the Dockerfile's command, the tests' servers).
//
// First, with GC_COUNT_EXTERNAL_MEMORY on, one V8 setting: external memory (Buffers' bytes,
// outside the JS heap) counts in the heap's global limit. Each socket read of Node's HTTP
// server is a new 64 KiB Buffer; by default V8 starts a full mark-compact of the whole heap
// every time such memory grows by 64 MiB, which is about 21 full collections per GiB of
// upload body, a third of the server's CPU in a large upload. Counted in the global limit,
// those short-lived buffers wait for the young generation's scavenges instead: no full
// collection, at the price of more memory held meanwhile. Off by default for that price
// (docs/decisions.md, "External memory in V8's global limit"). It is set before anything
// else runs, so every limit is computed with it; src/kernel-config.ts refuses a bad value.
//
// Then Node's module compile cache: each module's type-stripped source and compiled code
// are kept on disk by content hash (NODE_COMPILE_CACHE, or a folder in the system's
// temporary directory), so a restart skips stripping and parsing the service's modules and
// its dependencies' (measured by `BENCH_ONLY=startup npm run bench`). A cache that cannot
// be written is skipped: the start is only slower. Then it starts the service.
import module from 'node:module';
import v8 from 'node:v8';
import { isOn } from './kernel-config.ts';

if (isOn(process.env.GC_COUNT_EXTERNAL_MEMORY)) v8.setFlagsFromString('--external-memory-accounted-in-global-limit');
module.enableCompileCache?.();
await import('./serve.ts');
