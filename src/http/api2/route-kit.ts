// What every API 2 route module opens with: reference parsing and URNs in the deployment's
// namespace, the caller as an Actor, the account-level presenters, the 4xx response schema
// and the operation tags.
import type { Core } from '../../compose.ts';
import { formatUrn, type UrnType } from '../../core/ids/urn.ts';
import { actorOf } from '../auth.ts';
import { api2RefParser } from '../refs.ts';
import { presenters, regionOf } from './presenters.ts';
import * as S from './schemas.ts';

export function api2Kit(core: Core) {
  const ns = core.config.urnNamespace;
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
    /** The 302 link of a stored object (a file, a cover, a thumbnail): docs/files.md. */
    blobUrl: (accountId: string, projectId: string, blobName: string) =>
      `${core.config.publicUrl}/api/2/accounts/${accountId}/projects/${projectId}/blobs/${encodeURIComponent(blobName)}`,
    /** Accounts, subscriptions, roles, users and groups as API 2 shows them. */
    present: presenters({ ns, publicUrl: core.config.publicUrl, region: regionOf(core.config.storageUrl) }),
    errors: { '4xx': S.Problem },
    tag: (t: string) => ({ tags: [t] }),
    beta: (t: string) => ({ tags: ['BETA', t] }),
  };
}
