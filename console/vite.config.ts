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
  },
});
