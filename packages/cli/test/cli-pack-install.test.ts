// @engine-independent: the packages and the command are checked; the service is only their counterpart.
// @scanbase/sdk and @scanbase/cli are installable packages: `npm pack` builds each to
// JavaScript with type declarations (prepack), the tarballs install into an empty folder
// without the network (from npm's cache, which the repository's `npm ci` filled, by a
// lockfile holding the tarballs and the versions the repository locks), and the installed
// `scanbase` runs on the pinned Node and on the machine's Node 20: --help, login
// --with-token (the server taken from the token's issuer) and whoami against a started
// service. The declarations type-check a consumer; an older Node is refused in one line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, stopAndRemove, type RunningServer } from '../../../test/support/server.ts';
import { operatorCall } from '../../../test/support/e2e-http.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const OPERATOR_TOKEN = 'pack-test-operator-token-24+';

/** The machine's own Node 20, not the pinned one: the first of `which -a node` outside node_modules whose major is 20. */
function systemNode20(): string | undefined {
  const found = spawnSync('sh', ['-c', 'which -a node'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  for (const candidate of found) {
    if (candidate.includes('node_modules')) continue;
    const version = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (version.split('.')[0] === '20') return candidate;
  }
  return undefined;
}
const NODE20 = systemNode20();

interface Packed { name: string; filename: string; integrity: string; files: { path: string }[] }
interface LockEntry {
  version?: string; integrity?: string; resolved?: string; link?: boolean;
  dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; dev?: boolean; devOptional?: boolean; [k: string]: unknown;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-pack-'));
const app = path.join(work, 'app');
let packed: Packed[] = [];
let server: RunningServer;

/** Where the workspace package at `dir` sits in the app (node_modules/@scanbase/…). */
const IN_APP: Record<string, string> = { 'packages/sdk': 'node_modules/@scanbase/sdk', 'packages/cli': 'node_modules/@scanbase/cli' };

/**
 * The app's lockfile: the two tarballs, and every package they need at run time with the
 * version, integrity and place the repository's lockfile gives it (so `npm ci --offline`
 * takes each from npm's cache by its integrity and asks no registry).
 */
function appLockfile(): unknown {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const entries = root.packages;
  const parentOf = (loc: string): string => {
    const i = loc.lastIndexOf('/node_modules/');
    return i < 0 ? '' : loc.slice(0, i);
  };
  const resolve = (from: string, name: string): string => {
    for (let base = from; ; base = parentOf(base)) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (entries[candidate]) return candidate;
      if (!base) throw new Error(`${name} (needed by ${from || 'the root'}) is not in package-lock.json`);
    }
  };
  const tryResolve = (from: string, name: string): string | null => {
    try {
      return resolve(from, name);
    } catch {
      return null;
    }
  };
  const needed = new Set<string>();
  const visit = (loc: string) => {
    const { dependencies = {}, optionalDependencies = {} } = entries[loc]!;
    for (const dep of [...Object.keys(dependencies), ...Object.keys(optionalDependencies)]) {
      // An optional dependency the repository did not install (another platform's) stays out here too.
      if (dep in optionalDependencies && !(dep in dependencies) && !tryResolve(loc, dep)) continue;
      const at = resolve(loc, dep);
      if (entries[at]!.link || IN_APP[entries[at]!.resolved ?? '']) continue; // the other workspace package: its tarball
      if (!needed.has(at)) {
        needed.add(at);
        visit(at);
      }
    }
  };
  Object.keys(IN_APP).forEach(visit);
  const toApp = (loc: string) => {
    for (const [ws, there] of Object.entries(IN_APP)) if (loc.startsWith(`${ws}/`)) return there + loc.slice(ws.length);
    return loc;
  };
  const packages: Record<string, unknown> = {
    '': { name: 'scanbase-pack-check', dependencies: Object.fromEntries(packed.map((p) => [p.name, `file:../${p.filename}`])) },
  };
  for (const loc of [...needed].sort()) {
    const { dev: _dev, devOptional: _devOptional, ...entry } = entries[loc]!;
    packages[toApp(loc)] = entry;
  }
  for (const [ws, there] of Object.entries(IN_APP)) {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, ws, 'package.json'), 'utf8')) as { name: string; version: string; dependencies?: Record<string, string>; bin?: Record<string, string>; engines?: Record<string, string> };
    const tarball = packed.find((p) => p.name === pkg.name)!;
    packages[there] = {
      version: pkg.version, resolved: `file:../${tarball.filename}`, integrity: tarball.integrity,
      ...(pkg.dependencies ? { dependencies: pkg.dependencies } : {}), ...(pkg.bin ? { bin: pkg.bin } : {}), ...(pkg.engines ? { engines: pkg.engines } : {}),
    };
  }
  return { name: 'scanbase-pack-check', lockfileVersion: 3, requires: true, packages };
}

