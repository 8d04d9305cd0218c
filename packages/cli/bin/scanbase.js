#!/usr/bin/env node
// The scanbase command (the package's `bin`): written so that any Node can read it, it
// refuses an old Node in one line, then runs the built command (dist/, `npm run build`;
// `npm pack` and `npm ci` at the repository root build it).
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  console.error(`scanbase: needs Node.js 20 or later; this is Node.js ${process.version}`);
  process.exit(1);
}
import('../dist/main.js').catch((e) => {
  if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist')) {
    console.error('scanbase: the command is not built: run `npm run build -w @scanbase/cli` (npm ci at the repository root does it)');
  } else {
    console.error(e);
  }
  process.exit(1);
});
