// API 2: P&ID elements (vendor BETA addPnIdElementsInTagList). Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { Nullable } from '../../../http/schema-helpers.ts';
import { TagList, tagListPresenter } from '../../tags/http/index.ts';
import type { PnIdElements } from '../index.ts';

const Point = Type.Array(Type.Number(), { minItems: 2, maxItems: 2 });

/** Vendor tagListPnIdElementsBulkAdd, with bounds of ours on the arrays (docs/pnid.md). */
export const PnIdElementsBulkAdd = Type.Object({
  pages: Type.Array(Type.Object({
    attachmentId: Type.String({ minLength: 1, maxLength: 255 }),
    index: Type.Integer({ minimum: 1 }),
    instruments: Type.Optional(Nullable(Type.Array(Type.Object({
      name: Type.String({ minLength: 1, maxLength: 255 }),
      class: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
      confidence: Type.Optional(Nullable(Type.Number())),
      location: Type.Array(Point, { minItems: 2, maxItems: 2 }),
    }), { maxItems: 50_000 }))),
    pipes: Type.Optional(Nullable(Type.Array(Type.Object({
      name: Type.String({ minLength: 1, maxLength: 255 }),
      segments: Type.Array(Point, { minItems: 2, maxItems: 10_000 }),
    }), { maxItems: 50_000 }))),
  }), { minItems: 1, maxItems: 10_000 }),
});

type Pages = Parameters<PnIdElements['addPnIdElementsInTagList']>[4];

export function pnidRoutes(root: FastifyInstance, use: { pnIdElements: PnIdElements; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, refs, urn, opt, errors, beta } = api2Naming(use.config.urnNamespace);
  const present = tagListPresenter(urn, opt);
  app.post('/accounts/:accountRef/projects/:projectRef/tag-lists/:tagListRef/pnid-elements/bulk-add', {
    schema: {
      summary: 'Add P&ID elements to a tag list', operationId: 'addPnIdElementsInTagList', ...beta('Tag List'),
      params: S.withParams('projectRef', 'tagListRef'), body: PnIdElementsBulkAdd, response: { 201: TagList, ...errors },
    },
  }, async (req, reply) => reply.code(201).send(present(await use.pnIdElements.addPnIdElementsInTagList(
    actorOf(req), ...refs(req), ref('tag-list', req.params.tagListRef), req.body.pages as Pages,
  ))));
}
