// The vendor's "asynchronous batch" behind createAnnotationIntegrationLinks (docs/integrations.md
// "Integration links"): each pending link becomes an issue at Konekt or Autodesk, and its `url`
// is set; or it fails for good with the reason (refused, its configuration gone, no answer after
// LINK_ATTEMPTS attempts); or, the third party not answering, it waits its next attempt.
//
// Run by the task `integration-links` on every node. A link is claimed by one statement (the
// repository's guarantee: never by two nodes at once) for a lease longer than one attempt; the
// third party is asked outside any transaction; the outcome is written only if the lease still
// holds. A node that dies holding a link leaves it to the next pass after the lease; the request
// carries a key (linkRequestKey) so a third party that honours it creates nothing twice.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { SecretBox } from '../../../core/crypto/secret-box.ts';
import {
  ThirdPartyError, type AutodeskClient, type AutodeskConnectionRecord, type ClaimedLink, type IntegrationsRepos, type KonektClient, type LinkOutcome,
  type ThirdPartyIssue,
} from './ports.ts';
import {
  annotationConsoleLink, issueTitle, LINK_ATTEMPTS, LINK_CLAIM_BATCH, linkLeaseSeconds, linkRequestKey, linkRetryDelaySeconds, TOKEN_EXPIRY_MARGIN_SECONDS,
} from './rules.ts';
import { openStoredToken } from './stored-token.ts';
import './events.ts';

export interface LinkBatchPass {
  created: number;
  failed: number;
  /** Left pending for a later attempt (the third party did not answer). */
  retried: number;
}

export interface LinkBatch {
  /** One pass: every link due now, claimed a few at a time. */
  run(): Promise<LinkBatchPass>;
}

/** A link that cannot be created as things stand: it fails for good with this reason. */
class Unlinkable extends Error {}

const NAMES = { NEWFORMA_KONEKT: 'Konekt', AUTODESK: 'Autodesk', PROCORE: 'Procore' } as const;
/** Claims in one pass at most: a pass ends, the next is the task's next run. */
const MAX_CLAIMS_PER_PASS = 50;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const LINK_BATCH_STORE = storeUseOf<Repos & IntegrationsRepos>()({ reads: ['integrations'], writes: ['events', 'integrations'] });

