// What callers see of a point cloud (docs/point-clouds.md "The module"): its conversion's
// state and progress (as the file: workzone:workzones:read on its zone) and the COPC output
// by byte range (as the file's bytes: its category's read permission, scans
// workzone:reality-data:read). A node request is cheap: the caller's permissions come from
// the per-node access cache, and a converted cloud's rows are kept per node (they change
// only by deletion, which drops them on file.deleted from any node).
import { sliceOf, storeUseOf, type SliceOf, type StoreEvents } from '../../../core/ports/store-slices.ts';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DomainError, notFound } from '../../../core/errors.ts';
import { mayDownload } from '../../files/index.ts';
import { refValue, type EntityRef } from '../../../core/ids/urn.ts';
import { refKey } from '../../../core/ids/refs.ts';
import type { FileRecord } from '../../../core/ports/file-repositories.ts';
import { blobKey } from '../../../core/ports/object-store.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { CacheRegistry } from '../../../core/cache/registry.ts';
import { requireMember, type ProjectAccess } from '../../projects/index.ts';
import type { BoxLimit, CopcLayout, CopcNodes, NodeVerdict, PointCloudObjects, PointCloudRecord, PointCloudRepos } from './ports.ts';
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

/** A converted cloud as a share session reads it: its layout, and each node's verdict against the session's box. */
export interface SharedCloudLayout {
  layout: CopcLayout;
  /** Every node with points the session may read (none wholly outside the box), root first. */
  nodes: { key: string; pointCount: number; verdict: Exclude<NodeVerdict, 'outside'> }[];
}

/** One node's LAZ chunk as a share session receives it. */
export interface SharedCloudNode {
  verdict: Exclude<NodeVerdict, 'outside'>;
  /** Points in `body` (a boundary node's: those inside the box). */
  pointCount: number;
  /** An inside node's stored bytes, streamed; a boundary node's filtered chunk. */
  body: Readable | Uint8Array;
  length: number;
}

