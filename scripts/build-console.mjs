// Builds the web console (console/ → console/dist) with Vite. Run by `npm ci` (the root
// `prepare` script) so that `npm ci && npm start` serves it built, and by
// `npm run build:console`. An install without development packages (the service image,
// `npm ci --omit=dev`) has no Vite: the console is then skipped, and /console says so.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { devToolOrSkip, root } from './dev-tool.mjs';

const vite = devToolOrSkip({ step: 'console', tool: 'Vite', name: 'vite', bin: 'bin/vite.js', what: 'the console' });
const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', path.join(root, 'console')], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
