// API 2: share links of a project's work zones, the share-links module (vendor BETA
// getShareLinks, createShareLink, getShareLink, updateShareLink, deleteShareLink).
// Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { ShareLinkInput, ShareLinks } from '../index.ts';
import { shareLinkPresenter } from './presenters.ts';
import * as ShareLinkSchemas from './schemas.ts';

export function shareLinkRoutes(root: FastifyInstance, use: { shareLinks: ShareLinks; config: { urnNamespace: string; publicUrl: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, refs, urn, errors, beta } = api2Naming(use.config.urnNamespace);
  const present = shareLinkPresenter(urn, use.config.publicUrl);
  const base = '/accounts/:accountRef/projects/:projectRef/share-links';
  const projectParams = S.withParams('projectRef');
  const linkParams = S.withParams('projectRef', 'shareLinkRef');

  const input = (b: Static<typeof ShareLinkSchemas.ShareLinkUpdate> & { workzoneId?: string }): ShareLinkInput => ({
    name: b.name,
    workzoneRef: b.workzoneId === undefined ? undefined : ref('workzone', b.workzoneId),
    sharedWorkzoneRefs: (b.sharedWorkzonesIds ?? []).map((w) => ref('workzone', w)),
    password: b.password,
    expiresAt: b.expiresAt ? new Date(b.expiresAt) : null,
    logoBlob: b.logoBlob ?? null,
    membershipRequired: b.membershipRequired,
    shareOptions: b.shareOptions,
    savedView: b.savedView ?? null,
    boxLimit: b.boxLimit ? { min: b.boxLimit.min as [number, number, number], max: b.boxLimit.max as [number, number, number] } : null,
  });
  const linkRef = (req: { params: { shareLinkRef: string } }) => ref('sharelink', req.params.shareLinkRef);

  app.get(base, {
    schema: { summary: 'List share links', operationId: 'getShareLinks', ...beta('Share Link'), params: projectParams, response: { 200: Type.Array(ShareLinkSchemas.ShareLink), ...errors } },
  }, async (req) => (await use.shareLinks.listShareLinks(actorOf(req), ...refs(req))).map(present));

  app.post(base, {
    schema: { summary: 'Create a share link', operationId: 'createShareLink', ...beta('Share Link'), params: projectParams, body: ShareLinkSchemas.ShareLinkCreate, response: { 201: ShareLinkSchemas.ShareLink, ...errors } },
  }, async (req, reply) => reply.code(201).send(present(await use.shareLinks.createShareLink(actorOf(req), ...refs(req), input(req.body)))));

  app.get(`${base}/:shareLinkRef`, {
    schema: { summary: 'Get a share link', operationId: 'getShareLink', ...beta('Share Link'), params: linkParams, response: { 200: ShareLinkSchemas.ShareLink, ...errors } },
  }, async (req) => present(await use.shareLinks.getShareLink(actorOf(req), ...refs(req), linkRef(req))));

  app.put(`${base}/:shareLinkRef`, {
    schema: { summary: 'Update a share link (every field)', operationId: 'updateShareLink', ...beta('Share Link'), params: linkParams, body: ShareLinkSchemas.ShareLinkUpdate, response: { 200: ShareLinkSchemas.ShareLink, ...errors } },
  }, async (req) => present(await use.shareLinks.updateShareLink(actorOf(req), ...refs(req), linkRef(req), input(req.body))));

  app.delete(`${base}/:shareLinkRef`, {
    schema: { summary: 'Delete a share link', operationId: 'deleteShareLink', ...beta('Share Link'), params: linkParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await use.shareLinks.deleteShareLink(actorOf(req), ...refs(req), linkRef(req));
    return reply.code(204).send(null);
  });
}
