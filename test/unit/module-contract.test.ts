// The module contract's rules (docs/architecture.md "Adding a module"), each shown failing on
// a planted violation: the lint rule of the vertical slices (eslint.config.js
// layering/module-boundaries, on probe sources), and the compile-time checks of the module
// list (src/modules/registries.ts; the @ts-expect-error lines fail `npm run lint` if a check
// ever stops refusing them). The registries assembled from the list are checked at run time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';
import type { FeatureModule } from '../../src/core/modules.ts';
import type { Unmet } from '../../src/modules/registries.ts';
import { CONTRACT_ROUTES, ERROR_CATALOGUE, STORE_MODULES, onePublishing, operationTable } from '../../src/modules/registries.ts';
import { webhooksModule } from '../../src/modules/webhooks/module.ts';
import { ERROR_CODES } from '../../src/core/error-codes.ts';
import { valuesModule } from '../../src/modules/values/module.ts';
import { isContract, type InvalidationRows, type ModuleEntry } from '../../src/modules/contract.ts';
import { MODULES } from '../../src/module-list.ts';

const eslint = new ESLint();

async function boundaries(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'layering/module-boundaries').map((m) => m.message);
}

const use = (imports: string) => `${imports}\nexport const probe = [x];\n`;

test("a module's core imports no framework, driver, surface, adapter or its own postgres/http", async () => {
  const file = 'src/modules/values/core/probe.ts';
  for (const bad of [
    "import x from 'fastify';",
    "import x from 'pg';",
    "import { x } from '../../../http/errors.ts';",
    "import { x } from '../../../adapters/postgres/sql.ts';",
    "import { x } from '../postgres/repository.ts';",
    "import { x } from '../http/api2.ts';",
    "import { x } from '../../../compose.ts';",
    "import { x } from '../../../core/projects/projects.ts';",
  ]) assert.equal((await boundaries(file, use(bad))).length, 1, bad);
  for (const good of [
    "import { x } from 'node:fs';",
    "import { x } from './values.ts';",
    "import { x } from '../../../core/ports/clock.ts';",
    "import { x } from '../../../core/permissions/catalog.ts';",
    "import { x } from '../../../core/errors.ts';",
    "import { x } from '../../../core/projects/index.ts';",
    "import { x } from '../../other/index.ts';",
  ]) assert.deepEqual(await boundaries(file, use(good)), [], good);
});

test("another module is reached through its index.ts only, from a module and from outside; another module's http also through its http/index.ts", async () => {
  assert.equal((await boundaries('src/modules/values/core/probe.ts', use("import { x } from '../../other/core/things.ts';"))).length, 1);
  assert.equal((await boundaries('src/modules/values/http/probe.ts', use("import { x } from '../../other/postgres/things.ts';"))).length, 1);
  assert.equal((await boundaries('src/http/api2/probe.ts', use("import { x } from '../../modules/values/core/values.ts';"))).length, 1);
  assert.equal((await boundaries('src/core/permissions/probe.ts', use("import { x } from '../../modules/values/core/values.ts';"))).length, 1);
  assert.deepEqual(await boundaries('src/http/api2/probe.ts', use("import { x } from '../../modules/values/index.ts';")), []);
  assert.deepEqual(await boundaries('src/probe.ts', use("import { x } from './modules/values/module.ts';")), []);
  // The HTTP face: from another module's http only, and not its other http files.
  assert.deepEqual(await boundaries('src/modules/pnid/http/probe.ts', use("import { x } from '../../tags/http/index.ts';")), []);
  assert.equal((await boundaries('src/modules/pnid/http/probe.ts', use("import { x } from '../../tags/http/api2.ts';"))).length, 1);
  assert.equal((await boundaries('src/modules/pnid/core/probe.ts', use("import { x } from '../../tags/http/index.ts';"))).length, 1);
  assert.equal((await boundaries('src/http/api2/probe.ts', use("import { x } from '../../modules/tags/http/index.ts';"))).length, 1);
});

