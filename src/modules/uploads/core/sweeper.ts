// The multipart sweeper (docs/files.md "Multipart uploads"): an upload not completed by its
// expiry is aborted at the store (its parts removed) and its rows deleted, which releases its
// reservation; a completed upload's record (kept for a second completion's 409) goes at the
// same age. One node sweeps at a time: the files sweeper's transaction-scoped advisory lock;
// records another transaction holds (a completion, an abort) are skipped. The store's abort
// comes before the rows go, so a pass cut short leaves rows the next pass aborts again (an
// unknown upload is not an error), never parts no row names.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { ObjectStore } from '../../../core/ports/object-store.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { MultipartUploadsRepo } from './records.ts';
import { storeUploadOf } from './multipart-uploads.ts';

export type MultipartSweep = { ran: true; aborted: number; dropped: number } | { ran: false; reason: 'busy' };

export interface MultipartSweeper {
  /** One pass, in batches until nothing expired is left. */
  run(): Promise<MultipartSweep>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const MULTIPART_SWEEPER_STORE = storeUseOf<Repos & FilesRepos & { multipartUploads: MultipartUploadsRepo }>()({ reads: [], writes: ['multipartUploads', 'uploads'] });

export function createMultipartSweeper(deps: { store: SliceOf<typeof MULTIPART_SWEEPER_STORE, Repos & FilesRepos & { multipartUploads: MultipartUploadsRepo }>; clock: Clock; objectStore: ObjectStore; batch?: number }): MultipartSweeper {
  const store = sliceOf(deps.store, MULTIPART_SWEEPER_STORE);
  const batch = deps.batch ?? 100;
  return {
    async run() {
      let aborted = 0;
      let dropped = 0;
      for (;;) {
        const r = await store.transaction(async (repos) => {
          if (!(await repos.uploads.trySweeperLock())) return null;
          const expired = await repos.multipartUploads.claimExpired(deps.clock.now(), batch);
          for (const u of expired) {
            if (!u.completedAt) {
              await deps.objectStore.abortMultipart(storeUploadOf(u));
              await repos.uploads.remove(u.id);
              aborted++;
            } else {
              dropped++;
            }
            await repos.multipartUploads.remove(u.id);
          }
          return expired.length;
        });
        if (r === null) return aborted + dropped ? { ran: true, aborted, dropped } : { ran: false, reason: 'busy' };
        if (r < batch) return { ran: true, aborted, dropped };
      }
    },
  };
}

/** Every 10 minutes and at start, like the files sweeper. */
export function multipartSweep(sweeper: MultipartSweeper): PeriodicTask {
  return {
    name: 'multipart-sweeper', everySeconds: 10 * 60, atStart: true, run: () => sweeper.run(),
    failure: { level: 'error', message: 'multipart upload sweep failed; next pass in 10 minutes' },
  };
}
