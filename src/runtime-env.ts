// The process environment the service runs with, beyond its own settings (src/config.ts):
// set by `npm start` (package.json) and by the image (Dockerfile) before Node starts, since
// the C library reads it once at start-up; the benchmarks and end-to-end tests start the
// service with it too. test/e2e/deploy.test.ts checks the three agree.
//
// MALLOC_ARENA_MAX=2: glibc gives each thread that allocates while another holds an arena an
// arena of its own (up to 8 per core), and keeps freed memory in it. The service's request
// bodies and file chunks are allocated on the main thread and released by V8's and libuv's
// threads, so a 1 GiB upload grew the process by 93–119 MiB with the default and by 45–75 MiB
// with two arenas (docs/storage.md, "server peak RSS growth", target < 64 MiB).
export const SERVICE_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;
