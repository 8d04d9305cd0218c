// Tokens on disk, one profile per server and user: ~/.config/scanbase/profiles/<host>/<user>.json
// (SCANBASE_CONFIG_DIR or XDG_CONFIG_HOME respected), written with mode 0600 in a 0700 folder, replaced
// atomically (temporary file, then rename). The cross-process lock is proper-lockfile's:
// a lock directory made with mkdir (atomic, also on network file systems), whose mtime
// the holder refreshes; a holder that died stops refreshing it and the lock is taken
// over once stale. That is what lets N processes share one profile and refresh once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import lockfile from 'proper-lockfile';
import type { StoredTokens, TokenStore } from '../auth.ts';

/** SCANBASE_CONFIG_DIR, else <XDG_CONFIG_HOME or ~/.config>/scanbase. */
export const configDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.SCANBASE_CONFIG_DIR || path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'scanbase');

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/** The profile file of a server and user (the user's URN or id). */
export function profilePath(server: string, user: string, dir = configDir()): string {
  const u = new URL(server);
  const host = safe(`${u.protocol.replace(':', '')}_${u.host}`);
  // A short digest keeps two servers under one host (different paths) apart.
  const digest = crypto.createHash('sha256').update(u.href).digest('hex').slice(0, 8);
  return path.join(dir, 'profiles', `${host}_${digest}`, `${safe(user)}.json`);
}

export interface FileTokenStoreOptions {
  /** How long a lock may go without its holder refreshing it before it is taken over (ms). */
  staleMs?: number;
  /** How long to wait for the lock before giving up (ms). */
  waitMs?: number;
}

export class FileTokenStore implements TokenStore {
  readonly file: string;
  readonly #stale: number;
  readonly #wait: number;

  constructor(file: string, o: FileTokenStoreOptions = {}) {
    this.file = file;
    this.#stale = o.staleMs ?? 10_000;
    this.#wait = o.waitMs ?? 60_000;
  }

  /** The store of a server and user under the configuration folder. */
  static forProfile(server: string, user: string, o: FileTokenStoreOptions & { dir?: string } = {}): FileTokenStore {
    return new FileTokenStore(profilePath(server, user, o.dir), o);
  }

  async read(): Promise<StoredTokens | null> {
    try {
      return JSON.parse(await fs.promises.readFile(this.file, 'utf8')) as StoredTokens;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async write(tokens: StoredTokens): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    const fh = await fs.promises.open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(JSON.stringify(tokens, null, 2));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, this.file);
  }

  async clear(): Promise<void> {
    await fs.promises.rm(this.file, { force: true });
  }

  async withLock<T>(fn: () => Promise<T>): Promise<T> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const started = Date.now();
    let release: () => Promise<void>;
    // proper-lockfile's default throws from a timer (an uncaught exception) when the lock
    // was taken over meanwhile (this process stalled past `staleMs`): report it to the caller instead.
    let compromised: Error | undefined;
    for (;;) {
      try {
        release = await lockfile.lock(this.file, {
          realpath: false,
          stale: this.#stale,
          onCompromised: (e) => {
            compromised = e;
          },
          retries: { retries: 20, factor: 1.3, minTimeout: 10, maxTimeout: 250, randomize: true },
        });
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() - started > this.#wait) throw e;
      }
    }
    let result: T;
    try {
      result = await fn();
    } finally {
      if (!compromised) await release();
    }
    if (compromised) throw new Error(`the lock of ${this.file} was taken over while held: ${compromised.message}`, { cause: compromised });
    return result;
  }
}
