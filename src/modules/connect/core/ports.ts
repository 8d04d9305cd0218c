// Repository port of connect import/export jobs (docs/connect.md).
import type { FileRecord } from '../../../core/ports/file-repositories.ts';

export type ConnectKind = 'import' | 'export';
/** export: `ready` from the start; import: `waiting` until a file arrives, then `received`. */
export type ConnectState = 'ready' | 'waiting' | 'received';

export interface ConnectJobRecord {
  id: string;
  slug: string;
  kind: ConnectKind;
  state: ConnectState;
  accountId: string;
  projectId: string;
  workzoneId: string;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectRepo {
  insert(job: ConnectJobRecord): Promise<void>;
  bySlug(slug: string): Promise<ConnectJobRecord | null>;
  /** Links files to the job (idempotent), after the ones it has, in the given order. */
  addFiles(jobId: string, fileIds: string[]): Promise<void>;
  /** The job's files that still exist, in the order they were linked. */
  files(jobId: string): Promise<FileRecord[]>;
  setState(jobId: string, state: ConnectState, now: Date): Promise<void>;
}

/** The module's repositories, as the store binds them. */
export interface ConnectRepos {
  connect: ConnectRepo;
}
