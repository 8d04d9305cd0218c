// The feature modules' descriptors (src/core/modules.ts, docs/architecture.md "Module
// descriptors"): every module exports one (src/core/<m>/index.ts, or src/modules/<m>/module.ts
// in its contract); the job kinds a module's code
// enqueues are the ones it declares; a composition refuses a job kind handled twice, an
// enqueued kind nobody handles, and an offer under a name already supplied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Composition, type FeatureModule } from '../../src/core/modules.ts';
import type { JobHandler } from '../../src/modules/jobs/index.ts';

const CORE = path.resolve(import.meta.dirname, '../../src/core');
const MODULES = path.resolve(import.meta.dirname, '../../src/modules');

/** Every feature module: a folder of src/core with an index.ts, or of src/modules with a module.ts (its contract). */
interface ModuleDir {
  name: string;
  /** Where its code is (enqueue calls are looked for there). */
  code: string;
  /** The file its descriptor is exported from, and its public face. */
  face: string;
  contract: string | null;
}
const moduleDirs: ModuleDir[] = [
  ...fs.readdirSync(CORE, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(CORE, d.name, 'index.ts')))
    .map((d) => ({ name: d.name, code: path.join(CORE, d.name), face: path.join(CORE, d.name, 'index.ts'), contract: null })),
  ...fs.readdirSync(MODULES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(MODULES, d.name, 'module.ts')))
    .map((d) => ({ name: d.name, code: path.join(MODULES, d.name, 'core'), face: path.join(MODULES, d.name, 'index.ts'), contract: path.join(MODULES, d.name, 'module.ts') })),
];

const isDescriptor = (v: unknown): v is FeatureModule<never, unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { create?: unknown }).create === 'function';

async function descriptorsOf(dir: ModuleDir): Promise<FeatureModule<never, unknown>[]> {
  if (dir.contract) {
    const exports: Record<string, unknown> = await import(dir.contract);
    return Object.values(exports).flatMap((v) => (typeof v === 'object' && v !== null && 'feature' in v && isDescriptor(v.feature) ? [v.feature] : []));
  }
  const exports: Record<string, unknown> = await import(dir.face);
  return Object.values(exports).filter(isDescriptor);
}

const handler: JobHandler = { run: async () => null };

test('every feature module exports exactly one descriptor (src/core: its index.ts; src/modules: its contract), named after its folder', async () => {
  assert.ok(moduleDirs.length >= 21, `found ${moduleDirs.length} modules`);
  for (const dir of moduleDirs) {
    const found = await descriptorsOf(dir);
    assert.equal(found.length, 1, `${dir.name} exports ${found.length} descriptors`);
    assert.equal(found[0]!.name, dir.name);
  }
});

test("the job kinds a module's code enqueues are the ones its descriptor declares", async () => {
  const all: string[] = [];
  for (const dir of moduleDirs) {
    const exports: Record<string, unknown> = fs.existsSync(dir.face) ? await import(dir.face) : {};
    const enqueued = new Set<string>();
    for (const file of fs.readdirSync(dir.code, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir.code, file), 'utf8');
      for (const m of text.matchAll(/\.enqueue\(\s*repos,\s*\{[^}]*?kind:\s*([A-Z_]+)/gs)) {
        const value = exports[m[1]!];
        assert.equal(typeof value, 'string', `${dir.code}/${file} enqueues ${m[1]}, which its public face does not export`);
        enqueued.add(value as string);
      }
    }
    const [descriptor] = await descriptorsOf(dir);
    assert.deepEqual([...(descriptor!.enqueues ?? [])].sort(), [...enqueued].sort(), `${dir.name}: declared vs enqueued job kinds`);
    all.push(...enqueued);
  }
  // Not vacuous: the password reset's mail, the point-cloud conversion and the mesh export (src/modules), the work-zone copy and the tag detection are found in the code.
  assert.deepEqual(all.sort(), ['export-to-mesh', 'password-reset-mail', 'point-cloud-conversion', 'tag-detection', 'workzone-copy']);
});

