// Whole tag lists as sent, kept per node: the body's bytes and where each tag's text is in
// them (in list order), for one (tagsVersion, variant). Every change of a tag raises the
// version, and the variant holds the list fields written into each tag (its tagListType),
// so an entry is never stale; a read checks the version it just loaded. When the version
// moved on, only the tags changed since the kept version are read and patched into a copy
// (updated tags keep their place, new ones go last, deleted ones go), so the first read
// after a change costs its changes, not the whole list, on any node that read the list
// before. A list read whole is sent run by run while the store reads the next run. Bounded
// by total bytes, least recently used out first (a named LRU of src/core/cache, its weight
// an entry's bytes: TAG_TEXT_CACHE_BYTES).
import { Readable, PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { TagFilter, TagTextRun } from '../core/ports.ts';
import { handledLater } from '../../../core/promises.ts';
import type { CacheRegistry } from '../../../core/cache/registry.ts';
import type { Lru } from '../../../core/cache/lru.ts';

/** A kept list (never changed once kept: a newer version is a patched copy). */
export interface KeptList {
  readonly version: number;
  readonly variant: string;
}

interface Entry extends KeptList {
  /** The body: '[', the runs' texts joined by ',', ']'. */
  pieces: Buffer[];
  /** The tags, in list order (their texts are pieces of the body). */
  runs: TagTextRun[];
  bytes: number;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
const EMPTY = Buffer.from('[]');

/** Bytes an entry's index costs beside its body, per tag (an id string, a place, two offsets). */
const INDEX_BYTES_PER_TAG = 96;

/**
 * `base`'s tags with `changes` (tags changed after its version, tombstones included, in list
 * order) applied: an updated tag keeps its place, a deleted one goes, a new one goes last,
 * and so does one that came back with a new place (a move). Unchanged neighbours are copied
 * as one slice. Answers the body ('[', the tags, ']') and its tags as one run (its text a
 * view of the body).
 */
export function patchRuns(base: readonly TagTextRun[], changes: readonly TagTextRun[]): { body: Buffer; run: TagTextRun } {
  const changed = new Map<string, { run: TagTextRun; i: number }>();
  for (const run of changes) for (let i = 0; i < run.ids.length; i++) changed.set(run.ids[i]!, { run, i });
  const placed = new Set<string>();
  const parts: Buffer[] = [OPEN];
  const ids: string[] = [];
  const seqs: number[] = [];
  const deleted: boolean[] = [];
  const starts: number[] = [];
  let p = 0;
  const emit = (run: TagTextRun, from: number, to: number) => {
    if (from >= to) return;
    if (parts.length > 1) parts.push(COMMA);
    const at = run.starts[from]!;
    parts.push(run.text.subarray(at, run.starts[to]! - 1));
    for (let i = from; i < to; i++) {
      ids.push(run.ids[i]!);
      seqs.push(run.seqs[i]!);
      deleted.push(false);
      starts.push(p + run.starts[i]! - at);
    }
    p += run.starts[to]! - at;
  };
  for (const run of base) {
    let from = 0;
    for (let i = 0; i < run.ids.length; i++) {
      const c = changed.get(run.ids[i]!);
      if (!c) continue;
      emit(run, from, i);
      from = i + 1;
      if (!c.run.deleted[c.i] && c.run.seqs[c.i] === run.seqs[i]) {
        emit(c.run, c.i, c.i + 1); // in place
        placed.add(run.ids[i]!);
      }
    }
    emit(run, from, run.ids.length);
  }
  for (const run of changes) {
    for (let i = 0; i < run.ids.length; i++) if (!run.deleted[i] && !placed.has(run.ids[i]!)) emit(run, i, i + 1);
  }
  starts.push(p);
  parts.push(CLOSE);
  const body = Buffer.concat(parts);
  return { body, run: { text: body.subarray(1, body.length - 1), ids, seqs, deleted, starts: Uint32Array.from(starts) } };
}

export class TagTextCache {
  private readonly entries: Lru<Entry>;

  /** `name`: the cache's name in GET /metrics (one per node, shared by the apps built over it); `maxBytes`: TAG_TEXT_CACHE_BYTES. */
  constructor(caches: CacheRegistry, name: string, maxBytes: number) {
    this.entries = caches.shared<Entry>({ name, maxWeight: maxBytes, weightOf: (e) => e.bytes });
  }

  /** The body kept for this version and variant. */
  get(listId: string, version: number, variant: string): Buffer[] | undefined {
    return this.entries.getIf(listId, (e) => e.version === version && e.variant === variant)?.pieces;
  }

  /** The list as kept (any version), to read only the changes after its version. */
  kept(listId: string): KeptList | undefined {
    return this.entries.peek(listId);
  }

  /** The body of `base` (kept before) patched with the changes after its version, kept as `version`. */
  patch(listId: string, base: KeptList, version: number, changes: readonly TagTextRun[]): Buffer[] {
    const { body, run } = patchRuns((base as Entry).runs, changes);
    const pieces = [body];
    this.keep(listId, base.variant, version, pieces, run.ids.length ? [run] : []);
    return pieces;
  }

  /** Keeps a body (`pieces`: '[', the runs' texts joined by ',', ']') unless a newer version is kept already. */
  keep(listId: string, variant: string, version: number, pieces: Buffer[], runs: TagTextRun[]): void {
    const current = this.entries.peek(listId);
    if (current && current.version >= version && current.variant === variant) return;
    let bytes = 0;
    for (const p of pieces) bytes += p.length;
    for (const r of runs) bytes += r.ids.length * INDEX_BYTES_PER_TAG;
    // Replaces the kept version; a body heavier than the whole bound is not kept (and the kept one goes).
    this.entries.set(listId, { version, variant, pieces, runs, bytes });
  }
}

/** Reads the list's tags (`filter`) in runs; answers the version read and the variant the texts were written in. */
export type ReadRuns = (filter: TagFilter, onRun: (run: TagTextRun) => void) => Promise<{ version: number; variant: string }>;

const sendPieces = (reply: FastifyReply, pieces: Buffer[]) =>
  reply.code(200).type('application/json; charset=utf-8').send(pieces.length === 1 ? pieces[0] : Readable.from(pieces));

/**
 * Answers a whole tag list (`list` as just read: its id and tagsVersion; `variant` as its
 * texts would be written now): kept, patched from a kept version, or read whole and sent
 * run by run while the next run is read. A refusal (access, a missing list) comes before
 * the first byte, as an error answer; a failure after it cuts the answer short.
 */
export async function sendWholeList(
  reply: FastifyReply, cache: TagTextCache, list: { id: string; tagsVersion: number }, variant: string, read: ReadRuns,
): Promise<FastifyReply> {
  const hit = cache.get(list.id, list.tagsVersion, variant);
  if (hit) return sendPieces(reply, hit);
  const kept = cache.kept(list.id);
  if (kept && kept.variant === variant && kept.version < list.tagsVersion) {
    const changes: TagTextRun[] = [];
    const v = await read({ afterVersion: kept.version }, (r) => changes.push(r));
    // Texts written in another variant (the list's type changed meanwhile) are read whole.
    if (v.variant === variant) return sendPieces(reply, cache.patch(list.id, kept, v.version, changes));
  }

  const body = new PassThrough();
  const runs: TagTextRun[] = [];
  const pieces: Buffer[] = [];
  const push = (b: Buffer) => {
    pieces.push(b);
    body.write(b);
  };
  let started!: () => void;
  const first = new Promise<void>((resolve) => (started = resolve));
  const done = read({ all: true }, (run) => {
    push(runs.length ? COMMA : OPEN);
    push(run.text);
    runs.push(run);
    started();
  });
  handledLater(done); // handled below, once the answer has begun
  await Promise.race([first, done]); // a refusal is thrown here, before any byte
  done.then(
    (v) => {
      push(runs.length ? CLOSE : EMPTY);
      body.end();
      cache.keep(list.id, v.variant, v.version, pieces, runs);
    },
    (e: unknown) => body.destroy(e instanceof Error ? e : new Error(String(e))),
  );
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}
