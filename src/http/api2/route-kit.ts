// What every API 2 route module opens with: reference parsing and URNs in the deployment's
// namespace, the caller as an Actor, the 4xx response schema and the BETA tags.
import type { FastifyRequest } from 'fastify';
import type { Core } from '../../compose.ts';
import { formatUrn, type UrnType } from '../../core/ids/urn.ts';
import { principalOf } from '../auth.ts';
import { api2RefParser } from '../refs.ts';
import * as S from './schemas.ts';

export function api2Kit(core: Core) {
  const ns = core.config.urnNamespace;
  const urn = (type: UrnType, id: string) => formatUrn(ns, type, id);
  return {
    ns,
    ref: api2RefParser(ns),
    urn,
    opt: (type: UrnType, id: string | null) => (id ? urn(type, id) : null),
    actor: (req: FastifyRequest) => ({ userId: principalOf(req).userId }),
    errors: { '4xx': S.Problem },
    beta: (t: string) => ({ tags: ['BETA', t] }),
  };
}
