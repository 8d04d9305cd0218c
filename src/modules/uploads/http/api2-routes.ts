// API 2: the multipart extension (docs/files.md "Multipart uploads"), the uploads module's
// routes. Each route parses, calls one use case, presents. The calls with a body check the
// caller's permission before it is read (beforeBody): the zone's write permission of some
// category for a start, the upload's own for the others.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DomainError } from '../../../core/errors.ts';
import { actorOf as actor } from '../../../http/auth.ts';
import { beforeBody } from '../../../http/reach-first.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import { FileSchemas } from '../../files/http/index.ts';
import type { MultipartUploads, UploadPath, ZonePath } from '../core/multipart-uploads.ts';
import * as UploadSchemas from './api2-schemas.ts';

type ZoneParams = { accountRef: string; projectRef: string; workzoneRef: string };
type UploadParams = ZoneParams & { uploadId: string };

export function uploadRoutes(root: FastifyInstance, use: { multipartUploads: MultipartUploads; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, errors, beta } = api2Naming(use.config.urnNamespace);
  const uploads = use.multipartUploads;

  const zoneOf = (p: ZoneParams): ZonePath => ({ account: ref('account', p.accountRef), project: ref('project', p.projectRef), workzone: ref('workzone', p.workzoneRef) });
  const uploadOf = (p: UploadParams): UploadPath => ({ ...zoneOf(p), id: p.uploadId });
  const mayUse = beforeBody((req: FastifyRequest) => uploads.mayUse(actor(req), uploadOf(req.params as UploadParams)));
  /** The file id of a second completion's 409, as a URN like every id API 2 shows. */
  const withFileUrn = (e: unknown) =>
    e instanceof DomainError && e.code === 'upload-already-completed' && typeof e.values?.fileId === 'string'
      ? new DomainError(e.kind, e.code, e.message, { ...e.values, fileId: urn('file', e.values.fileId) })
      : e;
  const rethrow = (e: unknown): never => {
    throw withFileUrn(e);
  };

  const U = '/accounts/:accountRef/projects/:projectRef/workzones/:workzoneRef/multipart-uploads';

  app.post(U, {
    schema: {
      summary: 'Start a multipart upload: the part size, and the whole size reserved against the storage quota', operationId: 'startMultipartUpload',
      ...beta('File'), params: UploadSchemas.ZoneParams, body: UploadSchemas.Start, response: { 201: UploadSchemas.Upload, ...errors },
    },
    preParsing: beforeBody((req: FastifyRequest) => uploads.mayStart(actor(req), zoneOf(req.params as ZoneParams))),
  }, async (req, reply) => {
    const u = await uploads.start(actor(req), zoneOf(req.params), req.body);
    return reply.code(201).send({ ...u, expiresAt: u.expiresAt.toISOString() });
  });

  app.post(`${U}/:uploadId/part-urls`, {
    schema: {
      summary: 'Signed PUT URLs of some parts, each bound to its number, size and MD5', operationId: 'signMultipartParts',
      ...beta('File'), params: UploadSchemas.UploadParams, body: UploadSchemas.PartsToSign, response: { 200: UploadSchemas.PartUrls, ...errors },
    },
    preParsing: mayUse,
  }, async (req) => uploads.signParts(actor(req), uploadOf(req.params), req.body.parts).catch(rethrow));

  app.get(`${U}/:uploadId/parts`, {
    schema: {
      summary: 'The parts the store holds (resume), in pages', operationId: 'listMultipartParts',
      ...beta('File'), params: UploadSchemas.UploadParams, querystring: UploadSchemas.PartsPage, response: { 200: UploadSchemas.HeldParts, ...errors },
    },
  }, async (req) => uploads.listParts(actor(req), uploadOf(req.params), req.query).catch(rethrow));

  app.post(`${U}/:uploadId/complete`, {
    schema: {
      summary: 'Complete a multipart upload: every part and the whole file verified, then the file registered', operationId: 'completeMultipartUpload',
      ...beta('File'), params: UploadSchemas.UploadParams, body: UploadSchemas.Completion, response: { 201: FileSchemas.Registered, ...errors },
    },
    preParsing: mayUse,
  }, async (req, reply) => {
    const f = await uploads.complete(actor(req), uploadOf(req.params), req.body).catch(rethrow);
    return reply.code(201).send({ ...f, id: urn('file', f.id) });
  });

  app.delete(`${U}/:uploadId`, {
    schema: {
      summary: 'Abort a multipart upload: its parts removed, its reserve released', operationId: 'abortMultipartUpload',
      ...beta('File'), params: UploadSchemas.UploadParams, response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    await uploads.abort(actor(req), uploadOf(req.params)).catch(rethrow);
    return reply.code(204).send(null);
  });
}
