// The planning of tag changes and moves (src/modules/tags/core/tag-change-plan.ts), without a
// database: what a bulk create/update/delete or a move writes, each list's next
// tagsVersion, and every refusal thrown before anything is written.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '../../src/core/errors.ts';
import { api1IdOf } from '../../src/core/ids/api1-id.ts';
import type { TagListRecord, TagRow } from '../../src/modules/tags/core/ports.ts';
import {
  checkTagCapacity, needsLiveTags, planTagChanges, planTagMove, tagIdsToRead, writtenRows, type TagChangeInput, type TagChanges,
} from '../../src/modules/tags/core/tag-change-plan.ts';

const T1 = '11111111-1111-4111-8111-111111111111';
const T2 = '22222222-2222-4222-8222-222222222222';
const T3 = '33333333-3333-4333-8333-333333333333';
const LIST = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OTHER = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const CREATED = new Date('2026-01-01T00:00:00Z');
const NOW = new Date('2026-02-01T00:00:00Z');

const geometry = { model: { type: 'AxisAlignedList', list: [[0, 0, 0, 1, 2, 3]] } };
const ref = (uuid: string) => ({ type: 'tag' as const, uuid });

function list(over: Partial<TagListRecord> = {}): TagListRecord {
  return {
    id: LIST, api1Id: '', projectId: 'p', workzoneId: 'w', tagListType: '3d', name: 'l', description: '', color: '#6b7785',
    metadataDefinitions: [{ id: 'm1', name: 'Floor' }, { id: 'm2', name: 'Room' }] as TagListRecord['metadataDefinitions'],
    attachments: null, pending: false, tagsVersion: 7, tagCount: 3, createdAt: CREATED, createdBy: 'u0', updatedAt: CREATED, updatedBy: 'u0',
    ...over,
  } as TagListRecord;
}

function row(id: string, data: object, over: Partial<TagRow> = {}): TagRow {
  return {
    id, listId: LIST, data: JSON.stringify(data), version: 3, createdAt: CREATED, createdBy: 'creator', updatedAt: CREATED, updatedBy: 'creator',
    deletedAt: null, deletedBy: null, ...over,
  };
}

function plan(changes: TagChanges, over: Partial<TagChangeInput> = {}) {
  let n = 0;
  return planTagChanges({
    list: list(), changes, stored: [], liveTags: null, definitionsChanged: false,
    newId: () => `00000000-0000-4000-8000-00000000000${++n}`, ...over,
  });
}

const refusal = (code: string, values?: Record<string, unknown>) => (e: unknown) => {
  assert.ok(e instanceof DomainError, String(e));
  assert.equal(e.code, code);
  for (const [k, v] of Object.entries(values ?? {})) assert.deepEqual(e.values?.[k], v, k);
  return true;
};

describe('tag changes: tagsVersion', () => {
  test('a request that writes tags raises tagsVersion by exactly one and stamps every written tag with it', () => {
    const stored = [row(T1, { ...geometry, id: 'a' }), row(T2, { ...geometry, id: 'b' })];
    const p = plan({ insert: [{ ...geometry }, { ...geometry }], update: [{ ref: ref(T1), data: { ...geometry, id: 'a2' } }], delete: [ref(T2)] }, { stored });
    assert.equal(p.version, 8);
    assert.equal(p.changed, true);
    const rows = writtenRows(p, LIST, 'u1', NOW);
    for (const r of [...rows.created, ...rows.updated]) assert.equal(r.version, 8);
    assert.deepEqual(p.deleteIds, [T2]);
    assert.equal(p.tagCount, 3 + 2 - 1);
    assert.equal(p.addedTags, 1);
  });

  test('a request that writes nothing keeps tagsVersion; a change of the definitions alone raises it by one', () => {
    assert.equal(plan({}).version, 7);
    assert.equal(plan({}).changed, false);
    assert.equal(plan({}, { definitionsChanged: true }).version, 8);
  });
});

