// Tag changes planned before they are written (spec API 1 tag-list operations; vendor API 2
// tags/bulk and bulkMoveTags; docs/tags.md): pure functions from what a request asks and
// what the locked lists hold to the rows to write and each list's next tagsVersion. Every
// refusal is thrown here, before a row is written; the use cases (tag-list-writes.ts,
// tag-moves.ts) read what a plan needs, then write what it says.
//
// Rules: a list holds at most 50,000 live tags (MAX_TAGS_PER_LIST); a request raises a
// changed list's tagsVersion by exactly one and stamps every tag it writes with it; a tag is
// updated at most once and never both updated and deleted in one request; only live tags
// can be updated, deleted or moved; a subscription holds at most its tagCapacity live tags.
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { TagListRecord, TagRow, TagWrite } from './ports.ts';
import { MAX_TAGS_PER_LIST, cleanMetadata, normaliseTagData, remapMetadata, tooManyTags, type TagData } from './tag-data.ts';

export interface DetectInput {
  classes: string[];
  /** The scans to look in (vendor filesIds). */
  fileRefs: EntityRef[];
}

export interface TagChanges {
  insert?: TagData[];
  /** keepMetadata: API 1 updates carry TagData without metadata, so the stored metadata stays. */
  update?: { ref: EntityRef; data: TagData; keepMetadata?: boolean }[];
  delete?: EntityRef[];
  cleanRemovedMetadataIds?: boolean;
  detect?: DetectInput | null;
}

export const capacityExceededTag = (subscriptionId: string, capacity: number) =>
  new DomainError('invalid', 'capacity-exceeded-tag', `The subscription's tag capacity (${capacity}) would be exceeded`, {
    subscriptionId, tagCapacity: capacity,
  });

/** A tag's id from its reference (a UUID, or an API 1 id); null when the reference names no tag. */

