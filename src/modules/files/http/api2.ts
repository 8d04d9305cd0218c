// API 2: file formats, uploads (sign/register), files, blobs and the project cover, the files
// module (CONTRACT §6 "files", "work zones" bulk-files; §7). BETA.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Files } from '../core/files.ts';
import { CATEGORY_INFO, FORMATS } from '../core/formats.ts';
import { parseCategories } from '../core/upload-items.ts';
import { principalOf } from '../../../http/auth.ts';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { filePresenters } from './presenters.ts';
import * as S from '../../../http/api2/schemas.ts';
import * as F from './schemas.ts';

export function fileRoutes(root: FastifyInstance, core: KitCore & { files: Files }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, actor, errors, beta, refs } = api2Kit(core);
  const present = filePresenters(core);

  const A = '/accounts/:accountRef/projects/:projectRef';
  const PP = S.withParams('projectRef');

  const formats = FORMATS.map((f) => ({
    id: f.id, name: f.name, description: f.description, extension: f.extension, icon: CATEGORY_INFO[f.category].icon,
    canBeUploaded: f.canBeUploaded, shareUrlType: CATEGORY_INFO[f.category].shareUrlType, categoryName: CATEGORY_INFO[f.category].name,
    categoryDescription: CATEGORY_INFO[f.category].description, categoryType: f.category,
  }));
  app.get('/values/formats', {
    schema: { summary: 'File formats: extension, format id and category', operationId: 'listFormats', tags: ['values'], response: { 200: Type.Array(F.FileFormat), ...errors } },
  }, async () => formats);

  // Uploads: POST signs, PUT registers; a POST whose every item names a blobName registers (spec: POST for both).
  const WP = S.withParams('projectRef', 'workzoneRef');
  const register = async (req: { params: { accountRef: string; projectRef: string; workzoneRef: string }; body: Static<typeof F.UploadItems> } & Parameters<typeof principalOf>[0]) =>
    (await core.files.registerBulkFiles(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), req.body)).map((r) => ({ ...r, id: urn('file', r.id) }));
  app.post(`${A}/workzones/:workzoneRef/bulk-files`, {
    schema: {
      summary: 'Sign uploads for many files (or, when every item carries its blobName, register them)', operationId: 'signUploadURL',
      ...beta('File'), params: WP, body: F.UploadItems, response: { 200: Type.Union([F.SignAnswer, Type.Array(F.Registered)]), ...errors },
    },
  }, async (req) => {
    if (req.body.every((i) => i.blobName)) return register(req);
    return core.files.signBulkFiles(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), req.body);
  });
  app.put(`${A}/workzones/:workzoneRef/bulk-files`, {
    schema: { summary: 'Register uploaded files in a work zone', operationId: 'registerFiles', ...beta('File'), params: WP, body: F.UploadItems, response: { 200: Type.Array(F.Registered), ...errors } },
  }, async (req) => register(req));

  // Files
  app.get(`${A}/files`, {
    schema: {
      summary: 'Files of the project in the work zones the caller may read', operationId: 'getFiles', ...beta('File'), params: PP,
      querystring: Type.Object({ category: Type.Optional(Type.String({ maxLength: 1000 })) }), response: { 200: Type.Array(F.File), ...errors },
    },
  }, async (req) => (await core.files.listFiles(actor(req), ...refs(req), parseCategories(req.query.category))).map(present.file));

  const FP = S.withParams('projectRef', 'fileRef');
  app.get(`${A}/files/:fileRef`, {
    schema: { summary: 'A file', operationId: 'getFile', ...beta('File'), params: FP, response: { 200: F.File, ...errors } },
  }, async (req) => present.file(await core.files.getFile(actor(req), ...refs(req), ref('file', req.params.fileRef))));

  app.patch(`${A}/files/:fileRef`, {
    schema: { summary: 'Rename a file', operationId: 'updateFileName', ...beta('File'), params: FP, body: F.FileUpdate, response: { 200: F.File, ...errors } },
  }, async (req) => present.file(await core.files.renameFile(actor(req), ...refs(req), ref('file', req.params.fileRef), req.body.name)));

  app.delete(`${A}/files/:fileRef`, {
    schema: { summary: 'Delete a file and its stored object', operationId: 'deleteFile', ...beta('File'), params: FP, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.files.deleteFile(actor(req), ...refs(req), ref('file', req.params.fileRef));
    return reply.code(204).send(null);
  });

  app.post(`${A}/files/bulk-transformation`, {
    schema: {
      summary: 'Move, rotate or scale files (all or nothing)', operationId: 'UpdateBulkFilesTransformation', ...beta('File'), params: PP,
      body: F.Transformation, response: { 200: Type.Array(F.File), ...errors },
    },
  }, async (req) =>
    (await core.files.transformFiles(actor(req), ...refs(req), req.body.map((t) => ({
      ref: ref('file', t.id), translation: t.translation, rotation: t.rotation, scale: t.scale,
    })))).map(present.file));

  // Blobs
  app.get(`${A}/blobs/:blobName`, {
    schema: {
      summary: 'Download a blob: 302 to a signed URL valid 3 hours', operationId: 'getBlob', ...beta('Project'),
      params: S.withParams('projectRef', 'blobName'), response: errors,
    },
  }, async (req, reply) => {
    const url = await core.files.blobUrl(actor(req), ...refs(req), req.params.blobName);
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });

  app.post(`${A}/blobs`, {
    schema: { summary: 'Signed download URLs of many blobs', operationId: 'getBlobs', ...beta('Project'), params: PP, body: F.BlobNames, response: { 200: F.BlobUrls, ...errors } },
  }, async (req) => core.files.blobUrls(actor(req), ...refs(req), req.body));

  // Project cover
  app.post(`${A}/cover`, {
    schema: { summary: 'Sign the upload of a project cover', operationId: 'signProjectCoverURL', ...beta('Project'), params: PP, body: F.CoverItem, response: { 200: F.CoverSignAnswer, ...errors } },
  }, async (req) => core.files.signProjectCover(actor(req), ...refs(req), req.body));

  app.put(`${A}/cover`, {
    schema: { summary: 'Register the uploaded project cover', operationId: 'updateProjectCover', ...beta('Project'), params: PP, body: F.CoverItem, response: { 200: F.Registered, ...errors } },
  }, async (req) => {
    const r = await core.files.registerProjectCover(actor(req), ...refs(req), req.body);
    return { ...r, id: urn('file', r.id) };
  });
}
