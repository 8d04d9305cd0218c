// The share links' own surface (docs/share-links.md "Opening a link"), outside the APIs: the
// link's public facts, opening a session, and the session's read-only reads of the shared
// zones. Errors are problem+json, like every surface of ours outside /api. The session's
// bearer secret is sent as `Authorization: Bearer <token>`; it is no access token, so no other
// route takes it. No route here reads the bearer as an access token but the opening of a link
// that asks for membership.
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { bearerToken } from '../../../http/auth.ts';
import { BLOB_SECURITY_HEADERS } from '../../files/http/index.ts';
import type { PointClouds } from '../../pointclouds/index.ts';
import type { TokenService } from '../../oauth/index.ts';
import type { RateLimiter } from '../../limits/index.ts';
import type { SharedViews } from '../core/shared-view.ts';
import { SHARE_LINK_LIMITS as L } from '../core/rules.ts';
import { BoxLimit, ShareLinkOptions } from './schemas.ts';

const Problem = Type.Object({ status: Type.Integer(), title: Type.String() }, { additionalProperties: true });
const errors = { '4xx': Problem };
const LinkParams = Type.Object({ linkId: Type.String({ minLength: 1, maxLength: 64 }) });
const FileParams = Type.Object({ linkId: Type.String({ minLength: 1, maxLength: 64 }), fileId: Type.String({ minLength: 1, maxLength: 64 }) });
const Point = Type.Object({ x: Type.Number(), y: Type.Number(), z: Type.Number() });
const tags = ['share-links'];

const Facts = Type.Object({
  id: Type.String(), name: Type.String(), passwordProtected: Type.Boolean(), membershipRequired: Type.Boolean(),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]), shareOptions: ShareLinkOptions,
});
const Session = Type.Object({ token: Type.String(), tokenType: Type.Literal('Bearer'), expiresAt: Type.String({ format: 'date-time' }) });
const Scope = Type.Object({
  id: Type.String(), name: Type.String(), workzoneId: Type.String(), shareOptions: ShareLinkOptions,
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  workzones: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  savedView: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  boxLimit: Type.Union([BoxLimit, Type.Null()]),
});
const SharedFile = Type.Object({
  id: Type.String(), workzoneId: Type.String(), name: Type.String(), category: Type.String(), extension: Type.String(), size: Type.Integer(), createdAt: Type.String(),
});
const SharedTagList = Type.Object({
  id: Type.String(), workzoneId: Type.String(), name: Type.String(), color: Type.String(),
  tags: Type.Array(Type.Object({ id: Type.String(), data: Type.Unknown() })),
});
const SharedAnnotation = Type.Object({
  id: Type.String(), workzoneId: Type.String(), number: Type.Integer(), annotationType: Type.String(), title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]), position: Point,
});
const SharedMeasurement = Type.Object({ id: Type.String(), workzoneId: Type.String(), name: Type.String(), kind: Type.String(), points: Type.Array(Point) });
const NodeParams = Type.Object({ linkId: Type.String({ minLength: 1, maxLength: 64 }), fileId: Type.String({ minLength: 1, maxLength: 64 }), nodeKey: Type.String({ minLength: 7, maxLength: 60 }) });
const Triple = Type.Array(Type.Number(), { minItems: 3, maxItems: 3 });
const SharedPointCloud = Type.Object({
  fileId: Type.String(),
  pointFormat: Type.Integer(), scale: Triple, offset: Triple,
  cube: Type.Object({ min: Triple, size: Type.Number() }), spacing: Type.Number(),
  boxLimit: Type.Union([BoxLimit, Type.Null()]),
  nodes: Type.Array(Type.Object({ key: Type.String(), pointCount: Type.Integer(), verdict: Type.Union([Type.Literal('inside'), Type.Literal('boundary')]) })),
});
const SharedCrop = Type.Object({ id: Type.String(), workzoneId: Type.String(), name: Type.String(), crop: Type.String() });