describe('tag changes: what is written', () => {
  test('an inserted tag gets a new row id; its data keeps an id it carries, else gets the row id', () => {
    const p = plan({ insert: [{ ...geometry }, { ...geometry, id: 'P-1' }] });
    assert.equal(p.inserts[0]!.id, '00000000-0000-4000-8000-000000000001');
    assert.equal(JSON.parse(p.inserts[0]!.data).id, '00000000-0000-4000-8000-000000000001');
    assert.equal(JSON.parse(p.inserts[1]!.data).id, 'P-1');
    assert.deepEqual(JSON.parse(p.inserts[0]!.data).boundingBox, [0, 0, 0, 1, 2, 3], 'the bounding box is completed');
  });

  test('written rows: created ones by the caller now, updated ones keep their creation', () => {
    const p = plan({ insert: [{ ...geometry }], update: [{ ref: ref(T1), data: { ...geometry } }] }, { stored: [row(T1, geometry)] });
    const { created, updated } = writtenRows(p, LIST, 'u1', NOW);
    assert.deepEqual([created[0]!.createdAt, created[0]!.createdBy, created[0]!.updatedBy], [NOW, 'u1', 'u1']);
    assert.deepEqual([updated[0]!.id, updated[0]!.createdAt, updated[0]!.createdBy, updated[0]!.updatedAt], [T1, CREATED, 'creator', NOW]);
  });

  test('keepMetadata (API 1 updates): the stored metadata stays whatever the update carries', () => {
    const stored = [row(T1, { ...geometry, metadata: [{ id: 'm1', value: 'kept' }] })];
    const p = plan({ update: [{ ref: ref(T1), data: { ...geometry, metadata: [{ id: 'gone', value: 'x' }] }, keepMetadata: true }] }, { stored });
    assert.deepEqual(JSON.parse(p.updates[0]!.data).metadata, [{ id: 'm1', value: 'kept' }]);
  });

  test('cleanRemovedMetadataIds: metadata of removed definitions is stripped from every other live tag, which counts as updated', () => {
    const definitions = [{ id: 'm1', name: 'Floor' }] as TagListRecord['metadataDefinitions'];
    const liveTags = [
      row(T1, { ...geometry, metadata: [{ id: 'm1', value: '1' }, { id: 'm2', value: '2' }] }),
      row(T2, { ...geometry, metadata: [{ id: 'm1', value: '1' }] }),
      row(T3, { ...geometry, metadata: [{ id: 'm2', value: '3' }] }),
    ];
    const changes: TagChanges = { delete: [ref(T3)], cleanRemovedMetadataIds: true };
    assert.equal(needsLiveTags(changes, true), true);
    assert.equal(needsLiveTags(changes, false), false);
    const p = plan(changes, { list: list({ metadataDefinitions: definitions }), stored: [liveTags[2]!], liveTags, definitionsChanged: true });
    assert.deepEqual(p.updates.map((u) => u.id), [T1], 'T2 needs no cleaning, T3 is deleted');
    assert.deepEqual(JSON.parse(p.updates[0]!.data).metadata, [{ id: 'm1', value: '1' }]);
    assert.equal(writtenRows(p, LIST, 'u1', NOW).updated[0]!.createdBy, 'creator');
  });

  test('the stored rows to read: the ids of updated and deleted tags, once, API 1 ids resolved, unresolvable ones left out', () => {
    const changes: TagChanges = { update: [{ ref: ref(T1), data: geometry }], delete: [ref(T1), { type: 'tag', api1Id: api1IdOf(T2) }, { type: 'tag', api1Id: 'nope' }] };
    assert.deepEqual(tagIdsToRead(changes), [T1, T2]);
  });
});

