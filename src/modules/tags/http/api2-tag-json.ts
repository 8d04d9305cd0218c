// API 2's tag, described once: its TypeBox schema (the OpenAPI document) and its fields,
// from which the store's shape and the writer are derived (src/modules/tags/core/tag-json.ts);
// test/unit/tag-json.test.ts checks that the schema accepts what the fields write.
import { Type } from 'typebox';
import { formatUrn } from '../../../core/ids/urn.ts';
import type { TagJsonDescription } from '../index.ts';
import { DateTime, Nullable, NullableDateTime } from '../../../http/schema-helpers.ts';
import { TagData } from './schemas.ts';

/** For the OpenAPI document: the shape of the tags the description writes. */
export const Tag = Type.Object({
  id: Type.String(), urn: Type.String(), api1Id: Type.String(), type: Type.Literal('tag'), tagListId: Type.String(), tagListType: Type.String(),
  createdBy: Nullable(Type.String()), createdAt: DateTime, updatedBy: Nullable(Type.String()), updatedAt: DateTime,
  isDeleted: Type.Boolean(), deletedBy: Nullable(Type.String()), deletedAt: NullableDateTime, tagsVersion: Type.Integer(), data: TagData,
});

/** API 2 tags of a deployment whose URN namespace is `ns`. */
export const api2TagJson = (ns: string): TagJsonDescription => {
  const tag = `urn:${ns}:tag:`;
  const user = `urn:${ns}:user:`;
  return {
    generation: 2,
    fieldsOf: (list) => ({
      live: [
        ['type', { const: 'tag' }],
        ['tagListId', { const: formatUrn(ns, 'tag-list', list.id) }],
        ['tagListType', { const: list.tagListType }],
        ['id', { uuid: 'id', prefix: tag }],
        ['urn', { uuid: 'id', prefix: tag }],
        ['api1Id', { api1: 'id' }],
        ['createdBy', { uuid: 'createdBy', prefix: user }],
        ['createdAt', { time: 'createdAt' }],
        ['updatedBy', { uuid: 'updatedBy', prefix: user }],
        ['updatedAt', { time: 'updatedAt' }],
        ['isDeleted', { bool: 'isDeleted' }],
        ['deletedBy', { uuid: 'deletedBy', prefix: user }],
        ['deletedAt', { time: 'deletedAt' }],
        ['tagsVersion', { int: 'version' }],
        ['data', { json: 'data' }],
      ],
    }),
  };
};
