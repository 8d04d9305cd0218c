// Routes by module (docs/architecture.md "Routes by module"): src/http/route-modules.ts
// names each module's routes; every API route file is in it, under its API, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROUTE_MODULES } from '../../src/http/route-modules.ts';

const SRC = path.resolve(import.meta.dirname, '../../src');

test('every row of the route table is a module of src/core, listed once', () => {
  const names = ROUTE_MODULES.map((m) => m.module);
  assert.equal(new Set(names).size, names.length);
  // A module of src/core, or of the new layout (src/modules/<m>/module.ts).
  for (const name of names) {
    const isModule = fs.existsSync(path.join(SRC, 'core', name, 'index.ts')) || fs.existsSync(path.join(SRC, 'modules', name, 'module.ts'));
    assert.ok(isModule, `${name} is not a module of src/core or src/modules`);
  }
});

test("every API route file's routes are in the route table under its API, once", async () => {
  for (const api of ['api1', 'api2'] as const) {
    const listed = ROUTE_MODULES.flatMap((m) => (m[api] ? [m[api]] : []));
    assert.equal(new Set(listed).size, listed.length, `${api}: a route function listed twice`);
    const found: unknown[] = [];
    // The route files of src/http/<api>/, and each module's src/modules/<m>/http/<api>.ts.
    const files = fs.readdirSync(path.join(SRC, 'http', api)).filter((f) => f.endsWith('.ts') && f !== 'routes.ts').map((f) => path.join(SRC, 'http', api, f));
    for (const m of fs.existsSync(path.join(SRC, 'modules')) ? fs.readdirSync(path.join(SRC, 'modules')) : []) {
      const own = path.join(SRC, 'modules', m, 'http', `${api}.ts`);
      if (fs.existsSync(own)) files.push(own);
    }
    for (const full of files) {
      const file = path.relative(path.join(SRC, 'http', api), full);
      const exports: Record<string, unknown> = await import(full);
      for (const [name, value] of Object.entries(exports)) {
        if (!/Routes$/.test(name) || typeof value !== 'function') continue;
        assert.ok(listed.includes(value as never), `src/http/${api}/${file}: ${name} is not in src/http/route-modules.ts`);
        found.push(value);
      }
    }
    assert.equal(found.length, listed.length, `${api}: the table lists a function no route file exports`);
  }
});
