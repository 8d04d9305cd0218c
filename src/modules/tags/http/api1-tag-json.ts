// API 1's tag, described once: its TypeBox schemas (live tags and deletion markers) and
// its fields, from which the store's shape and the writer are derived
// (src/modules/tags/core/tag-json.ts); test/unit/tag-json.test.ts checks that the schemas accept
// what the fields write.
import { Type } from 'typebox';
import type { TagJsonDescription } from '../index.ts';
import { DateTime, Nullable } from '../../../http/schema-helpers.ts';
import { TagDataApi1 } from './schemas.ts';

export const Tag = Type.Object({
  id: Type.String(), type: Type.Literal('tag'), parentId: Type.String(), createdAt: DateTime, createdBy: Nullable(Type.String()),
  updatedAt: DateTime, updatedBy: Nullable(Type.String()), data: TagDataApi1,
});
/** A deleted tag, in changes read with `since`. */
export const DeletedTag = Type.Object({ id: Type.String(), isDeleted: Type.Literal(true) });

export const api1TagJson: TagJsonDescription = {
  generation: 1,
  fieldsOf: (list) => ({
    live: [
      ['id', { api1: 'id' }],
      ['type', { const: 'tag' }],
      ['parentId', { const: list.api1Id }],
      ['createdAt', { time: 'createdAt' }],
      ['createdBy', { api1: 'createdBy' }],
      ['updatedAt', { time: 'updatedAt' }],
      ['updatedBy', { api1: 'updatedBy' }],
      ['data', { json: 'data' }],
    ],
    deleted: [
      ['id', { api1: 'id' }],
      ['isDeleted', { const: true }],
    ],
  }),
};
