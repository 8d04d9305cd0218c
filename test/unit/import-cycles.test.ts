// The import-loop check of `npm run lint` (package.json "lint:cycles": dpdm over src/, type-only
// imports included): run here, with the same arguments, on a planted loop and on the same files
// without it, so the check is shown to fail on a loop and to pass without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const script = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['lint:cycles']!;

/** Runs the lint script's command in `dir` (its glob, src/**, resolved there). */
function check(dir: string) {
  const args = script.replace(/^dpdm\s+/, '').match(/'[^']*'|\S+/g)!.map((a) => a.replace(/^'|'$/g, ''));
  return spawnSync(path.join(ROOT, 'node_modules/.bin/dpdm'), args, { cwd: dir, encoding: 'utf8' });
}

function planted(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

test('import loop rule: a type-only loop between two files of src/ fails the lint check, and names both files', () => {
  const dir = planted({
    'src/core/ports/a.ts': "import type { B } from '../events/b.ts';\nexport interface A { b: B }\n",
    'src/core/events/b.ts': "import type { A } from '../ports/a.ts';\nexport interface B { a?: A }\n",
  });
  try {
    const r = check(dir);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /src\/core\/events\/b\.ts -> src\/core\/ports\/a\.ts|src\/core\/ports\/a\.ts -> src\/core\/events\/b\.ts/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('import loop rule: the same files importing one way only pass', () => {
  const dir = planted({
    'src/core/ports/a.ts': "export interface A { n: number }\n",
    'src/core/events/b.ts': "import type { A } from '../ports/a.ts';\nexport interface B { a?: A }\n",
  });
  try {
    const r = check(dir);
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
