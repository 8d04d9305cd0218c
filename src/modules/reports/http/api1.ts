// API 1: the reports (projects last accessed, users last activity).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Nullable } from '../../../http/schema-helpers.ts';
import { uuidOfApi1Id } from '../../../core/ids/api1-id.ts';
import { isUuid } from '../../../core/ids/urn.ts';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import * as S from '../../../http/api1/schemas.ts';
import type { Reports } from '../core/reports.ts';
import { reportPresenters as present } from './presenters.ts';

const ProjectRow = Type.Object({
  accountId: Type.String(), planId: Type.String(), projectId: Type.String(), projectName: Type.String(), lastAccessedDate: Nullable(Type.String({ format: 'date' })),
});
const UserRow = Type.Object({
  userId: Type.String(), userFirstname: Type.String(), userLastname: Type.String(), userEmail: Type.String(),
  userCompanyName: Type.String(), lastActivityDate: Nullable(Type.String({ format: 'date' })),
});

/** An API 1 id or UUID filter as a UUID; null when it cannot name anything. */
const filterId = (v: string | undefined): string | undefined | null => {
  if (v === undefined || v === '') return undefined;
  if (isUuid(v)) return v.toLowerCase();
  return uuidOfApi1Id(v);
};

export function reportRoutes(root: FastifyInstance, use: { reports: Reports }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };

  app.get('/accounts/:accountId/reports/projects-last-accessed', {
    schema: {
      summary: 'Report: projects last accessed date', operationId: 'reportProjectsLastAccessed', tags: ['reports'], params: S.AccountParams,
      querystring: Type.Object({ subscriptionId: Type.Optional(Type.String({ maxLength: 200 })), projectId: Type.Optional(Type.String({ maxLength: 200 })) }),
      response: { 200: Type.Array(ProjectRow), ...errors },
    },
  }, async (req) => {
    const subscriptionId = filterId(req.query.subscriptionId);
    const projectId = filterId(req.query.projectId);
    const rows = await use.reports.projectsLastAccessed(actor(req), ref('account', req.params.accountId), {
      subscriptionId: subscriptionId ?? undefined, projectId: projectId ?? undefined,
    });
    if (subscriptionId === null || projectId === null) return []; // a filter naming nothing matches nothing
    return rows.map(present.projectLastAccess);
  });

  app.get('/accounts/:accountId/reports/users-last-activity', {
    schema: {
      summary: 'Report: users last activity date', operationId: 'reportUsersLastActivity', tags: ['reports'], params: S.AccountParams,
      response: { 200: Type.Array(UserRow), ...errors },
    },
  }, async (req) =>
    (await use.reports.usersLastActivity(actor(req), ref('account', req.params.accountId))).map(present.userLastActivity));
}
