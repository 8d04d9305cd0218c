// The process entry point (`npm start`, the Dockerfile's command, the tests' servers).
// It turns on Node's module compile cache first: each module's type-stripped source and
// compiled code are kept on disk by content hash (NODE_COMPILE_CACHE, or a folder in the
// system's temporary directory), so a restart skips stripping and parsing the service's
// modules and its dependencies' (measured by `BENCH_ONLY=startup npm run bench`). A cache
// that cannot be written is skipped: the start is only slower. Then it starts the service.
import module from 'node:module';

module.enableCompileCache?.();
await import('./serve.ts');