/** The ids of the stored tags a plan needs (those updated or deleted; references that name no tag are left to the plan to refuse). */
export function tagIdsToRead(c: TagChanges): string[] {
  const ids = [...(c.update ?? []).map((u) => u.ref), ...(c.delete ?? [])].map(refUuid);
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/** Whether the plan needs every live tag of the list: cleanRemovedMetadataIds strips metadata of removed definitions from all of them. */
export const needsLiveTags = (c: TagChanges, definitionsChanged: boolean): boolean => !!c.cleanRemovedMetadataIds && definitionsChanged;

export interface TagChangeInput {
  /** The list as locked for this request (after its own fields were written). */
  list: TagListRecord;
  changes: TagChanges;
  /** The stored rows (tombstones included) of tagIdsToRead(changes). */
  stored: readonly TagRow[];
  /** Every live tag of the list when needsLiveTags(changes, definitionsChanged), else null. */
  liveTags: readonly TagRow[] | null;
  /** The list's metadata definitions changed in this request (a version even without tag changes). */
  definitionsChanged: boolean;
  /** Ids of inserted tags that carry none. */
  newId: () => string;
}

export interface TagChangePlan {
  inserts: TagWrite[];
  updates: TagWrite[];
  deleteIds: string[];
  /** Live tags once written. */
  tagCount: number;
  /** Live tags added to the subscription (negative when more are deleted). */
  addedTags: number;
  /** Any tag row is written. */
  changed: boolean;
  /** The list's tagsVersion once written: one more when a tag or the definitions changed. */
  version: number;
  /** The stored rows of updated tags (their creation is kept). */
  previous: ReadonlyMap<string, TagRow>;
}

/** Plans a bulk create/update/delete on one list; throws the request's first refusal. */
export function planTagChanges(p: TagChangeInput): TagChangePlan {
  const { list, changes: c } = p;
  const defined = new Set(list.metadataDefinitions.map((d) => d.id));
  const inserts: TagWrite[] = (c.insert ?? []).map((data, i) => {
    const id = p.newId();
    const d = normaliseTagData(data, { index: i }, defined);
    return { id, data: JSON.stringify(d.id === undefined ? { ...d, id } : d) };
  });
  const updateIds = (c.update ?? []).map((u) => resolvedTagId(u.ref));
  if (new Set(updateIds).size !== updateIds.length) throw invalidInput('A tag is updated twice in one request', { field: 'update' });
  const deleteIds = (c.delete ?? []).map(resolvedTagId);
  const stored = new Map(p.stored.map((t) => [t.id, t]));
  for (const id of new Set([...updateIds, ...deleteIds])) {
    const t = stored.get(id);
    if (!t || t.deletedAt) throw notFound('tag', id);
  }
  const deleting = new Set(deleteIds);
  const previous = new Map<string, TagRow>();
  const updates: TagWrite[] = (c.update ?? []).map((u, i) => {
    const id = updateIds[i]!;
    if (deleting.has(id)) throw invalidInput(`Tag ${id} is both updated and deleted`, { field: 'update', tagId: id });
    const old = stored.get(id)!;
    previous.set(id, old);
    let data = u.data;
    if (u.keepMetadata) {
      const { metadata: _drop, ...rest } = data;
      const oldData = JSON.parse(old.data) as TagData;
      data = oldData.metadata !== undefined ? { ...rest, metadata: oldData.metadata } : rest;
    }
    const d = normaliseTagData(data, { index: i }, u.keepMetadata ? null : defined);
    return { id, data: JSON.stringify(d.id === undefined ? { ...d, id } : d) };
  });
  // cleanRemovedMetadataIds: strip metadata whose definition is gone from every other live tag.
  if (p.liveTags) {
    const skip = new Set([...updateIds, ...deleteIds]);
    for (const t of p.liveTags) {
      if (skip.has(t.id)) continue;
      const cleaned = cleanMetadata(JSON.parse(t.data) as TagData, defined);
      if (cleaned) {
        updates.push({ id: t.id, data: JSON.stringify(cleaned) });
        previous.set(t.id, t);
      }
    }
  }
  const tagCount = list.tagCount + inserts.length - deleteIds.length;
  if (tagCount > MAX_TAGS_PER_LIST) throw tooManyTags(list.id, tagCount);
  const changed = inserts.length + updates.length + deleteIds.length > 0;
  return {
    inserts, updates, deleteIds, tagCount, addedTags: inserts.length - deleteIds.length, changed,
    version: changed || p.definitionsChanged ? list.tagsVersion + 1 : list.tagsVersion,
    previous,
  };
}

function resolvedTagId(ref: EntityRef): string {
  const id = refUuid(ref);
  if (!id) throw notFound('tag', refValue(ref));
  return id;
}

/** The subscription's tag capacity, given its live tags (`used`) and those a request adds. */
export function checkTagCapacity(sub: { id: string; tagCapacity: number }, used: number, added: number): void {
  if (added > 0 && used + added > sub.tagCapacity) throw capacityExceededTag(sub.id, sub.tagCapacity);
}

/** The rows a plan wrote, as the store now holds them (no read back of thousands of tags). */
export function writtenRows(plan: TagChangePlan, listId: string, by: string, now: Date): { created: TagRow[]; updated: TagRow[] } {
  const row = (t: TagWrite, created: { at: Date; by: string | null }): TagRow => ({
    id: t.id, listId, data: t.data, version: plan.version, createdAt: created.at, createdBy: created.by, updatedAt: now, updatedBy: by,
    deletedAt: null, deletedBy: null,
  });
  return {
    created: plan.inserts.map((t) => row(t, { at: now, by })),
    updated: plan.updates.map((t) => {
      const old = plan.previous.get(t.id)!;
      return row(t, { at: old.createdAt, by: old.createdBy });
    }),
  };
}

export interface TagMoveSource {
  /** The source list, locked. */
  list: TagListRecord;
  /** The tags to move out of it (no repeats). */
  ids: string[];
  /** Source metadata id → target metadata id. */
  mapping: ReadonlyMap<string, string>;
  /** The stored rows of `ids` in the source list (tombstones included). */
  stored: readonly TagRow[];
}

export interface TagMovePlan {
  /** Per source: the tags it loses (tombstoned at `version`) and its live count after. */
  sources: { list: TagListRecord; ids: string[]; version: number; tagCount: number }[];
  /** The tags the target gets (same ids), metadata ids mapped and kept when the target defines them. */
  moved: TagWrite[];
  target: { version: number; tagCount: number };
}

/**
 * Plans a move (vendor bulkMoveTags): every named tag must be live in its source, no tag
 * moves twice, the target stays within 50,000 tags and does not hold a moved tag live
 * (`inTarget`: the target's stored rows of the moved ids; a tombstone is replaced).
 */
export function planTagMove(target: TagListRecord, sources: readonly TagMoveSource[], inTarget: readonly TagRow[]): TagMovePlan {
  const defined = new Set(target.metadataDefinitions.map((d) => d.id));
  const moved: TagWrite[] = [];
  const out: TagMovePlan['sources'] = [];
  for (const s of sources) {
    const rows = new Map(s.stored.map((r) => [r.id, r]));
    for (const id of s.ids) if (!rows.get(id) || rows.get(id)!.deletedAt) throw notFound('tag', id);
    for (const id of s.ids) moved.push({ id, data: JSON.stringify(remapMetadata(JSON.parse(rows.get(id)!.data) as TagData, s.mapping, defined)) });
    out.push({ list: s.list, ids: s.ids, version: s.list.tagsVersion + 1, tagCount: s.list.tagCount - s.ids.length });
  }
  const seen = new Set<string>();
  for (const m of moved) {
    if (seen.has(m.id)) throw invalidInput(`Tag ${m.id} is moved twice`, { field: 'tagsIds', tagId: m.id });
    seen.add(m.id);
  }
  const tagCount = target.tagCount + moved.length;
  if (tagCount > MAX_TAGS_PER_LIST) throw tooManyTags(target.id, tagCount);
  const live = inTarget.find((r) => !r.deletedAt);
  if (live) throw invalidInput(`Tag ${live.id} is already in the target tag list`, { field: 'tagsIds', tagId: live.id });
  return { sources: out, moved, target: { version: target.tagsVersion + 1, tagCount } };
}
