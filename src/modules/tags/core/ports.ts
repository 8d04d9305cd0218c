// The tags module's repository port (its SQL: src/modules/tags/postgres/tags-repo.ts), CONTRACT
// §8: every change raises the list's tagsVersion, each tag records the version that last
// changed it, deletions stay as tombstones so that "changes after version N" and "changes
// since date D" include them.

export interface MetadataDefinition {
  id: string;
  name: string;
}

export interface TagListRecord {
  id: string;
  api1Id: string;
  projectId: string;
  workzoneId: string;
  tagListType: string;
  name: string;
  description: string;
  color: string;
  metadataDefinitions: MetadataDefinition[];
  attachments: unknown[] | null;
  pending: boolean;
  tagsVersion: number;
  /** Live (not deleted) tags. */
  tagCount: number;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
}

export type TagListFields = Pick<TagListRecord, 'workzoneId' | 'tagListType' | 'name' | 'description' | 'color' | 'metadataDefinitions' | 'attachments'>;

/** A tag as stored: `data` is the TagData JSON text (kept verbatim, so reads need no per-tag work). */
export interface TagRow {
  id: string;
  listId: string;
  data: string;
  version: number;
  createdAt: Date;
  createdBy: string | null;
  updatedAt: Date;
  updatedBy: string | null;
  deletedAt: Date | null;
  deletedBy: string | null;
}

export interface TagWrite {
  id: string;
  /** TagData JSON text. */
  data: string;
}

export type TagFilter = { all: true } | { afterVersion: number } | { since: Date };

/**
 * How to write a tag as JSON text, piece by piece, so that a store can build a whole list's
 * text itself (one query, no per-tag work in the process). `text` pieces are literal JSON
 * text; the others are JSON values of the tag's fields (null when the field is null).
 */
export type TagJsonPiece =
  | { text: string }
  /** "<prefix><uuid>": the prefix is JSON string content (already escaped). */
  | { uuid: 'id' | 'createdBy' | 'updatedBy' | 'deletedBy'; prefix: string }
  /** The API 1 id derived from the UUID (base64url of its 16 bytes). */
  | { api1: 'id' | 'createdBy' | 'updatedBy' | 'deletedBy' }
  /** RFC 3339 UTC with milliseconds, as Date.toISOString writes it. */
  | { time: 'createdAt' | 'updatedAt' | 'deletedAt' }
  | { int: 'version' }
  | { bool: 'isDeleted' }
  | { json: 'data' };

export interface TagJsonShape {
  live: TagJsonPiece[];
  /** For tombstones (default: `live`). */
  deleted?: TagJsonPiece[];
  /**
   * The API generation whose text this is: a store may keep each tag's text per generation,
   * written when the tag changes (storeTagText), and serve it while the shape is the same.
   */
  generation?: 1 | 2;
}

/**
 * Tags written as a shape, in list order: their texts joined by commas in `text`, and per
 * tag its id, its place in the list (`seq`: creation order), whether it is a tombstone, and
 * the byte where its text starts (`starts` has one more entry, `text.length + 1`, so tag i
 * is `text.subarray(starts[i], starts[i + 1] - 1)`).
 */
export interface TagTextRun {
  text: Buffer;
  ids: string[];
  seqs: number[];
  deleted: boolean[];
  starts: Uint32Array;
}

export interface TagsRepo {
  /** Live tags per work zone of the project (the zones' statsInfo.tagCount); `zoneIds` narrows the read. */
  tagCountByZone(projectId: string, zoneIds?: string[]): Promise<Map<string, number>>;
  /**
   * The tags `tags(listId, filter)` answers, written as `shape` and joined with commas (no
   * brackets), with the list's tagsVersion read in the same snapshot (the text is that
   * version's). Runs its own read-only transaction: call it outside one.
   */
  renderTags(listId: string, filter: TagFilter, shape: TagJsonShape): Promise<{ version: number; json: string }>;
  /**
   * renderTags in runs, in list order, each handed to `onRun` as soon as it is read (all in
   * one snapshot, with the version), for callers that send a whole list while it is read and
   * keep (and patch) its text. Runs hold a few thousand tags each (renderTags joins them).
   */
  streamTagTexts(listId: string, filter: TagFilter, shape: TagJsonShape, onRun: (run: TagTextRun) => void): Promise<{ version: number }>;
  listById(id: string): Promise<TagListRecord | null>;
  listByRef(projectId: string, ref: { uuid: string } | { api1Id: string }): Promise<TagListRecord | null>;
  /** Takes a row lock on the list for the rest of the transaction (serialises its versions). */
  lockList(id: string): Promise<TagListRecord | null>;
  listsOfProject(projectId: string, updatedAfter?: Date): Promise<TagListRecord[]>;
  insertList(l: Omit<TagListRecord, 'api1Id' | 'tagsVersion' | 'tagCount' | 'updatedAt' | 'updatedBy' | 'pending'>): Promise<void>;
  updateList(id: string, f: TagListFields, by: string, now: Date): Promise<void>;
  /** Sets the list's tagsVersion, live tag count, pending flag and updated stamp. */
  touchList(id: string, p: { version: number; tagCount: number; pending: boolean; by: string | null; now: Date }): Promise<void>;
  removeList(id: string): Promise<void>;
  /** Tags (tombstones included except for `all`), ordered by creation. */
  tags(listId: string, filter: TagFilter): Promise<TagRow[]>;
  /** The given tags of the list (tombstones included). */
  tagsByIds(listId: string, ids: string[]): Promise<TagRow[]>;
  /** `shapes`: each generation's text is stored with the rows (storeTagText). */
  insertTags(listId: string, tags: TagWrite[], version: number, by: string | null, now: Date, shapes?: TagJsonShape[]): Promise<void>;
  updateTags(listId: string, tags: TagWrite[], version: number, by: string | null, now: Date): Promise<void>;
  /** Tombstones the live tags among `ids`; answers the ids deleted. */
  deleteTags(listId: string, ids: string[], version: number, by: string | null, now: Date): Promise<string[]>;
  /** Removes tombstones with these ids (a tag moved back into a list it left). */
  purgeTombstones(listId: string, ids: string[]): Promise<void>;
  /**
   * Writes and keeps the text of each shape (one per generation) for the tags changed at
   * `version` whose text is not kept yet (updated, deleted), or (`stale`) for every tag of
   * the list kept with another shape (the list's own fields changed). Part of the writing
   * transaction.
   */
  storeTagText(listId: string, shapes: TagJsonShape[], which: { version: number } | 'stale'): Promise<void>;
  /** The subscription of the list's project (detection jobs check its capacity). */
  subscriptionOfList(listId: string): Promise<{ id: string; accountId: string; tagCapacity: number } | null>;
  /** Live tags of every project on the subscription. */
  countForSubscription(subscriptionId: string): Promise<number>;
}

/** The module's repositories, as the store binds them (the work zones' and share links' use cases declare them in their slices). */
export interface TagsRepos {
  tags: TagsRepo;
}
