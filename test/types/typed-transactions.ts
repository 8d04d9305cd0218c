// A type test (checked by tsc in `npm run lint`, never run): a use case's store slice
// (src/core/ports/store-slices.ts) holds what it declared and nothing else. Reading a
// repository it did not declare, or using one in a transaction that did not declare it, fails
// to compile; so does handing a slice to a use case that declares more. Each @ts-expect-error
// line fails the lint as soon as the line below it compiles.
import { readsOf, sliceOf, storeReadsOf, storeUse, type SliceOf } from '../../src/core/ports/store-slices.ts';
import { UPLOADS_STORE } from '../../src/modules/files/core/uploads.ts';
import { ACCOUNTS_STORE } from '../../src/modules/accounts/core/accounts.ts';
import type { Repos, Store } from '../../src/core/ports/repositories.ts';
import type { FilesRepos } from '../../src/core/ports/file-repositories.ts';
import type { AccountsRepos } from '../../src/modules/accounts/index.ts';
import type { TagsRepos } from '../../src/modules/tags/index.ts';
import type { WorkzonesRepos } from '../../src/modules/workzones/index.ts';

const SETTINGS_ONLY = storeUse({ reads: ['settings'], writes: ['events', 'settings'] });

export async function onlyWhatItDeclared(whole: Store): Promise<void> {
  const store = sliceOf(whole, SETTINGS_ONLY);
  void store.repos.settings;
  // @ts-expect-error a repository it does not read
  void store.repos.users;
  await store.transaction(async (repos) => {
    void repos.settings;
    void repos.events;
    // @ts-expect-error a repository its transactions were not declared to use
    void repos.projects;
    // @ts-expect-error nor by destructuring
    const { users } = repos;
    void users;
  });
}

export function narrowerThanItsUseCase(slice: SliceOf<typeof ACCOUNTS_STORE, Repos & FilesRepos & AccountsRepos & TagsRepos>, whole: Store<Repos & FilesRepos & AccountsRepos & WorkzonesRepos>): void {
  // @ts-expect-error the accounts' slice lacks what the uploads declare (uploads, work zones…): it cannot stand for their store
  const uploads: SliceOf<typeof UPLOADS_STORE, Repos & FilesRepos & AccountsRepos & WorkzonesRepos> = slice;
  void uploads;
  // the whole store can (the composed node hands it, and each use case narrows it)
  const fromWhole: SliceOf<typeof UPLOADS_STORE, Repos & FilesRepos & AccountsRepos & WorkzonesRepos> = whole;
  void fromWhole;
}

export function readsOnlyWhatItDeclared(whole: Store<Repos & FilesRepos>): void {
  const store = readsOf(whole, storeReadsOf<Repos & FilesRepos>()(['files']));
  void store.repos.files;
  // @ts-expect-error a repository it did not declare it reads
  void store.repos.users;
  // @ts-expect-error a read-only use case has no transaction
  void store.transaction;
}
