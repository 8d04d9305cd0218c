// The operator's snapshot use cases (docs/operator-api.md "Snapshots"): the snapshot port
// (src/core/ports/snapshots.ts, its engine in src/adapters/snapshots/) behind the node's
// request gate. A restore replaces every table and blob: it runs with the gate closed (no
// request of this node meets half a state; requests arriving meanwhile wait and then see the
// restored one), publishes service.reset (every node drops its caches: the engine does it in
// its own transaction) and re-reads the shared clock offset the snapshot brought back.
import type { SnapshotInfo, SnapshotOptions, Snapshots } from '../../../core/ports/snapshots.ts';
import type { RequestGate } from './request-gate.ts';

export type { SnapshotInfo, SnapshotOptions };

export interface SnapshotControl {
  save(name: string, opts?: SnapshotOptions): Promise<SnapshotInfo>;
  list(): Promise<SnapshotInfo[]>;
  describe(name: string): Promise<SnapshotInfo>;
  remove(name: string): Promise<{ deleted: string }>;
  /** Restores a named snapshot, the gate closed. */
  restore(name: string): Promise<SnapshotInfo>;
  /** The portable file of a named snapshot, streamed (404 before the first byte when unknown). */
  download(name: string): Promise<AsyncIterable<Uint8Array>>;
  /** Keeps an uploaded portable file under `name` (verified whole first). */
  upload(name: string, data: AsyncIterable<Uint8Array>): Promise<SnapshotInfo>;
  /** Keeps an uploaded file under `name`, then restores it. */
  uploadAndRestore(name: string, data: AsyncIterable<Uint8Array>): Promise<SnapshotInfo>;
}

export function createSnapshotControl(deps: {
  snapshots: Snapshots;
  gate: RequestGate;
  /** After a restore: the shared clock offset is re-read (it was restored with the settings). */
  afterRestore: () => Promise<void>;
}): SnapshotControl {
  const { snapshots, gate } = deps;
  const restore = (name: string) =>
    gate.exclusive(async () => {
      const info = await snapshots.restore(name);
      await deps.afterRestore();
      return info;
    });
  return {
    save: (name, opts) => snapshots.save(name, opts),
    list: () => snapshots.list(),
    describe: (name) => snapshots.describe(name),
    async remove(name) {
      await snapshots.remove(name);
      return { deleted: name };
    },
    restore,
    async download(name) {
      await snapshots.describe(name); // 404 as an answer, not a cut stream
      return snapshots.exportFile(name);
    },
    upload: (name, data) => snapshots.importFile(name, data),
    async uploadAndRestore(name, data) {
      await snapshots.importFile(name, data);
      return restore(name);
    },
  };
}
