// The HTTP layer's rules of eslint.config.js (docs/architecture.md "The HTTP layer's face"):
// src/http imports the kernel through src/core/http-face.ts only and the use cases through
// src/services.ts, never the wiring; it never reads the store or repositories; a route file is
// typed by what it calls. (The slices' rules: test/unit/module-contract.test.ts.) Checked on
// probe sources, so a loosened rule fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.ruleId!);
}

test('src/http imports the kernel through src/core/http-face.ts only: any other file of src/core is refused', async () => {
  for (const kernel of ['errors.ts', 'ids/urn.ts', 'ports/repositories.ts', 'ports/store-slices.ts', 'permissions/authorizer.ts']) {
    assert.deepEqual(await problems('src/http/probe.ts', `import * as k from '../core/${kernel}';\nexport const x = k;\n`), ['no-restricted-imports'], kernel);
    assert.deepEqual(await problems('src/http/api2/probe.ts', `import * as k from '../../core/${kernel}';\nexport const x = k;\n`), ['no-restricted-imports'], kernel);
  }
  assert.deepEqual(await problems('src/http/api2/probe.ts', "import { DomainError } from '../../core/http-face.ts';\nexport const x = DomainError;\n"), []);
});

test('src/http never reads the store or repositories', async () => {
  const code = 'export const f = (core: { store: { repos: { users: { byId(id: string): unknown } } } }) => core.store.repos.users.byId("x");\n';
  assert.ok((await problems('src/http/oauth/probe.ts', code)).includes('no-restricted-syntax'));
  assert.deepEqual(await problems('src/modules/users/core/probe.ts', code), []);
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
  for (const wiring of ['compose.ts', 'module-list.ts', 'config.ts', 'main.ts', 'seed-file.ts']) {
    assert.deepEqual(await problems('src/http/api2/probe.ts', `import type { Core } from '../../${wiring}';\nexport type X = Core;\n`), ['no-restricted-imports'], wiring);
  }
  assert.deepEqual(await problems('src/http/probe.ts', "import type { Core } from '../compose.ts';\nexport type X = Core;\n"), ['no-restricted-imports']);
  assert.deepEqual(await problems('src/http/api2/probe.ts', "import type { HttpServices } from '../../services.ts';\nexport type X = HttpServices;\n"), []);
  // The kernel's settings' types, not the node's Config (assembled from the module list).
  assert.deepEqual(await problems('src/http/api2/probe.ts', "import type { KernelConfig } from '../../kernel-config.ts';\nexport type X = KernelConfig;\n"), []);
});

test('the kernel reads no setting: src/config.ts and src/kernel-config.ts are refused in src/core at any depth', async () => {
  for (const [file, from] of [['src/core/probe.ts', '../config.ts'], ['src/core/probe.ts', '../kernel-config.ts'], ['src/core/ports/probe.ts', '../../kernel-config.ts']]) {
    assert.ok((await problems(file!, `import type { X } from '${from}';\nexport type Y = X;\n`)).includes('no-restricted-imports'), `${file} ← ${from}`);
  }
});

test('the kernel imports no module, not even its public face: a module extends a kernel port by declaration merging', async () => {
  for (const [file, from] of [['src/core/ports/probe.ts', '../../modules/mail/index.ts'], ['src/core/probe.ts', '../modules/mail/index.ts'], ['src/core/events/probe.ts', '../../modules/tags/module.ts']]) {
    assert.deepEqual(await problems(file!, `import type { X } from '${from}';\nexport type Y = X;\n`), ['no-restricted-imports'], `${file} ← ${from}`);
  }
  assert.deepEqual(await problems('src/core/ports/probe.ts', "import type { Repos } from './repositories.ts';\nexport type Y = Repos;\n"), []);
});