export interface PointClouds {
  /** GET …/files/{f}/point-cloud: the conversion's state and progress (404 point-cloud-not-found for a file that is not one). */
  status(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<PointCloudView>;
  /** GET …/files/{f}/point-cloud/copc: the output, once done (409 point-cloud-not-ready before). */
  copc(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<CopcObject>;
  /** Bytes start..end (inclusive) of a COPC object `copc` answered. */
  read(object: CopcObject, start: number, end: number): Promise<Readable>;
  /**
   * The COPC layout of a file a share session may read (its caller checked the session and
   * the file's zone), limited to `box` when the link has one: nodes wholly outside are left
   * out. 404 point-cloud-not-found, 409 point-cloud-not-ready.
   */
  sharedLayout(file: FileRecord, box: BoxLimit | null): Promise<SharedCloudLayout>;
  /**
   * One node of that file: inside the box (or no box) its stored chunk, on the box's faces
   * its points inside the box re-encoded; 403 point-cloud-node-outside-box for a node wholly
   * outside, 404 point-cloud-node-not-found for a key the hierarchy does not hold.
   */
  sharedNode(file: FileRecord, key: string, box: BoxLimit | null): Promise<SharedCloudNode>;
}

/** Layouts kept per node (a converted cloud's layout never changes; dropped with the file). */
const CACHED_LAYOUTS = 200;
const NODE_KEY = /^\d{1,2}-\d{1,10}-\d{1,10}-\d{1,10}$/;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const POINT_CLOUDS_STORE = storeUseOf<PointCloudRepos>()({ reads: ['files', 'pointClouds'], writes: [] });

export function createPointClouds(deps: {
  store: SliceOf<typeof POINT_CLOUDS_STORE, PointCloudRepos> & StoreEvents;
  access: Pick<ProjectAccess, 'project'>;
  objects: Pick<PointCloudObjects, 'readRange'>;
  copcNodes: CopcNodes;
  /** The node's registry of caches (GET /metrics) and POINT_CLOUD_CACHE_ENTRIES (default 2,000). */
  caches?: CacheRegistry;
  maxEntries?: number;
}): PointClouds {
  const { access, objects, copcNodes } = deps;
  const store = sliceOf(deps.store, POINT_CLOUDS_STORE);
  const caches = deps.caches ?? new CacheRegistry();
  /** Converted clouds by project and file reference (a done row and its file change only by deletion), the oldest out first. */
  const done = caches.lru<{ file: FileRecord; cloud: PointCloudRecord }>({
    name: 'point-clouds', maxWeight: deps.maxEntries ?? 2000, touchOnRead: false,
  });
  /** Layouts of converted clouds by file id, with the object they were read from (share sessions' node reads). */
  const layouts = caches.lru<{ key: string; layout: CopcLayout }>({ name: 'point-cloud-layouts', maxWeight: CACHED_LAYOUTS, touchOnRead: false });
  deps.store.onEvent((event) => {
    if (event.type === 'file.deleted' || event.type === 'project.deleted' || event.type === 'workzone.deleted') {
      done.clear();
      layouts.clear();
    }
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

  async function readBytes(key: string, begin: number, endExclusive: number): Promise<Uint8Array> {
    if (endExclusive <= begin) return new Uint8Array(0);
    const body = await objects.readRange(key, begin, endExclusive - 1);
    if (!body) throw notFound('point-cloud', key);
    return new Uint8Array(await buffer(body));
  }

  async function layoutOf(file: FileRecord): Promise<{ key: string; layout: CopcLayout }> {
    const cached = layouts.get(file.id);
    if (cached) return cached;
    const cloud = await store.repos.pointClouds.byFile(file.id);
    if (!cloud) throw notFound('point-cloud', file.id);
    if (cloud.state !== 'done' || cloud.outputSize === null) {
      throw new DomainError('conflict', 'point-cloud-not-ready', `The point cloud is not converted yet (${cloud.state})`, { state: cloud.state });
    }
    const key = blobKey(cloud.projectId, cloud.outputBlobName);
    const layout = await copcNodes.layout((begin, end) => readBytes(key, begin, Math.min(end, cloud.outputSize!)));
    const entry = { key, layout };
    layouts.set(file.id, entry);
    return entry;
  }

  const verdictOf = (layout: CopcLayout, key: string, box: BoxLimit | null): NodeVerdict => (box ? copcNodes.verdict(layout, key, box) : 'inside');

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

    async sharedLayout(file, box) {
      const { layout } = await layoutOf(file);
      const nodes: SharedCloudLayout['nodes'] = [];
      for (const [key, node] of layout.nodes) {
        if (!node.pointCount) continue;
        const verdict = verdictOf(layout, key, box);
        if (verdict !== 'outside') nodes.push({ key, pointCount: node.pointCount, verdict });
      }
      const depth = (k: string) => Number(k.slice(0, k.indexOf('-')));
      nodes.sort((a, b) => depth(a.key) - depth(b.key));
      return { layout, nodes };
    },

    async sharedNode(file, key, box) {
      const { key: objectKey, layout } = await layoutOf(file);
      const node = NODE_KEY.test(key) ? layout.nodes.get(key) : undefined;
      if (!node || !node.pointCount) throw new DomainError('not-found', 'point-cloud-node-not-found', 'The point cloud has no node with this key', { node: key.slice(0, 60) });
      const verdict = verdictOf(layout, key, box);
      if (verdict === 'outside') {
        throw new DomainError('forbidden', 'point-cloud-node-outside-box', 'This node lies wholly outside the box this share link limits its view to', { node: key });
      }
      if (verdict === 'inside') {
        const body = await objects.readRange(objectKey, node.offset, node.offset + node.length - 1);
        if (!body) throw notFound('point-cloud', file.id);
        return { verdict, pointCount: node.pointCount, body, length: node.length };
      }
      const stored = await readBytes(objectKey, node.offset, node.offset + node.length);
      const filtered = await copcNodes.filter(layout, stored, node.pointCount, box!);
      return { verdict, pointCount: filtered.pointCount, body: filtered.chunk, length: filtered.chunk.length };
    },
  };
}