describe('tag changes: refusals', () => {
  test('a tag updated twice in one request is refused', () => {
    const stored = [row(T1, geometry)];
    assert.throws(() => plan({ update: [{ ref: ref(T1), data: geometry }, { ref: ref(T1), data: geometry }] }, { stored }), refusal('invalid-input', { field: 'update' }));
  });

  test('a tag both updated and deleted is refused', () => {
    const stored = [row(T1, geometry)];
    assert.throws(() => plan({ update: [{ ref: ref(T1), data: geometry }], delete: [ref(T1)] }, { stored }), refusal('invalid-input', { tagId: T1 }));
  });

  test('only live tags can be updated or deleted: a missing tag or a tombstone is 404', () => {
    assert.throws(() => plan({ delete: [ref(T1)] }), refusal('tag-not-found'));
    const tombstone = row(T1, geometry, { deletedAt: CREATED, deletedBy: 'x' });
    assert.throws(() => plan({ update: [{ ref: ref(T1), data: geometry }] }, { stored: [tombstone] }), refusal('tag-not-found'));
    assert.throws(() => plan({ delete: [{ type: 'tag', api1Id: 'not-an-id' }] }), refusal('tag-not-found'));
  });

  test('an insert whose geometry is invalid is refused naming its index, before any reference is looked at', () => {
    assert.throws(
      () => plan({ insert: [geometry, { model: { type: 'AxisAlignedList', list: [[1, 0, 0, 0, 0, 0]] } }], delete: [ref(T1)] }),
      refusal('invalid-input', { tagIndex: 1 }),
    );
  });

  test('metadata ids must be defined on the list', () => {
    assert.throws(() => plan({ insert: [{ ...geometry, metadata: [{ id: 'zz', value: 'v' }] }] }), refusal('invalid-input', { field: 'metadata[0].id' }));
  });

  test('a list holds at most 50,000 live tags; deletions in the same request make room', () => {
    assert.throws(() => plan({ insert: [geometry, geometry] }, { list: list({ tagCount: 49_999 }) }), refusal('too-many-tags', { limit: 50_000 }));
    const p = plan({ insert: [geometry, geometry], delete: [ref(T1)] }, { list: list({ tagCount: 49_999 }), stored: [row(T1, geometry)] });
    assert.equal(p.tagCount, 50_000);
  });

  test('the subscription tag capacity: refused when live tags plus added ones exceed it; a request that adds none is never refused', () => {
    const sub = { id: 's', tagCapacity: 10 };
    assert.doesNotThrow(() => checkTagCapacity(sub, 8, 2));
    assert.throws(() => checkTagCapacity(sub, 9, 2), refusal('capacity-exceeded-tag', { subscriptionId: 's', tagCapacity: 10 }));
    assert.doesNotThrow(() => checkTagCapacity(sub, 50, 0));
    assert.doesNotThrow(() => checkTagCapacity(sub, 50, -3));
  });
});

describe('tag moves', () => {
  const target = list({ id: OTHER, tagsVersion: 2, tagCount: 5, metadataDefinitions: [{ id: 't1', name: 'Floor' }] as TagListRecord['metadataDefinitions'] });
  const source = list({ tagsVersion: 7, tagCount: 3 });
  const stored = [row(T1, { ...geometry, metadata: [{ id: 'm1', value: 'a' }, { id: 'm2', value: 'b' }] }), row(T2, geometry)];

  test('each source loses its tags at its tagsVersion plus one, the target gains them at its own plus one, metadata ids mapped and kept when it defines them', () => {
    const p = planTagMove(target, [{ list: source, ids: [T1, T2], mapping: new Map([['m1', 't1']]), stored }], []);
    assert.deepEqual(p.sources.map((s) => [s.list.id, s.ids, s.version, s.tagCount]), [[LIST, [T1, T2], 8, 1]]);
    assert.deepEqual(p.target, { version: 3, tagCount: 7 });
    assert.deepEqual(p.moved.map((m) => m.id), [T1, T2]);
    assert.deepEqual(JSON.parse(p.moved[0]!.data).metadata, [{ id: 't1', value: 'a' }]);
  });

  test('a tag that is not live in its source is 404', () => {
    const tombstone = row(T2, geometry, { deletedAt: CREATED });
    assert.throws(() => planTagMove(target, [{ list: source, ids: [T1, T2], mapping: new Map(), stored: [stored[0]!, tombstone] }], []), refusal('tag-not-found'));
    assert.throws(() => planTagMove(target, [{ list: source, ids: [T3], mapping: new Map(), stored }], []), refusal('tag-not-found'));
  });

  test('a tag moved twice (named in two sources) is refused', () => {
    const second = list({ id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc' });
    const sources = [
      { list: source, ids: [T1], mapping: new Map(), stored },
      { list: second, ids: [T1], mapping: new Map(), stored },
    ];
    assert.throws(() => planTagMove(target, sources, []), refusal('invalid-input', { tagId: T1 }));
  });

  test('the target stays within 50,000 tags', () => {
    assert.throws(() => planTagMove(list({ ...target, tagCount: 49_999 }), [{ list: source, ids: [T1, T2], mapping: new Map(), stored }], []), refusal('too-many-tags'));
  });

  test('a tag the target holds live is refused; a tombstone of it in the target is no obstacle', () => {
    const sources = [{ list: source, ids: [T1], mapping: new Map(), stored }];
    assert.throws(() => planTagMove(target, sources, [row(T1, geometry, { listId: OTHER })]), refusal('invalid-input', { tagId: T1 }));
    assert.doesNotThrow(() => planTagMove(target, sources, [row(T1, geometry, { listId: OTHER, deletedAt: CREATED })]));
  });
});
