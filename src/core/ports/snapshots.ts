// The snapshot port (issue 32, docs/sandbox.md "Snapshots"): the whole state of a
// deployment (every table, every blob of the object store, the sandbox clock's offset and,
// when asked, the token signing keys) saved under a name and restored, and a named snapshot
// exported and imported as one portable file. The engine is an adapter
// (src/adapters/snapshots/); the operator module calls this port.

export interface SnapshotOptions {
  /**
   * Include the token signing keys (`signing_keys`). Off by default: a snapshot file meant for
   * a teammate or a CI job then carries no private key, and a restore keeps the deployment's
   * keys (tokens issued before the restore stay valid).
   */
  signingKeys?: boolean;
}

export interface SnapshotTable {
  name: string;
  rows: number;
}

/** What a snapshot holds (its manifest and trailer, docs/sandbox.md "The snapshot file"). */
export interface SnapshotInfo {
  name: string;
  /** When it was saved (the service clock's instant). */
  createdAt: string;
  /** The engine it was saved on: `pglite` or `postgres` (either restores either). */
  engine: 'pglite' | 'postgres';
  /** The migrations the database had: a restore needs the same list. */
  migrations: string[];
  tables: SnapshotTable[];
  blobs: { count: number; bytes: number };
  /** The sandbox clock's offset when saved, in seconds (0 outside SANDBOX). */
  clockOffsetSeconds: number;
  signingKeys: boolean;
  /** Size of the snapshot file, bytes. */
  bytes: number;
  /**
   * Answered by a restore: how the database was put back. `data-directory`: PGlite on disk
   * from the copy of its files kept beside a snapshot saved on the same node; `copy`: the
   * portable path (every table through COPY), on every engine.
   */
  restoredBy?: 'data-directory' | 'copy';
}

export interface Snapshots {
  /** Saves the whole state under `name` (replacing a snapshot of that name). */
  save(name: string, opts?: SnapshotOptions): Promise<SnapshotInfo>;
  /**
   * Replaces the whole state by the snapshot's: every table is emptied and loaded in one
   * transaction, every node drops its caches (`service.reset`), then the object store is
   * emptied and the blobs are written. The clock offset is in the restored settings; the
   * node's own clock is set to it (answered in the info).
   */
  restore(name: string): Promise<SnapshotInfo>;
  /** The named snapshots, newest first. */
  list(): Promise<SnapshotInfo[]>;
  /** One snapshot's description (404 `snapshot-not-found`). */
  describe(name: string): Promise<SnapshotInfo>;
  remove(name: string): Promise<void>;
  /** The snapshot as its portable file (a POSIX tar, docs/sandbox.md), streamed. */
  exportFile(name: string): AsyncIterable<Uint8Array>;
  /**
   * Keeps a portable file under `name`, once its structure and checksums are verified (a
   * truncated or altered file is refused with 400 `snapshot-invalid` and nothing is kept).
   */
  importFile(name: string, data: AsyncIterable<Uint8Array>): Promise<SnapshotInfo>;
}
