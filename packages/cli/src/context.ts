// What every command gets from the global options: the profile, the service's address,
// the client (tokens refreshing through the profile's shared store) and the printer.
import type { Command } from 'commander';
import { TokenManager, createScanbaseClient, fetchWithTimeout, type ScanbaseClient, type StoredTokens } from '@scanbase/sdk/node';
import { UsageError } from './exit-codes.ts';
import { normalBaseUrl, profileName, storeOfProfile } from './profiles.ts';
import { printer, type Printer } from './output.ts';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  timeout?: string;
}

/** --timeout / SCANBASE_TIMEOUT: seconds a request may wait for the service's answer (file transfers excepted). */
export const DEFAULT_TIMEOUT_SECONDS = 60;

function timeoutMs(given: string | undefined): number {
  if (given === undefined || given === '') return DEFAULT_TIMEOUT_SECONDS * 1000;
  const n = Number(given);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError(`bad --timeout: ${given} (seconds, more than 0 and at most 3600)`);
  return Math.round(n * 1000);
}

export interface Context {
  profile: string;
  out: Printer;
  /** The profile's store (it may be empty: not signed in). */
  store: ReturnType<typeof storeOfProfile>;
  /** The --base-url / SCANBASE_BASE_URL given, normalised (undefined when none). */
  baseUrlOption: string | undefined;
  /** fetch with the --timeout deadline: for the token endpoints (the client's API calls have it too). */
  timedFetch: typeof fetch;
  /** The signed-in tokens and a client on them; a usage-kind error when not signed in. */
  signedIn(): Promise<{ tokens: StoredTokens; manager: TokenManager; client: ScanbaseClient }>;
}

export function contextOf(cmd: Command): Context {
  const g = cmd.optsWithGlobals<GlobalOptions>();
  const profile = profileName(g.profile);
  const store = storeOfProfile(profile);
  const given = g.baseUrl || process.env.SCANBASE_BASE_URL;
  const baseUrlOption = given ? normalBaseUrl(given) : undefined;
  const deadline = timeoutMs(g.timeout);
  const timedFetch = fetchWithTimeout(deadline);
  return {
    profile,
    out: printer(Boolean(g.json)),
    store,
    baseUrlOption,
    timedFetch,
    async signedIn() {
      const tokens = await store.read();
      if (!tokens) throw new NotSignedIn(`profile ${profile} is not signed in: run \`scanbase login${profile === 'default' ? '' : ` --profile ${profile}`}\``);
      if (baseUrlOption && baseUrlOption !== tokens.server) {
        throw new UsageError(`profile ${profile} is signed in on ${tokens.server}, not ${baseUrlOption}: sign in there with another --profile`);
      }
      const manager = new TokenManager(tokens.server, store, timedFetch);
      return { tokens, manager, client: createScanbaseClient({ baseUrl: tokens.server, tokens: manager, timeoutMs: deadline }) };
    },
  };
}

/** Not signed in on the profile: exit code 3 (auth), as when the service refuses the token. */
export class NotSignedIn extends Error {
  override readonly name = 'NotSignedIn';
}
