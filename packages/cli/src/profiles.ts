// Which profile the command uses: --server / SCANBASE_SERVER, and the user last signed in
// on that server (config.json beside the profiles: {"current": server, "users": {server: user}}).
import fs from 'node:fs';
import path from 'node:path';
import { FileTokenStore, configDir } from '@scanbase/sdk/node';

interface Config {
  current?: string;
  users: Record<string, string>;
}

const file = () => path.join(configDir(), 'config.json');

export function readConfig(): Config {
  try {
    return JSON.parse(fs.readFileSync(file(), 'utf8')) as Config;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { users: {} };
    throw e;
  }
}

export function writeConfig(c: Config): void {
  fs.mkdirSync(path.dirname(file()), { recursive: true, mode: 0o700 });
  fs.writeFileSync(`${file()}.tmp`, JSON.stringify(c, null, 2), { mode: 0o600 });
  fs.renameSync(`${file()}.tmp`, file());
}

export const normalServer = (s: string) => new URL(s).origin;

/** The server named by the option, the environment or the last sign-in. */
export function serverOf(option: string | undefined): string {
  const s = option || process.env.SCANBASE_SERVER || readConfig().current;
  if (!s) throw new UsageError('no server: give --server URL (or set SCANBASE_SERVER), or sign in first');
  return normalServer(s);
}

/** The token store of the user signed in on `server`. */
export function storeOf(server: string): FileTokenStore {
  const user = readConfig().users[server];
  if (!user) throw new UsageError(`not signed in on ${server}: run \`scanbase login --server ${server}\``);
  return FileTokenStore.forProfile(server, user);
}

export class UsageError extends Error {}
