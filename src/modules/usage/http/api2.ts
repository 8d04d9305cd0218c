// API 2: the usage report of a subscription (vendor BETA getUsageReport). Parse, call one use
// case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { UsageReports, UsageRow } from '../index.ts';

const Day = Type.String({ format: 'date' });

export const UsageReport = Type.Object({
  date: Day,
  userId: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  company: Type.String(),
  projectId: Type.String(),
  projectName: Type.String(),
  scansUploaded: Type.Integer(),
  scansDownload: Type.Integer(),
  '360ImagesUploaded': Type.Integer(),
  cropsDownloaded: Type.Integer(),
  unifiedMeshesCreated: Type.Integer(),
  tagsUploaded: Type.Integer(),
  tagsDownloaded: Type.Integer(),
});

const Query = Type.Object({
  from: Type.Optional(Day),
  until: Type.Optional(Day),
  includeDeleted: Type.Optional(Type.Boolean()),
});

export function usageRoutes(root: FastifyInstance, use: { usageReports: UsageReports; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, errors, beta } = api2Naming(use.config.urnNamespace);
  const present = (r: UsageRow) => ({
    date: r.date, userId: urn('user', r.userId), firstName: r.firstName, lastName: r.lastName, email: r.email, company: r.company,
    projectId: urn('project', r.projectId), projectName: r.projectName,
    scansUploaded: r.scansUploaded, scansDownload: r.scansDownloaded, '360ImagesUploaded': r.images360Uploaded, cropsDownloaded: r.cropsDownloaded,
    unifiedMeshesCreated: r.meshesCreated, tagsUploaded: r.tagsUploaded, tagsDownloaded: r.tagsDownloaded,
  });

  app.get('/accounts/:accountRef/subscriptions/:subscriptionRef/usage-report', {
    schema: {
      summary: 'Generate a usage report', operationId: 'getUsageReport', ...beta('Usage Report'),
      params: S.withParams('subscriptionRef'), querystring: Query, response: { 200: Type.Array(UsageReport), ...errors },
    },
  }, async (req) => (await use.usageReports.getUsageReport(
    actorOf(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef), req.query,
  )).map(present));
}
