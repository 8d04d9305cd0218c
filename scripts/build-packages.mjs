// Builds the client packages to JavaScript with type declarations (packages/<name>/dist, by
// each one's tsconfig.build.json): what `npm pack` puts in their tarballs (their `prepack`
// runs this) and what `npx scanbase` runs in a checkout (the root `prepare` runs it on
// `npm ci`). In the repository, tests, type checks and the console use the sources
// themselves (the `@scanbase/source` export condition: docs/cli.md "Packages").
//
// `node scripts/build-packages.mjs [@scanbase/sdk|@scanbase/cli …]`: the packages named (all
// by default), each after the workspace packages it depends on (the CLI's declarations need
// the SDK's). An install without development packages (the service image) has no
// TypeScript: nothing is built then, and the service does not need it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { devToolOrSkip, root } from './dev-tool.mjs';

/** Dependency order: a package comes after those it depends on. */
const PACKAGES = [
  { name: '@scanbase/sdk', dir: 'packages/sdk', needs: [] },
  { name: '@scanbase/cli', dir: 'packages/cli', needs: ['@scanbase/sdk'] },
];

const tsc = devToolOrSkip({ step: 'packages', tool: 'TypeScript', name: 'typescript', bin: 'bin/tsc', what: 'the client packages are' });

const asked = process.argv.slice(2);
for (const name of asked) if (!PACKAGES.some((p) => p.name === name)) throw new Error(`unknown package ${name}`);
const wanted = new Set(asked.length ? asked : PACKAGES.map((p) => p.name));
for (const p of [...PACKAGES].reverse()) if (wanted.has(p.name)) p.needs.forEach((n) => wanted.add(n));

for (const p of PACKAGES.filter((x) => wanted.has(x.name))) {
  const dir = path.join(root, p.dir);
  fs.rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`packages: building ${p.name} failed`);
    process.exit(r.status ?? 1);
  }
}
