// API 2: file formats, uploads (sign/register), files, blobs, project cover and crops
// (CONTRACT §6 "files", "crops", "work zones" bulk-files; §7). BETA.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Core } from '../../compose.ts';
import { formatUrn } from '../../core/ids/urn.ts';
import { CATEGORY_INFO, type FileView, FORMATS, parseCategories } from '../../core/files/index.ts';
import type { CropInput, CropView } from '../../core/crops/index.ts';
import { principalOf } from '../auth.ts';
import { api2Kit } from './route-kit.ts';
import * as S from './schemas.ts';
import * as F from './file-schemas.ts';

export function fileRoutes(root: FastifyInstance, core: Core): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ns, ref, urn, actor, errors, beta, blobUrl } = api2Kit(core);
  const userUrn = (id: string | null) => (id ? urn('user', id) : '');

  /** The vendor's per-category File shapes, as far as our data goes (docs/files.md). */
  const file = (v: FileView) => {
    const f = v.file;
    const url = blobUrl(v.accountId, f.projectId, f.blobName);
    const base = {
      id: urn('file', f.id), urn: urn('file', f.id), api1Id: f.id, type: f.category as Static<typeof F.File>['type'],
      projectId: urn('project', f.projectId), workzoneId: urn('workzone', f.workzoneId), name: f.name, extension: f.extension,
      formatId: formatUrn(ns, 'format', String(f.formatId)), size: f.size, md5: f.md5, createdAt: f.createdAt.toISOString(),
      createdBy: userUrn(f.createdBy), updatedAt: f.updatedAt?.toISOString() ?? null, updatedBy: f.updatedBy ? urn('user', f.updatedBy) : null,
      blob: f.blobName, blobName: f.blobName, url,
    };
    const placed = { importedAt: f.importedAt?.toISOString() ?? null, translation: f.translation, rotation: f.rotation };
    const image = { resolution: { w: 0, h: 0 }, urlPreview: url, panoramaWidth: 0, panoramaHeight: 0 };
    switch (f.category) {
      case 'scan':
        return { ...base, ...placed, scale: f.scale, ...image };
      case 'geoImage':
        return { ...base, ...placed, translation: f.translation ?? { x: 0, y: 0, z: 0 }, ...image };
      case 'model':
        return { ...base, ...placed, scale: f.scale, contentId: f.id };
      case 'gaussian':
      case 'video3d':
        return { ...base, ...placed, translation: f.translation ?? { x: 0, y: 0, z: 0 }, scale: f.scale };
      default:
        return base;
    }
  };
  const crop = (v: CropView) => {
    const c = v.crop;
    return {
      id: urn('crop', c.id), urn: urn('crop', c.id), api1Id: c.api1Id, type: 'crop' as const, workzoneId: urn('workzone', c.workzoneId),
      name: c.name, crop: c.crop, actualCrop: c.actualCrop, rotation: c.rotation, layers: c.layers, cameraType: c.cameraType,
      cameraState: c.cameraState, scan: c.scan, thumbnailBlobName: c.thumbnailBlobName,
      thumbnailUrl: c.thumbnailBlobName ? blobUrl(v.accountId, c.projectId, c.thumbnailBlobName) : null,
      oview: c.oview, settings: c.settings, createdBy: userUrn(c.createdBy), createdAt: c.createdAt.toISOString(),
      updatedBy: userUrn(c.updatedBy ?? c.createdBy), updatedAt: c.updatedAt.toISOString(),
    };
  };

  const A = '/accounts/:accountRef/projects/:projectRef';
  const PP = S.withParams('projectRef');
  const refs = (req: { params: { accountRef: string; projectRef: string } }) =>
    [ref('account', req.params.accountRef), ref('project', req.params.projectRef)] as const;

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
  }, async (req) => (await core.files.listFiles(actor(req), ...refs(req), parseCategories(req.query.category))).map(file));

  const FP = S.withParams('projectRef', 'fileRef');
  app.get(`${A}/files/:fileRef`, {
    schema: { summary: 'A file', operationId: 'getFile', ...beta('File'), params: FP, response: { 200: F.File, ...errors } },
  }, async (req) => file(await core.files.getFile(actor(req), ...refs(req), ref('file', req.params.fileRef))));

  app.patch(`${A}/files/:fileRef`, {
    schema: { summary: 'Rename a file', operationId: 'updateFileName', ...beta('File'), params: FP, body: F.FileUpdate, response: { 200: F.File, ...errors } },
  }, async (req) => file(await core.files.renameFile(actor(req), ...refs(req), ref('file', req.params.fileRef), req.body.name)));

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
    })))).map(file));

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

  // Crops
  const CP = S.withParams('projectRef', 'cropRef');
  const cropInput = (b: Static<typeof F.CropWrite>): CropInput => ({
    workzoneRef: ref('workzone', b.workzoneId), name: b.name, crop: b.crop, actualCrop: b.actualCrop, rotation: b.rotation,
    layers: b.layers ?? null, cameraType: b.cameraType, cameraState: b.cameraState, scan: b.scan,
    thumbnailBlobName: b.thumbnailBlobName ?? null, oview: b.oview ?? null, settings: b.settings ?? null,
  });
  app.get(`${A}/crops`, {
    schema: {
      summary: 'Crops of the work zones the caller may read', operationId: 'getCrops', ...beta('Crop'), params: PP,
      querystring: Type.Object({ workzones: Type.Optional(Type.String({ maxLength: 20_000 })) }), response: { 200: Type.Array(F.Crop), ...errors },
    },
  }, async (req) => {
    const w = req.query.workzones;
    const zoneRefs = w === undefined ? undefined : w.trim() === '' ? [] : w.split(',').map((z) => ref('workzone', z.trim()));
    return (await core.crops.listCrops(actor(req), ...refs(req), zoneRefs)).map(crop);
  });

  app.post(`${A}/crops`, {
    schema: { summary: 'Create a crop', operationId: 'createCrop', ...beta('Crop'), params: PP, body: F.CropWrite, response: { 201: F.Crop, ...errors } },
  }, async (req, reply) => reply.code(201).send(crop(await core.crops.createCrop(actor(req), ...refs(req), cropInput(req.body)))));

  app.get(`${A}/crops/:cropRef`, {
    schema: { summary: 'A crop', operationId: 'getCrop', ...beta('Crop'), params: CP, response: { 200: F.Crop, ...errors } },
  }, async (req) => crop(await core.crops.getCrop(actor(req), ...refs(req), ref('crop', req.params.cropRef))));

  app.put(`${A}/crops/:cropRef`, {
    schema: { summary: 'Overwrite a crop (a new workzoneId moves it)', operationId: 'putCrop', ...beta('Crop'), params: CP, body: F.CropWrite, response: { 200: F.Crop, ...errors } },
  }, async (req) => crop(await core.crops.updateCrop(actor(req), ...refs(req), ref('crop', req.params.cropRef), cropInput(req.body))));

  app.delete(`${A}/crops/:cropRef`, {
    schema: { summary: 'Delete a crop', operationId: 'deleteCrop', ...beta('Crop'), params: CP, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.crops.deleteCrop(actor(req), ...refs(req), ref('crop', req.params.cropRef));
    return reply.code(204).send(null);
  });

  app.post(`${A}/crops/:cropRef/cover`, {
    schema: { summary: 'Sign the upload of a crop cover', operationId: 'signCropCoverURL', ...beta('Crop'), params: CP, body: F.CoverItem, response: { 200: F.CoverSignAnswer, ...errors } },
  }, async (req) => core.crops.signCropCover(actor(req), ...refs(req), ref('crop', req.params.cropRef), req.body));
}
