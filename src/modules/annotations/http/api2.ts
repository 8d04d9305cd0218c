// API 2: annotations of a project's work zones, the annotations module (vendor BETA
// getAnnotationsFromProject, createAnnotation, getAnnotationById, updateAnnotation,
// deleteAnnotation, createAnnotationComment). Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { AnnotationInput, Annotations } from '../index.ts';
import { annotationPresenters } from './presenters.ts';
import * as AnnotationSchemas from './schemas.ts';

export function annotationRoutes(root: FastifyInstance, use: { annotations: Annotations; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, refs, errors, beta } = api2Naming(use.config.urnNamespace);
  const present = annotationPresenters(urn);
  const base = '/accounts/:accountRef/projects/:projectRef/annotations';
  const projectParams = S.withParams('projectRef');
  const annotationParams = S.withParams('projectRef', 'annotationRef');

  const input = (b: Static<typeof AnnotationSchemas.AnnotationUpdate>): AnnotationInput => ({
    workzoneRef: b.workzoneId === undefined ? undefined : ref('workzone', b.workzoneId),
    annotationType: b.annotationType, title: b.title, description: b.description ?? null,
    assignedTo: (b.assignedTo ?? []).map((u) => ref('user', u)), dueDate: b.dueDate ?? null, priority: b.priority ?? null,
    imgBlobName: b.imgBlobName ?? null, position: b.position, normal: b.normal ?? null, savedView: b.savedView ?? null,
    modelElementGUIDs: b.modelElementGUIDs ?? null, labels: b.labels ?? [], attachments: b.attachments ?? [],
  });
  const readOpts = (q: Static<typeof AnnotationSchemas.ReadQuery>) => ({ includeComments: q.includeComments === true, includeAttachments: q.includeAttachments === true });

  app.get(base, {
    schema: {
      summary: 'List annotations in a project', operationId: 'getAnnotationsFromProject', ...beta('Annotation'), params: projectParams, querystring: AnnotationSchemas.ReadQuery,
      response: { 200: Type.Array(AnnotationSchemas.Annotation), ...errors },
    },
  }, async (req) => (await use.annotations.listAnnotations(actorOf(req), ...refs(req), readOpts(req.query))).map(present.annotation));

  app.post(base, {
    schema: { summary: 'Create an annotation', operationId: 'createAnnotation', ...beta('Annotation'), params: projectParams, body: AnnotationSchemas.AnnotationCreate, response: { 201: AnnotationSchemas.Annotation, ...errors } },
  }, async (req, reply) => reply.code(201).send(present.annotation(await use.annotations.createAnnotation(actorOf(req), ...refs(req), input(req.body)))));

  app.get(`${base}/:annotationRef`, {
    schema: { summary: 'Get annotation', operationId: 'getAnnotationById', ...beta('Annotation'), params: annotationParams, querystring: AnnotationSchemas.ReadQuery, response: { 200: AnnotationSchemas.Annotation, ...errors } },
  }, async (req) => present.annotation(await use.annotations.getAnnotation(actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef), readOpts(req.query))));

  app.put(`${base}/:annotationRef`, {
    schema: { summary: 'Update an annotation (every field)', operationId: 'updateAnnotation', ...beta('Annotation'), params: annotationParams, body: AnnotationSchemas.AnnotationUpdate, response: { 200: AnnotationSchemas.Annotation, ...errors } },
  }, async (req) => present.annotation(await use.annotations.updateAnnotation(actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef), input(req.body))));

  app.delete(`${base}/:annotationRef`, {
    schema: { summary: 'Delete an annotation', operationId: 'deleteAnnotation', ...beta('Annotation'), params: annotationParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await use.annotations.deleteAnnotation(actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef));
    return reply.code(204).send(null);
  });

  app.post(`${base}/:annotationRef/comments`, {
    schema: {
      summary: 'Create a comment on an annotation', operationId: 'createAnnotationComment', ...beta('Annotation'), params: annotationParams, body: AnnotationSchemas.AnnotationCommentCreate,
      response: { 201: AnnotationSchemas.AnnotationComment, ...errors },
    },
  }, async (req, reply) => reply.code(201).send(present.comment(await use.annotations.createAnnotationComment(
    actorOf(req), ...refs(req), ref('annotation', req.params.annotationRef), req.body.description, req.body.attachments ?? [],
  ))));
}
