// The feature modules' descriptors (src/core/modules.ts, docs/architecture.md "Module
// descriptors"): every module's index.ts exports one; the job kinds a module's code
// enqueues are the ones it declares; a composition refuses a job kind handled twice, an
// enqueued kind nobody handles, and an offer under a name already supplied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Composition, type FeatureModule } from '../../src/core/modules.ts';
import type { JobHandler } from '../../src/core/jobs/index.ts';

const CORE = path.resolve(import.meta.dirname, '../../src/core');
const moduleDirs = fs.readdirSync(CORE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(CORE, d.name, 'index.ts')))
  .map((d) => d.name);

const isDescriptor = (v: unknown): v is FeatureModule<never, unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { create?: unknown }).create === 'function';

async function descriptorsOf(dir: string): Promise<FeatureModule<never, unknown>[]> {
  const exports: Record<string, unknown> = await import(path.join(CORE, dir, 'index.ts'));
  return Object.values(exports).filter(isDescriptor);
}

const handler: JobHandler = { run: async () => null };

test('every feature module index.ts exports exactly one descriptor, named after its folder', async () => {
  assert.ok(moduleDirs.length >= 20, `found ${moduleDirs.length} modules`);
  for (const dir of moduleDirs) {
    const found = await descriptorsOf(dir);
    assert.equal(found.length, 1, `src/core/${dir}/index.ts exports ${found.length} descriptors`);
    assert.equal(found[0]!.name, dir);
  }
});

test("the job kinds a module's code enqueues are the ones its descriptor declares", async () => {
  const all: string[] = [];
  for (const dir of moduleDirs) {
    const exports: Record<string, unknown> = await import(path.join(CORE, dir, 'index.ts'));
    const enqueued = new Set<string>();
    for (const file of fs.readdirSync(path.join(CORE, dir)).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(CORE, dir, file), 'utf8');
      for (const m of text.matchAll(/\.enqueue\(\s*repos,\s*\{[^}]*?kind:\s*([A-Z_]+)/gs)) {
        const value = exports[m[1]!];
        assert.equal(typeof value, 'string', `src/core/${dir}/${file} enqueues ${m[1]}, which its index.ts does not export`);
        enqueued.add(value as string);
      }
    }
    const [descriptor] = await descriptorsOf(dir);
    assert.deepEqual([...(descriptor!.enqueues ?? [])].sort(), [...enqueued].sort(), `src/core/${dir}: declared vs enqueued job kinds`);
    all.push(...enqueued);
  }
  // Not vacuous: the password reset's mail, the work-zone copy and the tag detection are found in the code.
  assert.deepEqual(all.sort(), ['password-reset-mail', 'tag-detection', 'workzone-copy']);
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
