// Copies of files for a work-zone copy (src/core/workzones/copy.ts, docs/files.md).
import { notFound } from '../../../core/errors.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FileRecord, FilesRepos } from '../../../core/ports/file-repositories.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import { errorFields, silentLogger, type Logger } from '../../../core/ports/telemetry.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { categoryOf } from './formats.ts';
import { mayDownload } from './file-permissions.ts';
import { countByCategory, type CheckCapacities } from './capacities.ts';
import type { AccountsRepos } from '../../accounts/index.ts';
import type { ProjectsRepos } from '../../projects/index.ts';

export interface FileCopyRequest {
  accountId: string;
  sourceProjectId: string;
  destinationProjectId: string;
  /** Source work zone id → its copy's id. */
  zones: Map<string, string>;
  userId: string;
  now: Date;
  /** The caller's permissions on a source zone: only the files he may download there are copied. */
  sourcePermissions: (workzoneId: string) => ReadonlySet<Permission>;
}

export interface FileCopy {
  /**
   * Copies the files of the copied zones, each under a new blob name, in the copy's
   * transaction: the object is copied before its row is written (never a row without its
   * object); the destination subscription's capacities apply (the job fails with
   * capacity-exceeded-*). Objects copied before a failure are deleted again. Answers how
   * many files were copied.
   */
  copyFiles(repos: Pick<Repos & ProjectsRepos & FilesRepos & AccountsRepos, 'files' | 'projects' | 'subscriptions' | 'users'>, a: FileCopyRequest): Promise<number>;
}

export function createFileCopy(deps: {
  ids: Ids;
  objectStore: Pick<ObjectStore, 'copy' | 'delete'>;
  checkCapacities: CheckCapacities;
  logger?: Logger;
}): FileCopy {
  const { ids, objectStore, checkCapacities } = deps;
  const logger = deps.logger ?? silentLogger;
  return {
    async copyFiles(repos, a) {
      const files = (await repos.files.list(a.sourceProjectId)).filter(
        (f) => a.zones.has(f.workzoneId) && mayDownload(a.sourcePermissions(f.workzoneId), f),
      );
      if (!files.length) return 0;
      const dest = await repos.projects.byRef(a.accountId, { uuid: a.destinationProjectId });
      if (!dest) throw notFound('project', a.destinationProjectId);
      const adding = countByCategory(files, categoryOf);
      // The objects are copied before the capacity check takes the subscription's lock, so
      // signers and registrars of the subscription do not wait for the copying; a refusal
      // deletes the copies again. The copies are the caller's (createdBy): in the sandbox
      // the 20 scans per user apply.
      const copies: { file: FileRecord; blobName: string }[] = [];
      try {
        for (const f of files) {
          const blobName = `${ids.uuid()}.${f.extension}`;
          await objectStore.copy(blobKey(a.sourceProjectId, f.blobName), blobKey(a.destinationProjectId, blobName));
          copies.push({ file: f, blobName });
        }
        const bytes = files.reduce((n, f) => n + f.size, 0);
        await checkCapacities(repos, { subscriptionId: dest.subscriptionId, userId: a.userId, adding, touched: new Set(adding.keys()), addingBytes: bytes });
        for (const { file: f, blobName } of copies) {
          await repos.files.insert({
            ...f, id: ids.uuid(), projectId: a.destinationProjectId, workzoneId: a.zones.get(f.workzoneId)!, blobName,
            createdAt: a.now, createdBy: a.userId,
          });
        }
      } catch (e) {
        // No row names these copies (the transaction rolls back); a copy left behind by a failed delete is only unused bytes.
        for (const c of copies) {
          await objectStore
            .delete(blobKey(a.destinationProjectId, c.blobName))
            .catch((err: unknown) => logger.warn({ ...errorFields(err), blobName: c.blobName }, 'copied object of a failed work-zone copy not deleted'));
        }
        throw e;
      }
      return files.length;
    },
  };
}
