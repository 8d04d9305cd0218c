// The sandbox module's operator routes (docs/operator-api.md "Snapshots", "Fault rules",
// "The request journal"), under /_operator with the operator token: snapshots and the
// journal with OPERATOR_TOKEN; the fault rules only with SANDBOX=1 (404 otherwise, as a
// path that does not exist). Handlers parse, call one use case, present.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthenticateOperator } from '../../operator/index.ts';
import type { SnapshotControl } from '../core/snapshot-control.ts';
import type { Faults } from '../core/faults.ts';
import type { Journal } from '../core/journal.ts';
import { DomainError } from '../../../core/errors.ts';
import { requireOperator, sandboxOnly } from '../../operator/http/index.ts';
import { hasBody, liftBodyDeadline } from '../../../http/timeouts.ts';
import { JournalQuery, JournalStreamQuery, NameParams, SaveSnapshot } from './schemas.ts';
import { HEARTBEAT_SECONDS_DEFAULT, streamJournal, type OpenStreams } from './journal-stream.ts';

const hide = { hide: true };
const noJournal = (url: string) =>
  new DomainError('not-found', 'route-not-found', `No route ${url.split('?')[0]!.slice(0, 200)} (JOURNAL_SIZE is 0)`);

/** The request's body as a stream of bytes (the snapshot file, any Content-Type). */
async function* bodyOf(req: FastifyRequest): AsyncIterable<Uint8Array> {
  liftBodyDeadline(req.raw); // an authenticated operator's file may take longer than BODY_TIMEOUT
  for await (const chunk of req.raw) yield chunk as Uint8Array;
}

function streamFile(reply: FastifyReply, name: string, bytes: AsyncIterable<Uint8Array>, size: number): FastifyReply {
  return reply
    .type('application/octet-stream')
    .header('content-length', String(size))
    .header('content-disposition', `attachment; filename="${name}.sbsnap"`)
    .send(Readable.from(bytes));
}

/** What the routes call: the module's use cases, the operator token's check, the settings. */
export interface SandboxRouteUse {
  config: { sandbox: boolean };
  authenticateOperator: AuthenticateOperator | null;
  snapshotControl: SnapshotControl;
  faults: Faults;
  journal: Journal | null;
}

export const sandboxRoutes =
  (core: SandboxRouteUse): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireOperator(core));
    const control = core.snapshotControl;

    // Snapshots.
    app.get('/snapshots', { schema: hide }, async () => ({ snapshots: await control.list() }));
    app.post('/snapshots', { schema: { ...hide, body: SaveSnapshot } }, async (req, reply) =>
      reply.code(201).send(await control.save(req.body.name, { signingKeys: req.body.signingKeys ?? false })),
    );
    app.get('/snapshots/:name', { schema: { ...hide, params: NameParams } }, async (req) => control.describe(req.params.name));
    app.delete('/snapshots/:name', { schema: { ...hide, params: NameParams } }, async (req) => control.remove(req.params.name));
    app.get('/snapshots/:name/file', { schema: { ...hide, params: NameParams } }, async (req, reply) => {
      const info = await control.describe(req.params.name);
      return streamFile(reply, info.name, await control.download(info.name), info.bytes);
    });

    // The file routes read the raw body (any type, no limit but the operator's): no parser here.
    await app.register(async (files) => {
      files.removeAllContentTypeParsers();
      files.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
      const typed = files.withTypeProvider<TypeBoxTypeProvider>();
      typed.put('/snapshots/:name/file', { schema: { ...hide, params: NameParams } }, async (req, reply) => {
        if (!hasBody(req)) throw new DomainError('invalid', 'invalid-input', 'This operation needs the snapshot file as its body', { field: 'body' });
        return reply.code(201).send(await control.upload(req.params.name, bodyOf(req)));
      });
      // Without a body: restores the named snapshot; with one: keeps it under the name, then restores it.
      typed.post('/snapshots/:name/restore', { schema: { ...hide, params: NameParams } }, async (req) =>
        hasBody(req) ? control.uploadAndRestore(req.params.name, bodyOf(req)) : control.restore(req.params.name),
      );
    });

    // Fault rules: SANDBOX only.
    const sandbox = { onRequest: sandboxOnly(core) };
    app.get('/faults', { schema: hide, ...sandbox }, async () => ({ rules: core.faults.list() }));
    app.post('/faults', { schema: hide, ...sandbox }, async (req, reply) => reply.code(201).send(core.faults.add(req.body)));
    app.put('/faults', { schema: hide, ...sandbox }, async (req) => ({ rules: core.faults.replace(req.body) }));
    app.delete('/faults', { schema: hide, ...sandbox }, async () => core.faults.clear());
    app.delete('/faults/:id', { schema: { ...hide, params: Type.Object({ id: Type.String({ maxLength: 64 }) }) }, ...sandbox }, async (req) =>
      core.faults.remove(req.params.id),
    );

    // The request journal.
    const journal = core.journal;
    app.get('/journal', { schema: { ...hide, querystring: JournalQuery } }, async (req) => {
      if (!journal) throw noJournal(req.url);
      const q = req.query;
      return journal.query({
        user: q.user, status: q.status, operationId: q.operationId, method: q.method, pathPrefix: q.path,
        errorCode: q.errorCode, after: q.after, since: q.since, limit: q.limit, waitSeconds: q.wait,
      });
    });
    // Followed as Server-Sent Events; every open stream is ended when the app closes.
    const streams: OpenStreams = new Set();
    app.addHook('preClose', async () => {
      for (const close of [...streams]) close('server-closing');
    });
    app.get('/journal/stream', { schema: { ...hide, querystring: JournalStreamQuery } }, async (req, reply) => {
      if (!journal) throw noJournal(req.url);
      const q = req.query;
      const lastEventId = Number(req.headers['last-event-id']);
      const after = q.after ?? (Number.isSafeInteger(lastEventId) && lastEventId >= 0 ? lastEventId : undefined);
      streamJournal(reply, journal, {
        user: q.user, status: q.status, operationId: q.operationId, method: q.method, pathPrefix: q.path,
        errorCode: q.errorCode, after, since: q.since,
      }, { heartbeatSeconds: q.heartbeat ?? HEARTBEAT_SECONDS_DEFAULT, open: streams });
      return reply;
    });
    app.delete('/journal', { schema: hide }, async (req) => {
      if (!journal) throw noJournal(req.url);
      journal.clear();
      return { cleared: true };
    });
  };
