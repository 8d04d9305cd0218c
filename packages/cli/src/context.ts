// What every command gets from the global options: the profile, the service's address,
// the client (tokens refreshing through the profile's shared store) and the printer.
import type { Command } from 'commander';
import { TokenManager, createScanbaseClient, type ScanbaseClient, type StoredTokens } from '@scanbase/sdk/node';
import { UsageError } from './exit-codes.ts';
import { normalBaseUrl, profileName, storeOfProfile } from './profiles.ts';
import { printer, type Printer } from './output.ts';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
}

export interface Context {
  profile: string;
  out: Printer;
  /** The profile's store (it may be empty: not signed in). */
  store: ReturnType<typeof storeOfProfile>;
  /** The --base-url / SCANBASE_BASE_URL given, normalised (undefined when none). */
  baseUrlOption: string | undefined;
  /** The signed-in tokens and a client on them; a usage-kind error when not signed in. */
  signedIn(): Promise<{ tokens: StoredTokens; manager: TokenManager; client: ScanbaseClient }>;
}

export function contextOf(cmd: Command): Context {
  const g = cmd.optsWithGlobals<GlobalOptions>();
  const profile = profileName(g.profile);
  const store = storeOfProfile(profile);
  const given = g.baseUrl || process.env.SCANBASE_BASE_URL;
  const baseUrlOption = given ? normalBaseUrl(given) : undefined;
  return {
    profile,
    out: printer(Boolean(g.json)),
    store,
    baseUrlOption,
    async signedIn() {
      const tokens = await store.read();
      if (!tokens) throw new NotSignedIn(`profile ${profile} is not signed in: run \`scanbase login${profile === 'default' ? '' : ` --profile ${profile}`}\``);
      if (baseUrlOption && baseUrlOption !== tokens.server) {
        throw new UsageError(`profile ${profile} is signed in on ${tokens.server}, not ${baseUrlOption}: sign in there with another --profile`);
      }
      const manager = new TokenManager(tokens.server, store);
      return { tokens, manager, client: createScanbaseClient({ baseUrl: tokens.server, tokens: manager }) };
    },
  };
}

/** Not signed in on the profile: exit code 3 (auth), as when the service refuses the token. */
export class NotSignedIn extends Error {
  override readonly name = 'NotSignedIn';
}
