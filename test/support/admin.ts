// `npm run admin -- …` as an operator runs it: src/admin.ts in a process of its own, on the
// environment given (the deployment's configuration).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownChild } from './children.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AdminRun { code: number | null; stdout: string; stderr: string }

/**
 * The run's compile cache (scripts/test.mjs) kept in the operator's environment: not
 * configuration, only what spares each command stripping and compiling the service again.
 */
const withCompileCache = (env: Record<string, string>) =>
  process.env.NODE_COMPILE_CACHE ? { ...env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : env;

export function runAdmin(env: Record<string, string>, args: string[], stdin?: string): Promise<AdminRun> {
  return new Promise((resolve) => {
    const child = ownChild(spawn(process.execPath, [path.join(ROOT, 'src/admin.ts'), ...args], { cwd: ROOT, env: withCompileCache(env), stdio: ['pipe', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(stdin ?? '');
    child.once('close', (code) => resolve({ code, stdout, stderr })); // close: stdout read to the end
  });
}
