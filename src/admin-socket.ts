// The administration socket of a node on the embedded database: `npm run admin` cannot open
// DATA_DIR/pglite while the service holds it (PGlite belongs to one process), so the
// service listens on DATA_DIR/admin/admin.sock (a Unix socket in a folder only its user may
// enter, mode 0700) and runs the command there, through the same commands
// (src/admin-commands.ts) and use cases. Whoever may connect may already read DATA_DIR,
// the database itself: the socket grants nothing more than stopping the service would.
// On PostgreSQL the command works on the database beside the nodes; no socket is opened.
//
// Protocol: HTTP over the socket, `POST /run` with `{"argv": [...], "stdin": "..."}` (stdin
// only for --password-stdin), answering `{"code", "stdout", "stderr"}` as the command prints them.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { adminFailure, executeAdmin, parseAdminArgs, UsageError, type AdminBackend, type AdminResult } from './admin-commands.ts';
import { errorFields, type Logger } from './core/ports/telemetry.ts';

/** Where the socket of a DATA_DIR is. */
export const adminSocketPath = (dataDir: string): string => path.join(dataDir, 'admin', 'admin.sock');

/** The longest path a Unix socket may have (sun_path, Linux), less its final NUL. */
const SOCKET_PATH_MAX = 107;
/** The largest request accepted (a password and a few options). */
const MAX_REQUEST = 64 * 1024;

interface RunRequest { argv: string[]; stdin?: string }

const isRunRequest = (v: unknown): v is RunRequest =>
  typeof v === 'object' && v !== null && Array.isArray((v as RunRequest).argv) && (v as RunRequest).argv.every((a) => typeof a === 'string')
  && ((v as RunRequest).stdin === undefined || typeof (v as RunRequest).stdin === 'string');

async function run(body: string, backend: AdminBackend, logger: Logger): Promise<AdminResult> {
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return { code: 2, stdout: '', stderr: 'scanbase admin: the request is not JSON\n' };
  }
  if (!isRunRequest(request)) return { code: 2, stdout: '', stderr: 'scanbase admin: expected {"argv": [strings], "stdin"?: string}\n' };
  try {
    const parsed = parseAdminArgs(request.argv);
    if (!parsed) throw new UsageError('no command');
    // The command's name only: its options may hold e-mail addresses.
    logger.info({ adminCommand: parsed.command }, `admin: ${parsed.command} (over the administration socket)`);
    return await executeAdmin(parsed, backend, async () => request.stdin ?? '');
  } catch (e) {
    const failure = adminFailure(e);
    if (failure) return failure;
    logger.error({ ...errorFields(e) }, 'admin: a command over the administration socket failed');
    return { code: 1, stdout: '', stderr: `scanbase admin: failed: ${e instanceof Error ? e.message : String(e)}\n` };
  }
}

/**
 * Listens on DATA_DIR/admin/admin.sock; answers the server, or null (logged) when the
 * socket cannot be made (a DATA_DIR path too long for a socket, a folder it may not
 * create): the service then runs without it, and the command asks to stop the service.
 */
export async function listenAdminSocket(dataDir: string, backend: AdminBackend, logger: Logger): Promise<http.Server | null> {
  const socket = adminSocketPath(dataDir);
  if (Buffer.byteLength(socket) > SOCKET_PATH_MAX) {
    logger.warn({ socket }, 'admin: DATA_DIR is too long a path for the administration socket; `npm run admin` needs the service stopped');
    return null;
  }
  try {
    fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
    fs.chmodSync(path.dirname(socket), 0o700);
    // A socket left by a process that died: this process holds DATA_DIR's lock, so it is nobody's.
    fs.rmSync(socket, { force: true });
  } catch (e) {
    logger.warn({ socket, ...errorFields(e) }, 'admin: the administration socket cannot be made; `npm run admin` needs the service stopped');
    return null;
  }
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/run') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('POST /run only\n');
      return;
    }
    let body = '';
    let size = 0;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      size += Buffer.byteLength(chunk);
      if (size > MAX_REQUEST) req.destroy();
      else body += chunk;
    });
    req.on('end', () => {
      void run(body, backend, logger).then((result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socket, 0o600);
  return server;
}

/** Asks the service on `dataDir` to run a command; null when no service answers there. */
export function runOverAdminSocket(dataDir: string, argv: string[], stdin: string | undefined): Promise<AdminResult | null> {
  const socketPath = adminSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    if (!fs.existsSync(socketPath)) return resolve(null);
    const req = http.request({ socketPath, method: 'POST', path: '/run', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        try {
          resolve(JSON.parse(text) as AdminResult);
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNREFUSED' || e.code === 'ENOENT' ? resolve(null) : reject(e)));
    req.end(JSON.stringify({ argv, ...(stdin === undefined ? {} : { stdin }) }));
  });
}
