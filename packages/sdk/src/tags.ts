// Tag-list helpers over API 2: read a list's tags whole or since a version, write many
// tags in batches the service accepts, delete many lists.
//
// Limits (docs/tags.md, src/modules/tags/http/api2.ts): a bulk call takes at most 100,000 items
// per array and a body of 96 MiB; bulk-delete of lists at most 1,000 ids. Each batch is
// its own all-or-nothing call: a failure stops the run and says how far it got.
import type { components } from './generated/api2.ts';
import type { ScanbaseClient } from './client.ts';
import { ScanbaseError } from './errors.ts';

type Schemas = components['schemas'];
export type Tag = Schemas extends { Tag: infer T } ? T : Record<string, unknown>;

export interface ProjectRefs {
  accountId: string;
  projectId: string;
}

/** Defaults of a batch: well inside the limits, small enough to retry cheaply. */
export const TAG_BATCH = { items: 5_000, bytes: 16 * 1024 * 1024, maxItems: 100_000, maxBytes: 96 * 1024 * 1024, listIds: 1_000 } as const;

export interface TagBatchOptions {
  /** Items per call (create + update + delete together), at most 100,000. */
  batchItems?: number;
  /** JSON bytes per call, at most 96 MiB. */
  batchBytes?: number;
  /** After each batch: how many items are written so far, of how many. */
  onProgress?: (done: number, total: number) => void;
}

export interface TagWriteResult {
  /** The list's version after the last batch. */
  tagsVersion: number;
  created: Tag[];
  updated: Tag[];
  deleted: Tag[];
  batches: number;
}

type Op = { kind: 'delete'; id: string } | { kind: 'update'; id: string; data: unknown } | { kind: 'create'; data: unknown };

const tagsPath = (r: ProjectRefs, tagListId: string) =>
  `/api/2/accounts/${encodeURIComponent(r.accountId)}/projects/${encodeURIComponent(r.projectId)}/tag-lists/${encodeURIComponent(tagListId)}/tags`;

async function json<T>(client: ScanbaseClient, path: string, init?: { method: string; body: unknown }): Promise<T> {
  const res = await client.fetch(path, init && {
    method: init.method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(init.body),
  });
  return (res.status === 204 ? null : await res.json()) as T;
}

/** The live tags of a list; with `afterVersion` > 0, every tag changed after it (deleted ones with `isDeleted`). */
export function readTags(client: ScanbaseClient, refs: ProjectRefs, tagListId: string, o: { afterVersion?: number } = {}): Promise<Tag[]> {
  const q = o.afterVersion !== undefined ? `?afterVersion=${o.afterVersion}` : '';
  return json<Tag[]>(client, `${tagsPath(refs, tagListId)}${q}`);
}

/**
 * Creates, updates and deletes tags in as many bulk calls as the limits need. Deletions
 * go first (a full list can make room), then updates, then creations.
 */
export async function writeTags(
  client: ScanbaseClient,
  refs: ProjectRefs,
  tagListId: string,
  changes: { create?: { data: unknown }[]; update?: { id: string; data: unknown }[]; delete?: string[] },
  o: TagBatchOptions = {},
): Promise<TagWriteResult> {
  const maxItems = Math.min(o.batchItems ?? TAG_BATCH.items, TAG_BATCH.maxItems);
  const maxBytes = Math.min(o.batchBytes ?? TAG_BATCH.bytes, TAG_BATCH.maxBytes);
  const ops: Op[] = [
    ...(changes.delete ?? []).map((id): Op => ({ kind: 'delete', id })),
    ...(changes.update ?? []).map((u): Op => ({ kind: 'update', id: u.id, data: u.data })),
    ...(changes.create ?? []).map((c): Op => ({ kind: 'create', data: c.data })),
  ];
  const out: TagWriteResult = { tagsVersion: 0, created: [], updated: [], deleted: [], batches: 0 };
  let done = 0;
  for (let i = 0; i < ops.length; ) {
    const batch = { create: [] as unknown[], update: [] as unknown[], delete: [] as string[] };
    let bytes = 40;
    let n = 0;
    for (; i < ops.length && n < maxItems; i++, n++) {
      const op = ops[i]!;
      const item = op.kind === 'delete' ? op.id : op.kind === 'update' ? { id: op.id, data: op.data } : { data: op.data };
      const size = JSON.stringify(item).length + 1;
      if (n > 0 && bytes + size > maxBytes) break;
      if (size + 40 > maxBytes) throw new RangeError(`tag ${i} alone is over the batch limit of ${maxBytes} bytes`);
      bytes += size;
      if (op.kind === 'delete') batch.delete.push(op.id);
      else (op.kind === 'update' ? batch.update : batch.create).push(item);
    }
    let r: { tagsVersion: number; created: Tag[]; updated: Tag[]; deleted: Tag[] };
    try {
      r = await json(client, `${tagsPath(refs, tagListId)}/bulk`, { method: 'POST', body: batch });
    } catch (e) {
      if (e instanceof ScanbaseError) e.errorValues.writtenBeforeFailure = done;
      throw e;
    }
    done += n;
    out.batches++;
    out.tagsVersion = r.tagsVersion;
    out.created.push(...r.created);
    out.updated.push(...r.updated);
    out.deleted.push(...r.deleted);
    o.onProgress?.(done, ops.length);
  }
  return out;
}

/** Deletes tag lists, 1,000 per call (each call all or nothing). */
export async function deleteTagLists(client: ScanbaseClient, refs: ProjectRefs, ids: string[]): Promise<void> {
  const path = `/api/2/accounts/${encodeURIComponent(refs.accountId)}/projects/${encodeURIComponent(refs.projectId)}/tag-lists/bulk-delete`;
  for (let i = 0; i < ids.length; i += TAG_BATCH.listIds) {
    await json(client, path, { method: 'POST', body: { ids: ids.slice(i, i + TAG_BATCH.listIds) } });
  }
}
