// `npm run admin -- …` as an operator runs it: src/admin.ts in a process of its own, on the
// environment given (the deployment's configuration).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownChild, runProcessEnv } from './children.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from './database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AdminRun { code: number | null; stdout: string; stderr: string }

export function runAdmin(env: Record<string, string>, args: string[], stdin?: string): Promise<AdminRun> {
  return new Promise((resolve) => {
    const child = ownChild(spawn(process.execPath, [path.join(ROOT, 'src/admin.ts'), ...args], { cwd: ROOT, env: { ...runProcessEnv(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(stdin ?? '');
    child.once('close', (code) => resolve({ code, stdout, stderr })); // close: stdout read to the end
  });
}

/**
 * A deployment for `npm run admin` on `engine`, made fresh (a DATA_DIR, and on PostgreSQL a
 * database of its own): the command run on it, the same answering its JSON (exit 0 asserted),
 * and the cleanup.
 */
export async function adminDeployment(engine: 'pglite' | 'postgres'): Promise<{
  admin: (args: string[], stdin?: string) => Promise<AdminRun>;
  json: (args: string[], stdin?: string) => Promise<any>; // each command's own JSON
  cleanup: () => Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-admin-'));
  const env: Record<string, string> = { PATH: process.env.PATH!, HOME: process.env.HOME!, DATA_DIR: dataDir, PUBLIC_URL: 'https://scan.example.com' };
  let drop = async () => {};
  if (engine === 'postgres') {
    const db = await freshPostgresUrl(TEST_DATABASE_URL!);
    env.DATABASE_URL = db.url;
    drop = db.drop;
  }
  const admin = (args: string[], stdin?: string) => runAdmin(env, args, stdin);
  return {
    admin,
    async json(args, stdin) {
      const r = await admin([...args, '--json'], stdin);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    },
    async cleanup() {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** In a describe: a fresh deployment made before its tests and cleaned up after them; the command and its JSON. */
export function useAdminDeployment(engine: 'pglite' | 'postgres'): Pick<Awaited<ReturnType<typeof adminDeployment>>, 'admin' | 'json'> {
  let deployment: Awaited<ReturnType<typeof adminDeployment>>;
  before(async () => {
    deployment = await adminDeployment(engine);
  });
  after(() => deployment.cleanup());
  return { admin: (args, stdin) => deployment.admin(args, stdin), json: (args, stdin) => deployment.json(args, stdin) };
}