/** Tag data is JSON text as stored; a tag whose text does not parse is given as the text. */
function tagData(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const shareSurfaceRoutes =
  (use: { sharedViews: SharedViews; tokens: TokenService; rateLimiter: RateLimiter; pointClouds: PointClouds }): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const views = use.sharedViews;
    const token = (req: FastifyRequest) => bearerToken(req);
    // The API's per-address rate limit (docs/security.md "Rate limits") on every request here:
    // password guesses on POST …/sessions are charged like any other call.
    if (use.rateLimiter.enabled.address) {
      app.addHook('onRequest', (req, _reply, done) => {
        try {
          use.rateLimiter.address(req.ip);
          done();
        } catch (e) {
          done(e as Error);
        }
      });
    }

    // The address a link's `link` names: the console's read-only view of it (console/src/screens/shared.tsx).
    app.get('/share/:linkId', { schema: { hide: true, params: LinkParams } }, async (req, reply) =>
      reply.redirect(`/console/share/${encodeURIComponent(req.params.linkId)}`, 302));

    app.get('/share/:linkId/info', {
      schema: { summary: 'A share link\'s public facts (no authentication)', operationId: 'getSharedLinkFacts', tags, params: LinkParams, response: { 200: Facts, ...errors } },
    }, async (req) => {
      const f = await views.facts(req.params.linkId);
      return { ...f, expiresAt: f.expiresAt?.toISOString() ?? null };
    });

    app.post('/share/:linkId/sessions', {
      schema: {
        summary: 'Opens a read-only session of a share link', operationId: 'openSharedLink', tags, params: LinkParams,
        body: Type.Union([Type.Object({ password: Type.Optional(Type.String({ maxLength: L.passwordMaxChars })) }, { additionalProperties: false }), Type.Null()]),
        response: { 201: Session, ...errors },
      },
    }, async (req, reply) => {
      // A link with membershipRequired is opened by a signed-in user: his access token, if any, says who.
      const bearer = token(req);
      const principal = bearer ? await use.tokens.authenticate(bearer) : null;
      const s = await views.open(req.params.linkId, { password: req.body?.password ?? null, userId: principal?.userId ?? null });
      return reply.code(201).send({ token: s.token, tokenType: 'Bearer' as const, expiresAt: s.expiresAt.toISOString() });
    });

    app.get('/share/:linkId/scope', {
      schema: { summary: 'The session\'s link and the zones it shows', operationId: 'getSharedScope', tags, params: LinkParams, response: { 200: Scope, ...errors } },
    }, async (req) => {
      const { link, zones } = await views.scope(token(req), req.params.linkId);
      return {
        id: link.id, name: link.name, workzoneId: link.workzoneId, shareOptions: link.shareOptions,
        expiresAt: link.expiresAt?.toISOString() ?? null, workzones: zones, savedView: link.savedView, boxLimit: link.boxLimit,
      };
    });

    app.get('/share/:linkId/files', {
      schema: { summary: 'The shared zones\' files', operationId: 'getSharedFiles', tags, params: LinkParams, response: { 200: Type.Array(SharedFile), ...errors } },
    }, async (req) => (await views.files(token(req), req.params.linkId)).map(({ file: f }) => ({
      id: f.id, workzoneId: f.workzoneId, name: f.name, category: f.category, extension: f.extension, size: f.size, createdAt: f.createdAt.toISOString(),
    })));

    app.get('/share/:linkId/files/:fileId/content', {
      schema: { summary: 'A shared file: 302 to a download URL valid one minute', operationId: 'getSharedFileContent', tags, params: FileParams, response: { 302: Type.Null(), ...errors } },
    }, async (req, reply) => reply.redirect(await views.fileUrl(token(req), req.params.linkId, req.params.fileId), 302));

    // A shared file's converted point cloud, limited to the link's box (docs/point-clouds.md
    // "The box limit"): its layout without the nodes wholly outside, then node by node.
    app.get('/share/:linkId/files/:fileId/point-cloud', {
      schema: {
        summary: 'A shared file\'s COPC layout: header facts and the nodes the session may read (our extension)', operationId: 'getSharedPointCloud', tags, params: FileParams,
        response: { 200: SharedPointCloud, ...errors },
      },
    }, async (req, reply) => {
      const { file, boxLimit } = await views.pointCloudFile(token(req), req.params.linkId, req.params.fileId);
      const { layout, nodes } = await use.pointClouds.sharedLayout(file, boxLimit);
      reply.header('cache-control', 'private, no-store');
      return {
        fileId: file.id, pointFormat: layout.pointFormat, scale: layout.scale, offset: layout.offset, cube: layout.cube, spacing: layout.spacing, boxLimit, nodes,
      };
    });

    app.get('/share/:linkId/files/:fileId/point-cloud/nodes/:nodeKey', {
      schema: {
        summary: 'One node of a shared point cloud: its LAZ chunk (X-Point-Count points); boundary nodes filtered to the box, nodes outside it refused (our extension)',
        operationId: 'getSharedPointCloudNode', tags, params: NodeParams, response: errors,
      },
    }, async (req, reply) => {
      const { file, boxLimit } = await views.pointCloudFile(token(req), req.params.linkId, req.params.fileId);
      const node = await use.pointClouds.sharedNode(file, req.params.nodeKey, boxLimit);
      reply.headers(BLOB_SECURITY_HEADERS);
      reply.header('content-type', 'application/octet-stream');
      reply.header('cache-control', 'private, no-store');
      reply.header('x-point-count', String(node.pointCount));
      reply.header('x-node-verdict', node.verdict);
      reply.header('content-length', String(node.length));
      // Bytes, not a typed answer: the route's schema lists its errors only.
      const raw: FastifyReply = reply;
      return raw.send(node.body instanceof Uint8Array ? Buffer.from(node.body.buffer, node.body.byteOffset, node.body.byteLength) : node.body);
    });

    app.get('/share/:linkId/tag-lists', {
      schema: { summary: 'The shared zones\' tag lists with their tags (option `tags`)', operationId: 'getSharedTagLists', tags, params: LinkParams, response: { 200: Type.Array(SharedTagList), ...errors } },
    }, async (req) => (await views.tagLists(token(req), req.params.linkId)).map(({ list, tags: rows }) => ({
      id: list.id, workzoneId: list.workzoneId, name: list.name, color: list.color, tags: rows.map((t) => ({ id: t.id, data: tagData(t.data) })),
    })));

    app.get('/share/:linkId/annotations', {
      schema: { summary: 'The shared zones\' annotations (options `notes`, `issues`)', operationId: 'getSharedAnnotations', tags, params: LinkParams, response: { 200: Type.Array(SharedAnnotation), ...errors } },
    }, async (req) => (await views.annotations(token(req), req.params.linkId)).map((a) => ({
      id: a.id, workzoneId: a.workzoneId, number: a.number, annotationType: a.annotationType, title: a.title, description: a.description, position: a.position,
    })));

    app.get('/share/:linkId/measurements', {
      schema: { summary: 'The shared zones\' measurements (option `measurements`)', operationId: 'getSharedMeasurements', tags, params: LinkParams, response: { 200: Type.Array(SharedMeasurement), ...errors } },
    }, async (req) => (await views.measurements(token(req), req.params.linkId)).map((m) => ({ id: m.id, workzoneId: m.workzoneId, name: m.name, kind: m.kind, points: m.points })));

    app.get('/share/:linkId/crops', {
      schema: { summary: 'The shared zones\' crops (option `crops`)', operationId: 'getSharedCrops', tags, params: LinkParams, response: { 200: Type.Array(SharedCrop), ...errors } },
    }, async (req) => (await views.crops(token(req), req.params.linkId)).map((c) => ({ id: c.id, workzoneId: c.workzoneId, name: c.name, crop: c.crop })));
  };
