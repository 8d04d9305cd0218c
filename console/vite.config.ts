// The console's build (docs/console.md): Vite, served by the service under /console/.
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  // @scanbase/sdk's sources, not its built dist/ (packages/sdk/package.json exports).
  resolve: { conditions: ['@scanbase/source', ...defaultClientConditions] },
  // JSX compiled for Preact (automatic runtime).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // three.js alone is ~600 kB minified; the 3D view is its own chunk, loaded when opened.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      // Rolldown's note that its plugins took long: it depends on the machine's load, not on
      // the console, and would print in `npm ci` on a busy machine.
      checks: { bundlerTimings: false },
      // One known, harmless notice of a dependency: laz-perf's Emscripten glue (inside
      // @loaders.gl/las) names the CommonJS `module` in an ES module; it runs correctly.
      // Left in, it prints a boxed warning in every `npm ci`.
      onLog(level, log, handler) {
        if (log.code === 'COMMONJS_VARIABLE_IN_ESM' && /laz-perf/.test(log.id ?? '')) return;
        handler(level, log);
      },
    },
  },
});
