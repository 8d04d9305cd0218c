// Issue 26 item 10: the shipped compose setup serves stored objects on an origin of their
// own (the blob origin), with the blob safety headers, and never on the service's origin;
// the console (on PUBLIC_URL) is the one origin MinIO grants CORS to. Read from the files
// as shipped: compose.yaml's defaults and deploy/nginx.conf's servers. (compose.yaml's
// syntax is checked by test/e2e/deploy.test.ts; `nginx -t` runs on it where nginx is installed.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const compose = fs.readFileSync('compose.yaml', 'utf8');
const nginx = fs.readFileSync('deploy/nginx.conf', 'utf8');

/** The default of a `${VAR:-default}` setting of compose.yaml. */
function setting(name: string): string {
  const m = new RegExp(`^\\s+${name}:\\s*\\$\\{[A-Z_]+:-([^}]+)\\}`, 'm').exec(compose);
  assert.ok(m, `${name} in compose.yaml`);
  return m[1]!;
}

/** nginx's server blocks, by the port they listen on. */
function servers(): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of nginx.matchAll(/^server \{\n([\s\S]*?)^\}/gm)) {
    const port = /listen (\d+);/.exec(m[1]!);
    if (port) out.set(Number(port[1]), m[1]!);
  }
  return out;
}

/** The host port compose publishes for a container port of the proxy. */
function published(containerPort: number): number {
  const m = new RegExp(`"(\\d+):${containerPort}"`).exec(compose);
  assert.ok(m, `the proxy publishes its port ${containerPort}`);
  return Number(m[1]);
}

test('compose signs storage URLs on another origin than the service (the blob origin)', () => {
  const service = new URL(setting('PUBLIC_URL'));
  const blobs = new URL(setting('STORAGE_PUBLIC_URL'));
  assert.notEqual(blobs.origin, service.origin);
  // MinIO grants CORS to the console's origin only.
  assert.equal(setting('MINIO_API_CORS_ALLOW_ORIGIN'), service.origin);
});

test('the proxy serves the bucket only on the blob origin, with nosniff and a sandbox CSP, and never on the service origin', () => {
  const byPort = servers();
  const blobPort = Number(new URL(setting('STORAGE_PUBLIC_URL')).port);
  const servicePort = Number(new URL(setting('PUBLIC_URL')).port);
  const blob = [...byPort].find(([p]) => published(p) === blobPort)?.[1];
  const main = [...byPort].find(([p]) => published(p) === servicePort)?.[1];
  assert.ok(blob, 'a server for the blob origin');
  assert.ok(main, 'a server for the service origin');
  assert.match(blob, /location \/scanbase\/ \{[^}]*proxy_pass http:\/\/minio:9000;/);
  assert.match(blob, /add_header Content-Security-Policy "sandbox; default-src 'none'" always;/);
  assert.match(blob, /add_header X-Content-Type-Options nosniff always;/);
  assert.doesNotMatch(blob, /proxy_pass http:\/\/scanbase/);
  assert.doesNotMatch(main, /minio/);
});

const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

test('deploy/nginx.conf is valid for nginx (nginx -t, with the compose host names pointed at loopback)', { skip: nginxBin ? false : 'nginx is not installed' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-conf-'));
  try {
    const site = nginx.replace(/scanbase-[12]:8080|minio:9000/g, '127.0.0.1:9').replace(/listen (\d+);/g, (_m, p) => `listen ${18000 + Number(p)};`);
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir};\n  proxy_temp_path ${dir};\n  include ${dir}/site.conf;\n}\n`,
    );
    const r = spawnSync(nginxBin!, ['-t', '-c', path.join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