test("a module's http reaches no adapter and not its postgres; its postgres no surface; no part the wiring", async () => {
  assert.equal((await boundaries('src/modules/values/http/probe.ts', use("import { x } from '../../../adapters/postgres/sql.ts';"))).length, 1);
  assert.equal((await boundaries('src/modules/values/http/probe.ts', use("import { x } from '../postgres/repository.ts';"))).length, 1);
  assert.equal((await boundaries('src/modules/values/postgres/probe.ts', use("import { x } from '../../../http/errors.ts';"))).length, 1);
  assert.equal((await boundaries('src/modules/values/module.ts', use("import { x } from '../../compose.ts';"))).length, 1);
  // The node's Config is assembled from the module list: a module reads its own settings (settings.ts) and names the rest in its needs.
  for (const file of ['src/modules/values/settings.ts', 'src/modules/values/module.ts', 'src/modules/values/http/probe.ts']) {
    assert.equal((await boundaries(file, use("import { x } from '" + (file.includes('/http/') ? '../../../' : '../../') + "config.ts';"))).length, 1, file);
  }
  assert.deepEqual(await boundaries('src/modules/values/settings.ts', use("import { x } from '../../kernel-config.ts';")), []);
  assert.equal((await boundaries('src/modules/values/core/probe.ts', use("import { x } from '../../../kernel-config.ts';"))).length, 1, "a module's core reads no setting");
  assert.deepEqual(await boundaries('src/modules/values/postgres/probe.ts', use("import { x } from '../../../adapters/postgres/sql.ts';")), []);
  assert.deepEqual(await boundaries('src/modules/values/http/probe.ts', use("import { x } from '../core/values.ts';")), []);
});

test("a module's http never reads the store or repositories", async () => {
  const code = 'export const f = (core: { store: { repos: { users: { byId(id: string): unknown } } } }) => core.store.repos.users.byId("x");\n';
  const [result] = await eslint.lintText(code, { filePath: 'src/modules/values/http/probe.ts' });
  assert.ok(result!.messages.some((m) => m.ruleId === 'no-restricted-syntax'));
});

test('a module whose needs nothing before it supplies is a compile error naming it', () => {
  type Needy = FeatureModule<{ clock: { now(): Date }; spatial: string }, { lists: number }>;
  type Giver = FeatureModule<{ clock: { now(): Date } }, { spatial: string }>;
  const met: [Unmet<{ clock: { now(): Date } }, [Giver, Needy]>] extends [never] ? true : false = true;
  // @ts-expect-error -- Needy listed before the module that offers `spatial`
  const unmet: [Unmet<{ clock: { now(): Date } }, [Needy, Giver]>] extends [never] ? true : false = true;
  // @ts-expect-error -- a need of the wrong type is unmet too
  const wrongType: [Unmet<{ clock: { now(): Date }; spatial: number }, [Needy]>] extends [never] ? true : false = true;
  assert.deepEqual([met, unmet, wrongType], [true, true, true]);
});

test("an invalidation row must exist for each event a contract names, with the event's own data type", () => {
  // @ts-expect-error -- 'values.nothing' is no event of ModuleEventData: no row can be typed for it
  const rows: InvalidationRows<'values.nothing'> = { 'values.nothing': () => [] };
  assert.ok(rows);
});

test('the registries hold the kernel rows and the contracts\': routes, operation docs, error codes, store', () => {
  assert.ok(CONTRACT_ROUTES.some((r) => r.module === 'values' && r.api2 === valuesModule.routes?.api2));
  const api2 = operationTable('api2', { 'GET /api/2/kernel-probe': { does: 'x', errors: [] } });
  assert.ok(api2['GET /api/2/values/spatial-references'] && api2['GET /api/2/values/permissions'] && api2['GET /api/2/kernel-probe']);
  // An operation documented by the kernel's table and a module's is refused.
  assert.throws(() => operationTable('api2', { 'GET /api/2/values/permissions': { does: 'x', errors: [] } }), /given by both/);
  for (const code of Object.keys(ERROR_CODES)) assert.ok(ERROR_CATALOGUE[code], code);
  // The store carries every contract's repositories, and only those.
  const declared = (MODULES as readonly ModuleEntry[]).flatMap((m) => (isContract(m) ? Object.keys(m.repositories ?? {}) : []));
  assert.deepEqual(Object.keys(STORE_MODULES.repositories).sort(), declared.sort());
  for (const name of ['annotations', 'measurements', 'multipartUploads', 'pointClouds', 'sso', 'reports', 'connect']) assert.ok(declared.includes(name), name);
  assert.deepEqual(ERROR_CATALOGUE['point-cloud-not-ready'], { status: [409], defined: ['ours'] });
  for (const code of ['manage-sso-forbidden', 'sso-domain-claimed']) assert.ok(ERROR_CATALOGUE[code], code);
});

test("events are published through the one contract's publishing (the webhooks' fan-out); a second module giving one is refused", () => {
  assert.equal(STORE_MODULES.publishing, webhooksModule.publishing);
  const giving = (name: string) => ({ ...valuesModule, name, publishing: webhooksModule.publishing });
  assert.equal(onePublishing([valuesModule]), undefined);
  assert.throws(() => onePublishing([giving('a'), valuesModule, giving('b')]), /publishing: given by both a and b/);
});
