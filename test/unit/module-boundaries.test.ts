// The module rules of eslint.config.js (docs/architecture.md "Modules"): a feature module
// is imported through its index.ts from other modules, src/http and the wiring; the shared
// kernel (ports, ids, crypto, permissions, events) file by file; src/http never reads the
// store or repositories. Checked on probe sources, so a loosened rule fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.ruleId!);
}

test("a module importing another module's internal file is refused; its index.ts and the shared kernel are allowed", async () => {
  const file = 'src/core/users/probe.ts';
  assert.deepEqual(await problems(file, "import { createProjects } from '../projects/projects.ts';\nexport const x = createProjects;\n"), ['no-restricted-imports']);
  assert.deepEqual(await problems(file, "import { createProjects } from '../projects/index.ts';\nexport const x = createProjects;\n"), []);
  assert.deepEqual(
    await problems(file, [
      "import type { Clock } from '../ports/clock.ts';",
      "import { requirePermission } from '../permissions/authorizer.ts';",
      "import { refValue } from '../ids/urn.ts';",
      "import { notFound } from '../errors.ts';",
      "import { sameTeam } from './account-users.ts';",
      'export const x: [Clock?, unknown?, unknown?, unknown?, unknown?] = [undefined, requirePermission, refValue, notFound, sameTeam];',
    ].join('\n') + '\n'),
    [],
  );
});

test("src/http and the wiring import a module through its index.ts only", async () => {
  assert.deepEqual(await problems('src/http/api2/probe.ts', "import { createProjects } from '../../core/projects/projects.ts';\nexport const x = createProjects;\n"), ['no-restricted-imports']);
  assert.deepEqual(await problems('src/http/api2/probe.ts', "import { createProjects } from '../../core/projects/index.ts';\nexport const x = createProjects;\n"), []);
  assert.deepEqual(await problems('src/probe.ts', "import { createProjects } from './core/projects/projects.ts';\nexport const x = createProjects;\n"), ['no-restricted-imports']);
});

test('src/http never reads the store or repositories', async () => {
  const code = 'export const f = (core: { store: { repos: { users: { byId(id: string): unknown } } } }) => core.store.repos.users.byId("x");\n';
  assert.ok((await problems('src/http/pages/probe.ts', code)).includes('no-restricted-syntax'));
  assert.deepEqual(await problems('src/core/users/probe.ts', code), []);
});

test('a route file is typed by the use cases it calls: the whole face is refused there, its Pick allowed; the API plugins may hand the whole face on', async () => {
  const whole = "import type { Services } from '../../services.ts';\nexport const f = (core: Services) => core;\n";
  const picked = "import type { Services } from '../../services.ts';\nexport const f = (core: Pick<Services, 'accounts'>) => core.accounts;\n";
  assert.deepEqual(await problems('src/http/api2/probe.ts', whole), ['no-restricted-syntax']);
  assert.deepEqual(await problems('src/modules/values/http/probe.ts', "import type { Services } from '../../../services.ts';\nexport const f = (core: Services) => core;\n"), ['no-restricted-syntax']);
  assert.deepEqual(await problems('src/http/api2/probe.ts', picked), []);
  assert.deepEqual(await problems('src/http/api2/routes.ts', whole), []);
});

test('src/http receives the face (src/services.ts), never the wiring: importing the composition or the module list from it is refused', async () => {
  for (const wiring of ['compose.ts', 'module-list.ts', 'main.ts', 'seed-file.ts']) {
    assert.deepEqual(await problems('src/http/api2/probe.ts', `import type { Core } from '../../${wiring}';\nexport type X = Core;\n`), ['no-restricted-imports'], wiring);
  }
  assert.deepEqual(await problems('src/http/probe.ts', "import type { Core } from '../compose.ts';\nexport type X = Core;\n"), ['no-restricted-imports']);
  assert.deepEqual(await problems('src/http/api2/probe.ts', "import type { HttpServices } from '../../services.ts';\nexport type X = HttpServices;\n"), []);
});
