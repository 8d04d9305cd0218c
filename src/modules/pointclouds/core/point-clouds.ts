// What callers see of a point cloud (docs/point-clouds.md "The module"): its conversion's
// state and progress (as the file: workzone:workzones:read on its zone) and the COPC output
// by byte range (as the file's bytes: its category's read permission, scans
// workzone:reality-data:read). A node request is cheap: the caller's permissions come from
// the per-node access cache, and a converted cloud's rows are kept per node (they change
// only by deletion, which drops them on file.deleted from any node).
import type { Readable } from 'node:stream';
import { DomainError, notFound } from '../../../core/errors.ts';
import { mayDownload } from '../../../core/files/index.ts';
import { refValue, type EntityRef } from '../../../core/ids/urn.ts';
import { refKey } from '../../../core/ids/refs.ts';
import type { FileRecord } from '../../../core/ports/file-repositories.ts';
import { blobKey } from '../../../core/ports/object-store.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import { requireMember, type ProjectAccess } from '../../../core/projects/index.ts';
import type { PointCloudObjects, PointCloudRecord, PointCloudStore } from './ports.ts';
import './errors.ts';

export interface PointCloudView {
  file: FileRecord;
  accountId: string;
  cloud: PointCloudRecord;
}

/** The COPC object of a converted cloud, as the range route serves it. */
export interface CopcObject {
  key: string;
  size: number;
  /** Strong validator: the file's id and the object's size (the object never changes once done). */
  etag: string;
  fileName: string;
}

export interface PointClouds {
  /** GET …/files/{f}/point-cloud: the conversion's state and progress (404 point-cloud-not-found for a file that is not one). */
  status(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<PointCloudView>;
  /** GET …/files/{f}/point-cloud/copc: the output, once done (409 point-cloud-not-ready before). */
  copc(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<CopcObject>;
  /** Bytes start..end (inclusive) of a COPC object `copc` answered. */
  read(object: CopcObject, start: number, end: number): Promise<Readable>;
}

export function createPointClouds(deps: {
  store: Pick<PointCloudStore, 'repos' | 'onEvent'>;
  access: Pick<ProjectAccess, 'project'>;
  objects: Pick<PointCloudObjects, 'readRange'>;
  /** The node's registry of caches (GET /metrics) and POINT_CLOUD_CACHE_ENTRIES (default 2,000). */
  caches?: CacheRegistry;
  maxEntries?: number;
}): PointClouds {
  const { store, access, objects } = deps;
  /** Converted clouds by project and file reference (a done row and its file change only by deletion), the oldest out first. */
  const done = (deps.caches ?? new CacheRegistry()).lru<{ file: FileRecord; cloud: PointCloudRecord }>({
    name: 'point-clouds', maxWeight: deps.maxEntries ?? 2000, touchOnRead: false,
  });
  store.onEvent((event) => {
    if (event.type === 'file.deleted' || event.type === 'project.deleted' || event.type === 'workzone.deleted') done.clear();
  });

  async function open(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef) {
    const scope = await access.project(actor, a, p);
    requireMember(scope);
    const key = `${scope.project.id}|${refKey(ref)}`;
    let found = done.get(key);
    if (!found) {
      const file = await store.repos.files.byRef(scope.project.id, ref);
      if (!file) throw notFound('file', refValue(ref));
      requirePermission(scope.workzone(file.workzoneId), 'workzone:workzones:read', 'view-file-forbidden');
      const cloud = await store.repos.pointClouds.byFile(file.id);
      if (!cloud) throw notFound('point-cloud', refValue(ref));
      found = { file, cloud };
      if (cloud.state === 'done') {
        done.set(key, found);
      }
    }
    requirePermission(scope.workzone(found.file.workzoneId), 'workzone:workzones:read', 'view-file-forbidden');
    return { scope, ...found };
  }

  return {
    async status(actor, a, p, ref) {
      const { scope, file, cloud } = await open(actor, a, p, ref);
      return { file, cloud, accountId: scope.account.account.id };
    },

    async copc(actor, a, p, ref) {
      const { scope, file, cloud } = await open(actor, a, p, ref);
      if (!mayDownload(scope.workzone(file.workzoneId), file)) {
        throw new DomainError('forbidden', 'view-file-forbidden', 'Reading this point cloud needs the read permission of its file', { fileId: file.id });
      }
      if (cloud.state !== 'done' || cloud.outputSize === null) {
        throw new DomainError('conflict', 'point-cloud-not-ready', `The point cloud is not converted yet (${cloud.state})`, { state: cloud.state });
      }
      const base = file.name.replace(/\.[^.]*$/, '');
      return { key: blobKey(cloud.projectId, cloud.outputBlobName), size: cloud.outputSize, etag: `"${file.id}-${cloud.outputSize}"`, fileName: `${base}.copc.laz` };
    },

    async read(object, start, end) {
      const body = await objects.readRange(object.key, start, end);
      if (!body) throw notFound('point-cloud', object.key);
      return body;
    },
  };
}
