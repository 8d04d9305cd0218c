// Routes by module (docs/architecture.md "Routes by module", "Adding a module"):
// src/http/route-modules.ts names each src/core module's routes, and the module list's
// contracts bring theirs (src/modules/<m>/http/); every API route file is in the table,
// under its API, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROUTE_MODULES } from '../../src/http/route-modules.ts';

const SRC = path.resolve(import.meta.dirname, '../../src');

test('every row of the route table is a module (src/core/<m> or src/modules/<m>), listed once', () => {
  const names = ROUTE_MODULES.map((m) => m.module);
  assert.equal(new Set(names).size, names.length);
  for (const name of names) {
    const isModule = fs.existsSync(path.join(SRC, 'core', name, 'index.ts')) || fs.existsSync(path.join(SRC, 'modules', name, 'module.ts'));
    assert.ok(isModule, `${name} is not a module of src/core or src/modules`);
  }
});

/** The route files of one API: src/http/<api>/*.ts, and every src/modules/<m>/http/*.ts (they may serve either API). */
function routeFiles(api: 'api1' | 'api2'): string[] {
  const kernel = fs.readdirSync(path.join(SRC, 'http', api)).filter((f) => f.endsWith('.ts') && f !== 'routes.ts').map((f) => path.join(SRC, 'http', api, f));
  const modules = fs.readdirSync(path.join(SRC, 'modules'), { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) => {
    const dir = path.join(SRC, 'modules', d.name, 'http');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f)) : [];
  });
  return [...kernel, ...modules];
}

test("every API route file's routes are in the route table under one API, once", async () => {
  const listed = { api1: ROUTE_MODULES.flatMap((m) => (m.api1 ? [m.api1] : [])), api2: ROUTE_MODULES.flatMap((m) => (m.api2 ? [m.api2] : [])) };
  for (const api of ['api1', 'api2'] as const) {
    assert.equal(new Set(listed[api]).size, listed[api].length, `${api}: a route function listed twice`);
    const found: unknown[] = [];
    for (const file of routeFiles(api)) {
      const inModule = file.includes(`${path.sep}modules${path.sep}`);
      const exports: Record<string, unknown> = await import(file);
      for (const [name, value] of Object.entries(exports)) {
        if (!/Routes$/.test(name) || typeof value !== 'function') continue;
        const inTable = listed[api].includes(value as never);
        // A module's route file serves one API (it is in the table under this API or the other),
        // or routes outside the APIs (its `other` plugin: the sandbox module's /_operator routes).
        if (inModule && !inTable) {
          const elsewhere = listed[api === 'api1' ? 'api2' : 'api1'].includes(value as never) || ROUTE_MODULES.some((m) => m.other?.plugin === value);
          assert.ok(elsewhere, `${path.relative(SRC, file)}: ${name} is in no API of the route table`);
          continue;
        }
        assert.ok(inTable, `${path.relative(SRC, file)}: ${name} is not in the route table under ${api}`);
        found.push(value);
      }
    }
    assert.equal(found.length, listed[api].length, `${api}: the table lists a function no route file exports`);
  }
});
