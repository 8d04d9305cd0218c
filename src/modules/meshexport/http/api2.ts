// API 2: export to mesh (vendor BETA postExportToMesh). Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { FileSchemas, filePresenters } from '../../files/http/index.ts';
import type { KitCore } from '../../../http/api2/route-kit.ts';
import { Nullable } from '../../../http/schema-helpers.ts';
import type { MeshExports } from '../index.ts';

/** Vendor exportToMeshCreate (exportSceneCreate with the mesh's fields); bounds of ours on the arrays. */
export const ExportToMeshCreate = Type.Object({
  items: Type.Optional(Nullable(Type.Array(Type.Object({
    cropRegions: Type.Array(Type.Array(Type.Array(Type.Number(), { minItems: 4, maxItems: 4 }), { maxItems: 100 }), { maxItems: 100 }),
  }), { maxItems: 100 }))),
  scans: Type.Array(S.RefString, { minItems: 1, maxItems: 1000 }),
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^<>:;,?"*|\\\\/]*$' }),
  outputFormat: Type.Union([Type.Literal('obj'), Type.Literal('fbx'), Type.Literal('stl'), Type.Literal('usd')]),
  resolution: Type.Number({ minimum: 0.02, maximum: 0.2 }),
  workzoneId: S.RefString,
});

export function meshExportRoutes(root: FastifyInstance, use: KitCore & { meshExports: MeshExports }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, refs, errors, beta, ns } = api2Naming(use.config.urnNamespace);
  const present = filePresenters(use);
  app.post('/accounts/:accountRef/projects/:projectRef/jobs/export-to-mesh', {
    schema: {
      summary: 'Start an export to mesh', operationId: 'postExportToMesh', ...beta('Export Scene'), params: S.withParams('projectRef'), body: ExportToMeshCreate,
      response: { 201: Type.Object({ jobId: Type.String(), file: FileSchemas.File }), ...errors },
    },
  }, async (req, reply) => {
    const b = req.body;
    const started = await use.meshExports.postExportToMesh(actorOf(req), ...refs(req), {
      workzoneRef: ref('workzone', b.workzoneId), scanRefs: b.scans.map((s) => ref('file', s)), name: b.name, outputFormat: b.outputFormat,
      resolution: b.resolution, regions: (b.items ?? []).flatMap((i) => i.cropRegions) as [number, number, number, number][][],
    });
    return reply.code(201).send({ jobId: `urn:${ns}:workflowjob:${started.jobId}`, file: present.file({ accountId: started.accountId, file: started.file }) });
  });
}
