// The console's build (docs/console.md): Vite, served by the service under /console/.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
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
