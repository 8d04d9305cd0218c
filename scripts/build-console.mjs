// Builds the web console (console/ → console/dist) with Vite. Run by `npm ci` (the root
// `prepare` script) so that `npm ci && npm start` serves it built, and by
// `npm run build:console`. An install without development packages (the service image,
// `npm ci --omit=dev`) has no Vite: the console is then skipped, and /console says so.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let vite;
try {
  vite = path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
} catch {
  console.log('console: Vite is not installed (an install without devDependencies); the console is not built.');
  process.exit(0);
}
const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', path.join(root, 'console')], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
