// One tag shape per API generation (src/http/api*/tag-json.ts, src/modules/tags/core/tag-json.ts):
// the TypeBox response schema accepts what the description writes, for a tag with every
// field set and for one with nulls wherever a null may be written; the description's
// fields are the schema's; and the store's shape is the writer's text piece by piece (its
// SQL is checked against the writer on both engines in test/repos/tags.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { tagShapeOf, tagWriterOf, type TagJsonDescription } from '../../src/modules/tags/core/tag-json.ts';
import type { TagListRecord, TagRow } from '../../src/modules/tags/core/ports.ts';
import { api1IdOf } from '../../src/core/ids/api1-id.ts';
import { api1TagJson, DeletedTag, Tag as Api1Tag } from '../../src/modules/tags/http/api1-tag-json.ts';
import { api2TagJson, Tag as Api2Tag } from '../../src/modules/tags/http/api2-tag-json.ts';

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
(((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv)(ajv);

const LIST_ID = '0b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00';
const list: TagListRecord = {
  id: LIST_ID, api1Id: api1IdOf(LIST_ID), projectId: '1b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00', workzoneId: '2b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00',
  tagListType: '3d "quoted" \\ type', name: 'L', description: '', color: '#ffffff', metadataDefinitions: [], attachments: null,
  pending: false, tagsVersion: 3, tagCount: 1,
  createdAt: new Date('2026-01-01T00:00:00Z'), createdBy: null, updatedAt: new Date('2026-01-02T00:00:00Z'), updatedBy: null,
} as TagListRecord;

/** TagData with every field the request schema knows. */
const FULL_DATA = JSON.stringify({
  id: 't-1', subId: 's', uuid: '3b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00', name: 'n', pageId: 'p', pageLinkId: 'pl', tagLinkIds: ['a'],
  boundingBox: [0, 0, 0, 1, 1, 1], orientedBoundingBox: [0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
  model: { type: 'box', list: [[0, 0, 0, 1, 1, 1]] }, class: 'valve', cameraState: { position: [0, 0, 0], ortho: false },
  unit: 1, functionalSystem: 'f', description: 'd', url: 'https://example.com/x', confidence: 0.5,
  scanUuids: ['4b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00'], needValidation: true, nature: 'AI',
  customFields: [{ name: 'c', value: 'v' }], metadata: [{ id: 'm', value: 'v' }],
});

const everyField: TagRow = {
  id: '5b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00', listId: LIST_ID, data: FULL_DATA, version: 3,
  createdAt: new Date('2026-02-01T10:00:00.123Z'), createdBy: '6b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00',
  updatedAt: new Date('2026-02-02T10:00:00Z'), updatedBy: '7b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00',
  deletedAt: new Date('2026-02-03T10:00:00Z'), deletedBy: '8b6c3f4e-2f7a-4c1d-9e8b-5a4d3c2b1a00',
} as TagRow;
const live: TagRow = { ...everyField, deletedAt: null, deletedBy: null };
const nulls: TagRow = { ...live, data: '{"id":"t-2"}', createdBy: null, updatedBy: null };

const generations: { name: string; d: TagJsonDescription; schema: TSchema; deletedSchema: TSchema }[] = [
  { name: 'API 2', d: api2TagJson('svc'), schema: Api2Tag, deletedSchema: Api2Tag },
  { name: 'API 1', d: api1TagJson, schema: Api1Tag, deletedSchema: DeletedTag },
];

for (const { name, d, schema, deletedSchema } of generations) {
  test(`${name}: the response schema accepts what the description writes (every field set, nulls where allowed, a tombstone)`, () => {
    const write = tagWriterOf(d, list);
    const check = ajv.compile(schema);
    for (const [what, row] of [['every field set', live], ['nulls', nulls]] as const) {
      const json = JSON.parse(write(row));
      assert.ok(check(json), `${what}: ${JSON.stringify(check.errors)}`);
    }
    const checkDeleted = ajv.compile(deletedSchema);
    const tombstone = JSON.parse(write(everyField));
    assert.ok(checkDeleted(tombstone), `tombstone: ${JSON.stringify(checkDeleted.errors)}`);
  });

  test(`${name}: the description's fields are the response schema's, each written once`, () => {
    const fields = d.fieldsOf(list);
    const names = fields.live.map(([n]) => n);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual([...names].sort(), Object.keys((schema as { properties: object }).properties).sort());
    if (fields.deleted) {
      assert.deepEqual(fields.deleted.map(([n]) => n).sort(), Object.keys((deletedSchema as { properties: object }).properties).sort());
    }
    // Every field the schema requires is written (nullable ones as null).
    for (const required of (schema as { required?: string[] }).required ?? []) assert.ok(names.includes(required), required);
  });

  test(`${name}: the writer writes the store's shape: literal pieces as they are, one value per other piece`, () => {
    const shape = tagShapeOf(d, list);
    assert.equal(shape.generation, d.generation);
    const text = tagWriterOf(d, list)(live);
    // The literal pieces appear in the writer's text, in order.
    const literals = shape.live.flatMap((p) => ('text' in p ? [p.text] : []));
    assert.ok(text.startsWith(literals[0]!) && text.endsWith(literals.at(-1)!));
    let at = 0;
    for (const literal of literals.slice(0, -1)) {
      const i = text.indexOf(literal, at);
      assert.ok(i >= at, `${JSON.stringify(literal)} missing after ${at}`);
      at = i + literal.length;
    }
    for (let i = 1; i < shape.live.length; i++) {
      assert.ok(!('text' in shape.live[i]! && 'text' in shape.live[i - 1]!), 'adjacent literals are joined (the shape key digests the pieces)');
    }
  });
}

test('the list\'s own values are written as JSON (escaped)', () => {
  const text = tagWriterOf(api2TagJson('svc'), list)(live);
  assert.equal(JSON.parse(text).tagListType, list.tagListType);
  assert.equal(JSON.parse(text).id, `urn:svc:tag:${live.id}`);
  assert.equal(JSON.parse(tagWriterOf(api1TagJson, list)(live)).parentId, list.api1Id);
});