before(async () => {
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', work, '-w', '@scanbase/sdk', '-w', '@scanbase/cli'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  assert.equal(pack.status, 0, pack.stderr);
  packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Packed[];
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'scanbase-pack-check', private: true, dependencies: Object.fromEntries(packed.map((p) => [p.name, `file:../${p.filename}`])) }, null, 2));
  fs.writeFileSync(path.join(app, 'package-lock.json'), JSON.stringify(appLockfile(), null, 2));
  server = await startServer({ OPERATOR_TOKEN, SEED_FILE: path.join(ROOT, 'docs/seed.example.json') });
});
after(async () => {
  if (server) await stopAndRemove(server);
  fs.rmSync(work, { recursive: true, force: true });
});

test('npm pack builds each package: JavaScript and declarations in dist/, the command\'s bin, no sources or tests', () => {
  const files = (name: string) => packed.find((p) => p.name === name)!.files.map((f) => f.path);
  const sdk = files('@scanbase/sdk');
  const cli = files('@scanbase/cli');
  for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/node/index.js', 'dist/node/index.d.ts', 'package.json']) assert.ok(sdk.includes(f), `sdk has ${f}`);
  for (const f of ['bin/scanbase.js', 'dist/main.js', 'package.json']) assert.ok(cli.includes(f), `cli has ${f}`);
  for (const f of [...sdk, ...cli]) assert.ok(!/^(src|test|scripts)\//.test(f) && !f.endsWith('.ts') || f.endsWith('.d.ts'), `not in a tarball: ${f}`);
});

test('the tarballs install into an empty folder without the network (npm ci --offline)', () => {
  const r = spawnSync('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.ok(fs.existsSync(path.join(app, 'node_modules/.bin/scanbase')));
});

test('the declarations type-check a consumer of both entry points', () => {
  fs.writeFileSync(path.join(app, 'consumer.ts'), [
    "import { createScanbaseClient, ScanbaseError, type ScanbaseClient } from '@scanbase/sdk';",
    "import { FileTokenStore, uploadFiles } from '@scanbase/sdk/node';",
    "const client: ScanbaseClient = createScanbaseClient({ baseUrl: 'http://127.0.0.1:8080', timeoutMs: 5000 });",
    "export const accounts = client.api2.GET('/api/2/accounts');",
    "export const store = new FileTokenStore('/tmp/profile.json');",
    'export const upload: typeof uploadFiles = uploadFiles;',
    "export const code: string = new ScanbaseError({ status: 0, errorCode: 'x', message: 'm', surface: 'network', method: 'GET', url: '/' }).errorCode;",
    '',
  ].join('\n'));
  fs.writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules/@types')] },
    files: ['consumer.ts'],
  }));
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

/** The installed command, through its bin link, with `node` the given binary (the first on PATH). */
function scanbase(node: string, args: string[], o: { stdin?: string; config: string }) {
  return spawnSync('scanbase', args, {
    cwd: app, encoding: 'utf8', input: o.stdin, timeout: 60_000,
    env: { PATH: `${path.join(app, 'node_modules/.bin')}:${path.dirname(node)}:/usr/bin:/bin`, HOME: os.homedir(), SCANBASE_CONFIG_DIR: o.config },
  });
}

async function runsOn(node: string) {
  const version = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
  const config = fs.mkdtempSync(path.join(work, `config-${version}-`));
  const help = scanbase(node, ['--help'], { config });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^Usage: scanbase /);
  assert.match(help.stdout, /whoami/);
  const pair = await operatorCall(server.url, OPERATOR_TOKEN, 'POST', '/tokens', { email: 'olivia@acme.test' });
  const login = scanbase(node, ['login', '--with-token'], { config, stdin: JSON.stringify(pair) });
  assert.equal(login.status, 0, login.stderr);
  const who = scanbase(node, ['whoami', '--json'], { config });
  assert.equal(who.status, 0, `Node ${version}: ${who.stderr}`);
  const me = JSON.parse(who.stdout) as { server: string; email: string; name: string; accounts: { name: string }[] };
  assert.equal(me.server, server.url, 'the server is the token\'s issuer');
  assert.equal(me.email, 'olivia@acme.test');
  assert.equal(me.name, 'Olivia Owner');
  assert.deepEqual(me.accounts.map((a) => a.name), ['Acme']);
}

test('the installed scanbase runs on the pinned Node: --help, login --with-token, whoami', () => runsOn(process.execPath));

test('the installed scanbase runs on the machine\'s Node 20 too', { skip: NODE20 ? false : 'no Node 20 on this machine (which -a node)' }, () => runsOn(NODE20!));

test('the installed scanbase refuses a Node older than 20 in one line', () => {
  // An older Node, as the launcher sees it (it reads process.versions before loading anything else).
  const older = 'data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"18.20.4"}})';
  const r = spawnSync(process.execPath, ['--import', older, path.join(app, 'node_modules/@scanbase/cli/bin/scanbase.js'), '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^scanbase: needs Node\.js 20 or later; this is Node\.js v\d+/);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1);
});
