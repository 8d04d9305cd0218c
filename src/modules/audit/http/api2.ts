// API 2: an account's audit log (our extension; docs/audit.md): a page of records, newest
// first, and the export of them all (NDJSON or CSV), streamed batch by batch. Account
// administrators only (the use cases check account:administrators:read).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { invalidInput } from '../../../core/errors.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { AUDIT_LIMITS, type AuditLog } from '../core/audit-log.ts';
import type { AuditFilter } from '../core/ports.ts';
import { auditPresenters, CSV_COLUMNS } from './presenters.ts';
import * as X from './schemas.ts';

/** What the routes use: the URN namespace and the audit log's use cases. */
type Use = { config: { urnNamespace: string }; auditLog: AuditLog };

/** Bytes gathered before a chunk of the export is handed to the connection. */
const EXPORT_CHUNK = 64 * 1024;

export function auditRoutes(root: FastifyInstance, core: Use): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, actor, errors } = api2Naming(core.config.urnNamespace);
  const p = auditPresenters(urn);
  const tag = { tags: ['Audit log'] };
  const account = (params: { accountRef: string }) => ref('account', params.accountRef);

  const filterOf = (q: { user?: string; target?: string; from?: string; to?: string }): Omit<AuditFilter, 'accountId'> => {
    const f: Omit<AuditFilter, 'accountId'> = {};
    if (q.user !== undefined) {
      const user = ref('user', q.user);
      if (!('uuid' in user)) throw invalidInput('user: a user URN or id', { field: 'user' });
      f.userId = user.uuid;
    }
    if (q.target !== undefined) f.target = q.target;
    if (q.from !== undefined) f.from = new Date(q.from);
    if (q.to !== undefined) f.to = new Date(q.to);
    return f;
  };

  app.get('/accounts/:accountRef/audit-log', {
    schema: { summary: "The account's audit log, newest first", operationId: 'getAuditLog', ...tag, params: S.AccountParams, querystring: X.AuditQuery, response: { 200: X.AuditPage, ...errors } },
  }, async (req) => {
    const page = await core.auditLog.query(actor(req), account(req.params), filterOf(req.query), {
      beforeSeq: req.query.before ?? null, limit: req.query.pageSize ?? AUDIT_LIMITS.defaultPageSize,
    });
    return { records: page.records.map(p.record), nextBefore: page.nextBeforeSeq };
  });

  app.get('/accounts/:accountRef/audit-log/export', {
    schema: {
      summary: "The account's audit log as NDJSON (default) or CSV, oldest first, streamed", operationId: 'exportAuditLog', ...tag,
      params: S.AccountParams, querystring: X.AuditExportQuery, response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'NDJSON (application/x-ndjson) or CSV (text/csv)' }), ...errors },
    },
  }, async (req, reply) => {
    const csv = req.query.format === 'csv';
    const form = { format: csv ? 'csv' : 'ndjson', urnNamespace: core.config.urnNamespace } as const;
    const batches = await core.auditLog.exportLines(actor(req), account(req.params), filterOf(req.query), form);
    // Each batch's bytes go out as they came, in slices of at most EXPORT_CHUNK (no copy); the
    // stream asks for the next batch only when the connection has taken the last (backpressure).
    async function* chunks(): AsyncIterable<Uint8Array> {
      if (csv) yield Buffer.from(`${CSV_COLUMNS.join(',')}\r\n`);
      for await (const lines of batches) {
        for (let at = 0; at < lines.length; at += EXPORT_CHUNK) yield lines.subarray(at, at + EXPORT_CHUNK);
      }
    }
    return reply
      .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-log.${csv ? 'csv' : 'ndjson'}"`)
      .send(Readable.from(chunks(), { objectMode: false, highWaterMark: EXPORT_CHUNK }));
  });
}
