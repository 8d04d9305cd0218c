// Accounts and subscriptions by name as well as by id: `--account "Acme Surveying"`,
// `--subscription Pro`. A value that is a URN or a UUID is an id and goes to the service as
// it is; otherwise the caller's accounts (or the account's subscriptions) are listed and the
// one of that name is taken: the exact name, else the only one whose name differs by case.
// No match: the value goes to the service as an id (an API 1 id), which answers 404 if it is none.
// `--account` left out: the caller's only account; several, a usage error naming them.
import type { ScanbaseClient } from '@scanbase/sdk/node';
import { UsageError } from './exit-codes.ts';

const ID = /^(urn:[a-z0-9-]+:[a-z-]+:)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Named { id: string; name: string | null }

/** The one of `items` named `value` (exact, else the only case-insensitive match); null when none; a usage error when the case-insensitive name is shared. */
export function byName<T extends Named>(items: readonly T[], value: string, what: string): T | null {
  const exact = items.filter((i) => i.name === value);
  if (exact.length === 1) return exact[0]!;
  const folded = items.filter((i) => i.name?.toLowerCase() === value.toLowerCase());
  if (folded.length === 1) return folded[0]!;
  if (exact.length > 1 || folded.length > 1) throw new UsageError(`several ${what}s are named ${value}: give the id (${[...exact, ...folded].map((i) => i.id).join(', ')})`);
  return null;
}

const list = async <T>(client: ScanbaseClient, path: string): Promise<T[]> => (await (await client.fetch(path)).json()) as T[];

/** The account id `--account` names (id or name), or the caller's only account when it is left out. */
export async function accountIdOf(client: ScanbaseClient, given: string | undefined): Promise<string> {
  if (given && ID.test(given)) return given;
  const accounts = await list<Named>(client, '/api/2/accounts');
  if (given) return byName(accounts, given, 'account')?.id ?? given;
  if (accounts.length === 1) return accounts[0]!.id;
  if (!accounts.length) throw new UsageError('you belong to no account: --account cannot default to one');
  throw new UsageError(`--account is required (or SCANBASE_ACCOUNT): you belong to ${accounts.length} accounts: ${accounts.map((a) => a.name).join(', ')}`);
}

/** The subscription id `--subscription` names (id or name) in the account. */
export async function subscriptionIdOf(client: ScanbaseClient, accountId: string, given: string): Promise<string> {
  if (ID.test(given)) return given;
  const subs = await list<Named>(client, `/api/2/accounts/${encodeURIComponent(accountId)}/subscriptions`);
  return byName(subs, given, 'subscription')?.id ?? given;
}
