// API 1: list project files (spec "List project files", API 1 File). API 1 spells the geo
// image category `geo-image` (its filter names "model, scan or geo-image"); both
// spellings filter, and API 1 shows `geo-image`.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../../../http/schema-helpers.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { id1 } from '../../../http/api1/presenters.ts';
import type { Files, FileView } from '../core/files.ts';
import { parseCategories } from '../core/upload-items.ts';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import * as S from '../../../http/api1/schemas.ts';


const File = Type.Object({
  projectId: Type.String(), parentId: Type.String(), parentUuid: Type.String(), id: Type.String(), type: Type.String(),
  uuid: Type.String(), name: Type.String(), formatId: Type.Integer(), size: Type.Integer(), createdBy: Nullable(Type.String()),
  createdAt: DateTime, updatedAt: NullableDateTime, updatedBy: Nullable(Type.String()), importedAt: NullableDateTime,
  imageBlob: Nullable(Type.String()), imagePreviewBlob: Nullable(Type.String()),
  translation: Nullable(Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() })),
  rotation: Nullable(Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number(), w: Type.Number() })),
  contentId: Nullable(Type.String()),
  src: Type.Object({
    type: Type.String(), data: Nullable(Type.String()), name: Type.String(), createdAt: DateTime, createdBy: Nullable(Type.String()),
    version: Type.Integer(), treeBlob: Nullable(Type.String()), metadataBlob: Nullable(Type.String()),
    mfi: Nullable(Type.Object({ blob: Type.String(), format: Type.String() })),
  }),
});

const api1Type = (category: string) => (category === 'geoImage' ? 'geo-image' : category);

function present(v: FileView) {
  const f = v.file;
  return {
    projectId: api1IdOf(f.projectId), parentId: api1IdOf(f.workzoneId), parentUuid: f.workzoneId, id: f.api1Id, type: api1Type(f.category),
    uuid: f.id, name: f.name, formatId: f.formatId, size: f.size, createdBy: id1(f.createdBy), createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt?.toISOString() ?? null, updatedBy: id1(f.updatedBy), importedAt: f.importedAt?.toISOString() ?? null,
    imageBlob: null, imagePreviewBlob: null, translation: f.translation, rotation: f.rotation,
    contentId: f.category === 'model' ? f.id : null,
    src: {
      type: f.extension, data: null, name: f.blobName, createdAt: f.createdAt.toISOString(), createdBy: id1(f.createdBy), version: 1,
      treeBlob: null, metadataBlob: null, mfi: null,
    },
  };
}

export function fileRoutes(root: FastifyInstance, core: { files: Files }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;

  app.get('/accounts/:accountId/projects/:projectId/files', {
    schema: {
      summary: 'List project files (optionally of some categories: scan,model,geo-image…)', operationId: 'listProjectFiles', tags: ['files'],
      params: S.withParams('projectId'), querystring: Type.Object({ category: Type.Optional(Type.String({ maxLength: 1000 })) }),
      response: { 200: Type.Array(File), '4xx': S.Api1Error },
    },
  }, async (req) => {
    const categories = parseCategories(req.query.category, { 'geo-image': 'geoImage' });
    const files = await core.files.listFiles(actor(req), ref('account', req.params.accountId), ref('project', req.params.projectId), categories);
    return files.map(present);
  });
}
