// What every API 2 route module opens with: reference parsing and URNs in the deployment's
// namespace, the caller as an Actor, the 4xx response schema and the BETA tags.
import type { Core } from '../../compose.ts';
import { formatUrn, type UrnType } from '../../core/ids/urn.ts';
import { actorOf } from '../auth.ts';
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
    actor: actorOf,
    /** The 302 link of a stored object (a file, a cover, a thumbnail): docs/files.md. */
    blobUrl: (accountId: string, projectId: string, blobName: string) =>
      `${core.config.publicUrl}/api/2/accounts/${accountId}/projects/${projectId}/blobs/${encodeURIComponent(blobName)}`,
    errors: { '4xx': S.Problem },
    beta: (t: string) => ({ tags: ['BETA', t] }),
  };
}
