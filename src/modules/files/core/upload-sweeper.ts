// The upload sweeper (CONTRACT §7): pending uploads never registered are deleted once
// their time (UPLOAD_TTL after signing) is over, which queues their objects (migrations
// 0010, 0012); then the objects queued for deletion (those uploads', and files, covers and
// thumbnails whose row went, also by cascade) are deleted unless a row names them again,
// then their queue rows. One node of the cluster sweeps at a time (a transaction-scoped
// advisory lock, which PGlite has too); rows being registered are locked by the
// registration and skipped. A row and its queue entry go in one transaction and the queue
// entry goes after its object: a pass cut short leaves a queue entry, which the next pass
// finishes; never an object no row or queue entry names.
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { PeriodicTask } from '../../../core/ports/background.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';

export type SweepResult = { ran: true; deleted: number; objects?: number } | { ran: false; reason: 'busy' };

/** Deletes unregistered uploads past UPLOAD_TTL, their objects first. */
export interface UploadSweeper {
  /** One pass; loops in batches until nothing expired is left. */
  run(): Promise<SweepResult>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const UPLOAD_SWEEPER_STORE = storeUseOf<FilesRepos>()({ reads: [], writes: ['uploads'] });

export function createUploadSweeper(deps: { store: SliceOf<typeof UPLOAD_SWEEPER_STORE, FilesRepos>; clock: Clock; objectStore: ObjectStore; batch?: number }): UploadSweeper {
  const { clock, objectStore } = deps;
  const store = sliceOf(deps.store, UPLOAD_SWEEPER_STORE);
  const batch = deps.batch ?? 500;
  return {
    /** One pass; loops in batches until nothing expired is left. */
    async run(): Promise<SweepResult> {
      let deleted = 0;
      for (;;) {
        const r = await store.transaction(async (repos) => {
          if (!(await repos.uploads.trySweeperLock())) return null;
          const expired = await repos.uploads.claimExpired(clock.now(), batch);
          for (const u of expired) await repos.uploads.remove(u.id);
          return expired.length;
        });
        if (r === null) return deleted ? { ran: true, deleted } : { ran: false, reason: 'busy' };
        deleted += r;
        if (r < batch) break;
      }
      let objects = 0;
      for (;;) {
        const r = await store.transaction(async (repos) => {
          if (!(await repos.uploads.trySweeperLock())) return null;
          const queued = await repos.uploads.claimDeletions(batch);
          for (const q of queued) {
            if (!q.referenced) {
              await objectStore.delete(blobKey(q.projectId, q.blobName));
              objects++;
            }
            await repos.uploads.removeDeletion(q.projectId, q.blobName);
          }
          return queued.length;
        });
        if (r === null || r < batch) return { ran: true, deleted, objects };
      }
    },
  };
}

/** Unregistered uploads past UPLOAD_TTL are swept at start, then every 10 minutes (docs/files.md). */
export function uploadSweep(sweeper: UploadSweeper): PeriodicTask {
  return {
    name: 'upload-sweeper', everySeconds: 10 * 60, atStart: true, run: () => sweeper.run(),
    failure: { level: 'error', message: 'upload sweep failed; next pass in 10 minutes' },
  };
}
