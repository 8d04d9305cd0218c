// What every API 2 route file opens with that needs only the deployment's URN namespace:
// reference parsing, URNs, the caller as an Actor, the 4xx response schema and the operation
// tags. src/http/api2/route-kit.ts adds the account-level presenters for the kernel's route
// files; a module's route file (src/modules/<m>/http) imports this one, typed by what it calls
// rather than the whole Core (so no import of src/compose.ts, and no loop through the module list).
import { formatUrn, type UrnType } from '../../core/http-face.ts';
import { actorOf } from '../auth.ts';
import { api2RefParser } from '../refs.ts';
import * as S from './schemas.ts';

/**
 * The part of the kit that needs only the deployment's URN namespace: what a module's route
 * file (src/modules/<m>/http) opens with, typed by what it calls rather than the whole Core.
 */
export function api2Naming(ns: string) {
  const urn = (type: UrnType, id: string) => formatUrn(ns, type, id);
  const ref = api2RefParser(ns);
  return {
    ns,
    ref,
    /** The account and project of a project-level route (…/accounts/{accountRef}/projects/{projectRef}/…). */
    refs: (req: { params: { accountRef: string; projectRef: string } }) =>
      [ref('account', req.params.accountRef), ref('project', req.params.projectRef)] as const,
    urn,
    opt: (type: UrnType, id: string | null) => (id ? urn(type, id) : null),
    actor: actorOf,
    errors: { '4xx': S.Problem },
    tag: (t: string) => ({ tags: [t] }),
    beta: (t: string) => ({ tags: ['BETA', t] }),
  };
}

/** The 302 link of a stored object (a file, a cover, a thumbnail) under `publicUrl`: docs/files.md. */
export const api2BlobUrl = (publicUrl: string, accountId: string, projectId: string, blobName: string): string =>
  `${publicUrl}/api/2/accounts/${accountId}/projects/${projectId}/blobs/${encodeURIComponent(blobName)}`;
