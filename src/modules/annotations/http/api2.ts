// API 2: annotations of a project's work zones, the annotations module (vendor BETA
// getAnnotationsFromProject, createAnnotation, getAnnotationById, updateAnnotation,
// deleteAnnotation, createAnnotationComment). Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { formatUrn, type UrnType } from '../../../core/ids/urn.ts';
import { actorOf } from '../../../http/auth.ts';
import { api2RefParser } from '../../../http/refs.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { AnnotationInput, Annotations } from '../index.ts';
import { annotationPresenters } from './presenters.ts';
import * as A from './schemas.ts';

export function annotationRoutes(root: FastifyInstance, use: { annotations: Annotations; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const ns = use.config.urnNamespace;
  const ref = api2RefParser(ns);
  const urn = (type: UrnType, id: string) => formatUrn(ns, type, id);
  const refs = (req: { params: { accountRef: string; projectRef: string } }) => [ref('account', req.params.accountRef), ref('project', req.params.projectRef)] as const;
  const errors = { '4xx': S.Problem };
  const beta = (t: string) => ({ tags: ['BETA', t] });
  const present = annotationPresenters(urn);
  const P = '/accounts/:accountRef/projects/:projectRef/annotations';
  const PP = S.withParams('projectRef');
  const AP = S.withParams('projectRef', 'annotationRef');

  const input = (b: Static<typeof A.AnnotationUpdate>): AnnotationInput => ({
    workzoneRef: b.workzoneId === undefined ? undefined : ref('workzone', b.workzoneId),
    annotationType: b.annotationType, title: b.title, description: b.description ?? null,
    assignedTo: (b.assignedTo ?? []).map((u) => ref('user', u)), dueDate: b.dueDate ?? null, priority: b.priority ?? null,
    imgBlobName: b.imgBlobName ?? null, position: b.position, normal: b.normal ?? null, savedView: b.savedView ?? null,
    modelElementGUIDs: b.modelElementGUIDs ?? null, labels: b.labels ?? [], attachments: b.attachments ?? [],
  });
  const readOpts = (q: Static<typeof A.ReadQuery>) => ({ includeComments: q.includeComments === true, includeAttachments: q.includeAttachments === true });

  app.get(P, {
    schema: {
      summary: 'List annotations in a project', operationId: 'getAnnotationsFromProject', ...beta('Annotation'), params: PP, querystring: A.ReadQuery,
      response: { 200: Type.Array(A.Annotation), ...errors },
    },
  }, async (req) => (await use.annotations.listAnnotations(actorOf(req), ...refs(req), readOpts(req.query))).map(present.annotation));

  app.post(P, {
    schema: { summary: 'Create an annotation', operationId: 'createAnnotation', ...beta('Annotation'), params: PP, body: A.AnnotationCreate, response: { 201: A.Annotation, ...errors } },
  }, async (req, reply) => reply.code(201).send(present.annotation(await use.annotations.createAnnotation(actorOf(req), ...refs(req), input(req.body)))));

  app.get(`${P}/:annotationRef`, {
    schema: { summary: 'Get annotation', operationId: 'getAnnotationById', ...beta('Annotation'), params: AP, querystring: A.ReadQuery, response: { 200: A.Annotation, ...errors } },
  }, async (req) => present.annotation(await use.annotations.getAnnotation(actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef), readOpts(req.query))));

  app.put(`${P}/:annotationRef`, {
    schema: { summary: 'Update an annotation (every field)', operationId: 'updateAnnotation', ...beta('Annotation'), params: AP, body: A.AnnotationUpdate, response: { 200: A.Annotation, ...errors } },
  }, async (req) => present.annotation(await use.annotations.updateAnnotation(actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef), input(req.body))));

  app.delete(`${P}/:annotationRef`, {
    schema: { summary: 'Delete an annotation', operationId: 'deleteAnnotation', ...beta('Annotation'), params: AP, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await use.annotations.deleteAnnotation(actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef));
    return reply.code(204).send(null);
  });

  app.post(`${P}/:annotationRef/comments`, {
    schema: {
      summary: 'Create a comment on an annotation', operationId: 'createAnnotationComment', ...beta('Annotation'), params: AP, body: A.AnnotationCommentCreate,
      response: { 201: A.AnnotationComment, ...errors },
    },
  }, async (req, reply) => reply.code(201).send(present.comment(await use.annotations.createAnnotationComment(
    actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef), req.body.description, req.body.attachments ?? [],
  ))));
}
