// API 2: crops of a project's work zones, the crops module (CONTRACT §6 "crops"). BETA.
// Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { CropInput, Crops } from '../index.ts';
import { api2BlobUrl, api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { FileSchemas as F } from '../../files/http/index.ts';
import * as C from './schemas.ts';
import { cropPresenter } from './presenters.ts';

export function cropRoutes(root: FastifyInstance, core: { crops: Crops; config: { urnNamespace: string; publicUrl: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, actor, errors, beta, refs } = api2Naming(core.config.urnNamespace);
  const present = { crop: cropPresenter(urn, (accountId, projectId, blobName) => api2BlobUrl(core.config.publicUrl, accountId, projectId, blobName)) };

  const A = '/accounts/:accountRef/projects/:projectRef';
  const PP = S.withParams('projectRef');

  // Crops
  const CP = S.withParams('projectRef', 'cropRef');
  const cropInput = (b: Static<typeof C.CropWrite>): CropInput => ({
    workzoneRef: ref('workzone', b.workzoneId), name: b.name, crop: b.crop, actualCrop: b.actualCrop, rotation: b.rotation,
    layers: b.layers ?? null, cameraType: b.cameraType, cameraState: b.cameraState, scan: b.scan,
    thumbnailBlobName: b.thumbnailBlobName ?? null, oview: b.oview ?? null, settings: b.settings ?? null,
  });
  app.get(`${A}/crops`, {
    schema: {
      summary: 'Crops of the work zones the caller may read', operationId: 'getCrops', ...beta('Crop'), params: PP,
      querystring: Type.Object({ workzones: Type.Optional(Type.String({ maxLength: 20_000 })) }), response: { 200: Type.Array(C.Crop), ...errors },
    },
  }, async (req) => {
    const w = req.query.workzones;
    const zoneRefs = w === undefined ? undefined : w.trim() === '' ? [] : w.split(',').map((z) => ref('workzone', z.trim()));
    return (await core.crops.listCrops(actor(req), ...refs(req), zoneRefs)).map(present.crop);
  });

  app.post(`${A}/crops`, {
    schema: { summary: 'Create a crop', operationId: 'createCrop', ...beta('Crop'), params: PP, body: C.CropWrite, response: { 201: C.Crop, ...errors } },
  }, async (req, reply) => reply.code(201).send(present.crop(await core.crops.createCrop(actor(req), ...refs(req), cropInput(req.body)))));

  app.get(`${A}/crops/:cropRef`, {
    schema: { summary: 'A crop', operationId: 'getCrop', ...beta('Crop'), params: CP, response: { 200: C.Crop, ...errors } },
  }, async (req) => present.crop(await core.crops.getCrop(actor(req), ...refs(req), ref('crop', req.params.cropRef))));

  app.put(`${A}/crops/:cropRef`, {
    schema: { summary: 'Overwrite a crop (a new workzoneId moves it)', operationId: 'putCrop', ...beta('Crop'), params: CP, body: C.CropWrite, response: { 200: C.Crop, ...errors } },
  }, async (req) => present.crop(await core.crops.updateCrop(actor(req), ...refs(req), ref('crop', req.params.cropRef), cropInput(req.body))));

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
