// Profiles: one file per profile name under the configuration folder
// (SCANBASE_CONFIG_DIR, else $XDG_CONFIG_HOME/scanbase, else ~/.config/scanbase):
// profiles/<name>.json holds the token pair, the server and the user (mode 0600, written
// atomically, refreshed under the SDK's cross-process lock). `--profile` or
// SCANBASE_PROFILE picks one; the default is `default`.
import path from 'node:path';
import { FileTokenStore, configDir } from '@scanbase/sdk/node';
import { UsageError } from './exit-codes.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export const profileName = (option: string | undefined) => option || process.env.SCANBASE_PROFILE || 'default';

export function storeOfProfile(name: string): FileTokenStore {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name) || name.startsWith('.')) throw new UsageError(`bad profile name: ${name} (letters, digits, . _ -)`);
  return new FileTokenStore(path.join(configDir(), 'profiles', `${name}.json`));
}

export const normalBaseUrl = (s: string) => {
  try {
    const u = new URL(s);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return u.origin;
  } catch {
    throw new UsageError(`bad --base-url: ${s}`);
  }
};

/** The folder of upload journals. */
export const journalsDir = () => path.join(configDir(), 'uploads');