test('no two modules may handle the same job kind', () => {
  const a: FeatureModule<object, object> = { name: 'a', create: () => ({ offers: {}, jobs: { copy: handler } }) };
  const b: FeatureModule<object, object> = { name: 'b', create: () => ({ offers: {}, jobs: { copy: handler } }) };
  assert.throws(() => Composition.of({}).add(a).add(b).seal(), /job kind copy is handled by both a and b/);
});

test('a job kind a module enqueues must have a handler among the modules', () => {
  const a: FeatureModule<object, object> = { name: 'a', enqueues: ['detect'], create: () => ({ offers: {} }) };
  assert.throws(() => Composition.of({}).add(a).seal(), /module a enqueues job kind detect, which no module handles/);
  const b: FeatureModule<object, object> = { name: 'b', create: () => ({ offers: {}, jobs: { detect: handler } }) };
  assert.doesNotThrow(() => Composition.of({}).add(a).add(b).seal());
});

test('a module may not offer a name already supplied', () => {
  const a: FeatureModule<object, { clock: number }> = { name: 'a', create: () => ({ offers: { clock: 1 } }) };
  assert.throws(() => Composition.of({ clock: 0 }).add(a), /module a offers clock, which is already supplied/);
});

test("a module is built from the adapters and the offers above it; the job runner's handlers and the seeder's extensions are complete once sealed", async () => {
  const seen: string[] = [];
  const first: FeatureModule<{ base: string }, { greeting: string }> = {
    name: 'first',
    create: ({ base }) => ({ offers: { greeting: `${base}!` }, jobs: { k: handler }, tasks: [{ name: 't', everySeconds: 1, atStart: false, run: async () => 0, failure: { level: 'warn', message: 'x' } }] }),
  };
  const second: FeatureModule<{ greeting: string; jobHandlers: Readonly<Record<string, JobHandler>> }, { runner: () => JobHandler | undefined }> = {
    name: 'second',
    create: ({ greeting, jobHandlers }) => {
      seen.push(greeting);
      return { offers: { runner: () => jobHandlers.k }, start: async () => void seen.push('start second'), stop: async () => void seen.push('stop second') };
    },
  };
  const third: FeatureModule<object, object> = {
    name: 'third',
    create: () => ({ offers: {}, seedExtensions: [async () => ({})], start: async () => void seen.push('start third'), stop: async () => void seen.push('stop third') }),
  };
  const node = Composition.of({ base: 'hi' }).add(first).add(second).add(third).seal();
  assert.equal(node.use.runner(), handler);
  assert.equal(node.use.seedExtensions.length, 1);
  assert.deepEqual(node.tasks.map((t) => t.name), ['t']);
  await node.start();
  await node.stop();
  assert.deepEqual(seen, ['hi!', 'start second', 'start third', 'stop third', 'stop second']);
  assert.deepEqual(node.modules.map((m) => [m.name, m.jobKinds, m.tasks, m.seedExtensions]), [
    ['first', ['k'], ['t'], 0], ['second', [], [], 0], ['third', [], [], 1],
  ]);
});

test('a module whose needs nothing above supplies does not compile (tsc checks the @ts-expect-error lines), and fails if forced', () => {
  const needy: FeatureModule<{ authorizer: { check(): string } }, { checked: string }> = {
    name: 'needy',
    create: ({ authorizer }) => ({ offers: { checked: authorizer.check() } }),
  };
  // @ts-expect-error: no adapter or module above supplies `authorizer`
  assert.throws(() => Composition.of({ clock: 0 }).add(needy), TypeError);
  // @ts-expect-error: `authorizer` is supplied with the wrong type
  assert.throws(() => Composition.of({ authorizer: 'yes' }).add(needy), TypeError);
  const supplier: FeatureModule<object, { authorizer: { check(): string } }> = { name: 'supplier', create: () => ({ offers: { authorizer: { check: () => 'ok' } } }) };
  assert.equal(Composition.of({ clock: 0 }).add(supplier).add(needy).seal().use.checked, 'ok');
});