export function createLinkBatch(deps: {
  store: SliceOf<typeof LINK_BATCH_STORE, Repos & IntegrationsRepos>;
  clock: Clock;
  konekt: KonektClient | null;
  autodesk: AutodeskClient | null;
  secrets: SecretBox;
  publicUrl: string;
  timeoutSeconds: number;
}): LinkBatch {
  const { clock, konekt, autodesk, secrets, publicUrl, timeoutSeconds } = deps;
  const store = sliceOf(deps.store, LINK_BATCH_STORE);
  const repo = () => store.repos.integrations;
  const open = (stored: string) => openStoredToken(secrets, stored);
  /** One refresh per user at a time on this node: Autodesk's refresh tokens are single use. */
  const refreshing = new Map<string, Promise<string>>();

  async function refreshed(client: AutodeskClient, conn: AutodeskConnectionRecord): Promise<string> {
    if (!conn.refreshToken) throw new Unlinkable('the author\'s Autodesk sign-in has expired: they must sign in to Autodesk again');
    let tokens;
    try {
      tokens = await client.refresh(await open(conn.refreshToken));
    } catch (e) {
      if (!(e instanceof ThirdPartyError) || e.reason !== 'refused') throw e;
      // Refused: another node may have used the refresh token first, and kept the new tokens.
      const current = await repo().autodeskConnection(conn.userId);
      if (current && current.accessToken !== conn.accessToken) return open(current.accessToken);
      throw new Unlinkable('Autodesk refused to renew the author\'s sign-in: they must sign in to Autodesk again');
    }
    const next = {
      accessToken: await secrets.seal(tokens.accessToken),
      refreshToken: tokens.refreshToken === null ? conn.refreshToken : await secrets.seal(tokens.refreshToken),
      expiresAt: tokens.expiresInSeconds === null ? null : new Date(clock.now().getTime() + tokens.expiresInSeconds * 1000),
    };
    if (!(await repo().replaceAutodeskTokens(conn.userId, conn.accessToken, next))) {
      // Reconnected or refreshed elsewhere meanwhile: what is stored now wins.
      const current = await repo().autodeskConnection(conn.userId);
      if (!current) throw new Unlinkable('the annotation\'s author is no longer connected to Autodesk');
      return open(current.accessToken);
    }
    return tokens.accessToken;
  }

  function refreshOnce(client: AutodeskClient, conn: AutodeskConnectionRecord): Promise<string> {
    const running = refreshing.get(conn.userId);
    if (running) return running;
    const started = refreshed(client, conn).finally(() => refreshing.delete(conn.userId));
    refreshing.set(conn.userId, started);
    return started;
  }

  /** Calls Autodesk as the user: refreshes a token at its end, and once more when Autodesk refuses the one it has. */
  async function asAutodeskUser<T>(client: AutodeskClient, userId: string, call: (accessToken: string) => Promise<T>): Promise<T> {
    const conn = await repo().autodeskConnection(userId);
    if (!conn) throw new Unlinkable('the annotation\'s author is not connected to Autodesk');
    const ending = conn.expiresAt !== null && conn.expiresAt.getTime() <= clock.now().getTime() + TOKEN_EXPIRY_MARGIN_SECONDS * 1000;
    const token = ending ? await refreshOnce(client, conn) : await open(conn.accessToken);
    try {
      return await call(token);
    } catch (e) {
      if (ending || !(e instanceof ThirdPartyError) || e.reason !== 'refused' || !conn.refreshToken) throw e;
      return call(await refreshOnce(client, conn));
    }
  }

  async function createAtThirdParty(link: ClaimedLink): Promise<LinkOutcome> {
    const key = linkRequestKey(link.annotationId, link.integrationType);
    const issue: ThirdPartyIssue = {
      title: issueTitle(link.annotation.number, link.annotation.title),
      description: link.annotation.description ?? '',
      link: annotationConsoleLink(publicUrl, link.accountId, link.projectId),
    };
    if (link.integrationType === 'NEWFORMA_KONEKT') {
      if (!konekt) throw new Unlinkable('this service is no longer configured for Konekt');
      const config = await repo().projectKonekt(link.projectId);
      if (!config) throw new Unlinkable('the project is no longer configured for Konekt');
      const hub = await repo().accountKonektByHub(link.accountId, config.hubId);
      if (!hub?.token) throw new Unlinkable(`the Konekt hub ${config.hubId} is not connected on the account`);
      const id = await konekt.createIssue(await open(hub.token), config.konektProjectId, issue, key);
      return { state: 'created', url: konekt.issueLink(config.hubId, config.konektProjectId, id), externalId: id };
    }
    if (link.integrationType === 'AUTODESK') {
      const client = autodesk;
      if (!client) throw new Unlinkable('this service is no longer configured for Autodesk');
      const config = await repo().projectAutodesk(link.projectId);
      if (!config) throw new Unlinkable('the project is no longer configured for Autodesk');
      if (!link.annotation.createdBy) throw new Unlinkable('the annotation\'s author is no longer a user of this service');
      const id = await asAutodeskUser(client, link.annotation.createdBy, (token) => client.createIssue(token, config.autodeskProjectId, issue, key));
      return { state: 'created', url: client.issueLink(config.autodeskHubId, config.autodeskProjectId, id), externalId: id };
    }
    throw new Unlinkable('this service has no Procore integration');
  }

  /** The attempt's outcome; an error that is neither the third party's nor the link's is thrown (the lease then lets a later pass retry). */
  async function attempt(link: ClaimedLink): Promise<LinkOutcome> {
    try {
      return await createAtThirdParty(link);
    } catch (e) {
      const name = NAMES[link.integrationType];
      if (e instanceof Unlinkable) return { state: 'failed', failure: e.message };
      if (!(e instanceof ThirdPartyError)) throw e;
      if (e.reason === 'refused') return { state: 'failed', failure: `${name} refused it: ${e.message}` };
      if (link.attempts >= LINK_ATTEMPTS) return { state: 'failed', failure: `${name} did not answer in ${link.attempts} attempts: ${e.message}` };
      return { state: 'pending', nextAttemptAt: new Date(clock.now().getTime() + linkRetryDelaySeconds(link.attempts) * 1000), failure: e.message };
    }
  }

  async function settle(link: ClaimedLink, outcome: LinkOutcome): Promise<boolean> {
    return store.transaction(async (repos) => {
      if (!(await repos.integrations.settleLink(link, outcome))) return false;
      const project = { id: link.projectId, accountId: link.accountId };
      const subject = subjectOf('annotation', link.annotationId);
      if (outcome.state === 'created') {
        await repos.events.publish(projectEventOf('annotation-integration-link.created', project, subject, {
          annotationId: link.annotationId, integration: link.integrationType, url: outcome.url,
        }), clock.now());
      } else if (outcome.state === 'failed') {
        await repos.events.publish(projectEventOf('annotation-integration-link.failed', project, subject, {
          annotationId: link.annotationId, integration: link.integrationType, failure: outcome.failure,
        }), clock.now());
      }
      return true;
    });
  }

  return {
    async run() {
      const pass: LinkBatchPass = { created: 0, failed: 0, retried: 0 };
      let unexpected: unknown = null;
      for (let claims = 0; claims < MAX_CLAIMS_PER_PASS; claims += LINK_CLAIM_BATCH) {
        const now = clock.now();
        const claimed = await repo().claimLinks(now, new Date(now.getTime() + linkLeaseSeconds(timeoutSeconds) * 1000), LINK_CLAIM_BATCH);
        const settled = await Promise.allSettled(claimed.map(async (link) => {
          const outcome = await attempt(link);
          if (await settle(link, outcome)) pass[outcome.state === 'created' ? 'created' : outcome.state === 'failed' ? 'failed' : 'retried']++;
        }));
        for (const s of settled) if (s.status === 'rejected') unexpected ??= s.reason;
        if (claimed.length < LINK_CLAIM_BATCH) break;
      }
      // The others were settled; the task logs this one (its link is retried after its lease).
      if (unexpected) throw unexpected;
      return pass;
    },
  };
}
