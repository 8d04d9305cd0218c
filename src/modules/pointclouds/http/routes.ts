// API 2 routes of the pointclouds module (docs/point-clouds.md "API"), our extension on a
// file: its conversion's progress, and its COPC output by byte range (RFC 9110 §14: one
// range, 206 with Content-Range, 416 outside the object, If-Range), with the caller's token
// and the file's read permission. Bytes that came from an upload are served as data only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatUrn } from '../../../core/ids/urn.ts';
import * as S from '../../../http/api2/schemas.ts';
import { BLOB_SECURITY_HEADERS, parseRange } from '../../files/http/index.ts';
import { renderFailure } from '../../../http/errors.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import { COPC_CONTENT_TYPE } from '../core/conversion-job.ts';
import type { CopcObject, PointClouds } from '../core/point-clouds.ts';
import { presentPointCloud } from './presenters.ts';
import { PointCloudStatus } from './schemas.ts';

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** What the routes use of the node. */
export interface PointCloudRouteUse {
  pointClouds: PointClouds;
  config: { urnNamespace: string; publicUrl: string };
}

/** An attachment named after the file (RFC 6266: an ASCII fallback and the UTF-8 name). */
const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

async function serveRange(use: PointCloudRouteUse, req: FastifyRequest, reply: FastifyReply, object: CopcObject) {
  reply.headers(BLOB_SECURITY_HEADERS);
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', object.etag);
  // Per user agent only (the answer depends on the caller's token); converted output never changes.
  reply.header('cache-control', 'private, max-age=300');
  reply.header('content-type', COPC_CONTENT_TYPE);
  reply.header('content-disposition', attachment(object.fileName));
  const ifNoneMatch = header(req, 'if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((v) => v.trim() === object.etag || v.trim() === '*')) return reply.code(304).send();
  const ifRange = header(req, 'if-range');
  const range = ifRange && ifRange !== object.etag ? null : parseRange(header(req, 'range'), object.size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${object.size}`);
    return renderFailure('api2', { status: 416, code: 'range-not-satisfiable', message: `The range is outside the COPC output (${object.size} bytes)` }, reply);
  }
  const start = range ? range.start : 0;
  const end = range ? range.end : object.size - 1;
  const length = object.size === 0 ? 0 : end - start + 1;
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${start}-${end}/${object.size}`);
  }
  reply.header('content-length', String(length));
  if (req.method === 'HEAD' || length === 0) return reply.send();
  return reply.send(await use.pointClouds.read(object, start, end));
}

export function pointCloudRoutes(root: FastifyInstance, use: PointCloudRouteUse): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, refs, actor, errors, beta } = api2Naming(use.config.urnNamespace);
  const base = '/accounts/:accountRef/projects/:projectRef/files/:fileRef/point-cloud';
  const fileParams = S.withParams('projectRef', 'fileRef');
  const copcUrl = (req: { params: { accountRef: string; projectRef: string; fileRef: string } }) =>
    `${use.config.publicUrl}/api/2/accounts/${encodeURIComponent(req.params.accountRef)}/projects/${encodeURIComponent(req.params.projectRef)}` +
    `/files/${encodeURIComponent(req.params.fileRef)}/point-cloud/copc`;

  app.get(base, {
    schema: {
      summary: 'A point-cloud file\'s conversion to COPC: state, points read, percent, ETA, failure reason (our extension)',
      operationId: 'getFilePointCloud', ...beta('File'), params: fileParams, response: { 200: PointCloudStatus, ...errors },
    },
  }, async (req, reply) => {
    const view = await use.pointClouds.status(actor(req), ...refs(req), ref('file', req.params.fileRef));
    reply.header('cache-control', 'no-store');
    return presentPointCloud(view, formatUrn(use.config.urnNamespace, 'file', view.file.id), copcUrl(req));
  });

  app.get(`${base}/copc`, {
    schema: {
      summary: 'The COPC output of a point-cloud file, by byte range (206, Content-Range; 416 outside it) (our extension)',
      operationId: 'getFilePointCloudCopc', ...beta('File'), params: fileParams, response: errors,
    },
  }, async (req, reply) => serveRange(use, req, reply, await use.pointClouds.copc(actor(req), ...refs(req), ref('file', req.params.fileRef))));
}
