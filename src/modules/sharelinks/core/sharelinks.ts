// Share links (vendor "Share Link", BETA): getShareLinks, createShareLink, getShareLink,
// updateShareLink, deleteShareLink. docs/share-links.md.
//
// Permissions (the vendor's descriptions, with the spec's names): `workzone:share-links:read`
// (`:write`) on a link's zone reads (changes) every link there; `workzone:own-share-links:read`
// (`:write`) only the links the caller created (rules.ts linkRule). Creating asks for either
// write permission on the zone and on every additional zone shared.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { PasswordHasher } from '../../../core/ports/crypto.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import type { BoxLimit, ShareLinkFields, ShareLinkRecord, ShareLinksRepos, ShareOptions } from './ports.ts';
import './events.ts';
import './errors.ts';
import { SHARE_LINK_LIMITS as L, checkBoxLimit, checkPassword, linkRule, passwordChangeOf } from './rules.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

/** A link with what its presenter needs (the account for URNs). */
export interface ShareLinkView {
  link: ShareLinkRecord;
  accountId: string;
}

/** What a create or a PUT gives (references unresolved, the password in clear). */
export interface ShareLinkInput {
  name: string;
  /** Create only (a PUT keeps the link's zone). */
  workzoneRef?: EntityRef;
  sharedWorkzoneRefs: EntityRef[];
  /** Create: null/absent is no password. PUT: null/absent keeps it, "" removes it (vendor updateShareLink). */
  password: string | null | undefined;
  expiresAt: Date | null;
  logoBlob: string | null;
  membershipRequired: boolean;
  shareOptions: ShareOptions;
  savedView: Record<string, unknown> | null;
  /** Our extension: the box the link's sessions may see of its point clouds (null: all). */
  boxLimit: BoxLimit | null;
}

export interface ShareLinks {
  /** The project's links the caller may read (all on zones with share-links:read, his own with own-share-links:read). */
  listShareLinks(actor: Actor, a: EntityRef, p: EntityRef): Promise<ShareLinkView[]>;
  getShareLink(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<ShareLinkView>;
  createShareLink(actor: Actor, a: EntityRef, p: EntityRef, input: ShareLinkInput): Promise<ShareLinkView>;
  /** PUT: overwrites every field but the zone; the password as rules.ts passwordChangeOf says. */
  updateShareLink(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, input: ShareLinkInput): Promise<ShareLinkView>;
  /** Deletes a link and its sessions: a session of it is refused from its next request. */
  deleteShareLink(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SHARE_LINKS_STORE = storeUseOf<Repos & WorkzonesRepos & ShareLinksRepos>()({ reads: ['shareLinks', 'workzones'], writes: ['events', 'shareLinks'] });

export function createShareLinks(deps: {
  store: SliceOf<typeof SHARE_LINKS_STORE, Repos & WorkzonesRepos & ShareLinksRepos>;
  clock: Clock;
  ids: Ids;
  access: ProjectAccess;
  hasher: PasswordHasher;
}): ShareLinks {
  const { clock, ids, access, hasher } = deps;
  const store = sliceOf(deps.store, SHARE_LINKS_STORE);


  async function linkIn(scope: ProjectScope, ref: EntityRef): Promise<ShareLinkRecord> {
    const id = refUuid(ref);
    const found = id ? await store.repos.shareLinks.byId(id) : null;
    if (!found || found.projectId !== scope.project.id) throw notFound('sharelink', refValue(ref));
    return found;
  }

  async function zoneId(scope: ProjectScope, ref: EntityRef): Promise<string> {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w.id;
  }

  /** The additional zones, each a zone of the project on which the caller may share (`code` otherwise). */
  async function sharedZones(scope: ProjectScope, input: ShareLinkInput, code: 'create-sharelink-forbidden' | 'update-sharelink-forbidden'): Promise<string[]> {
    if (input.sharedWorkzoneRefs.length > L.sharedWorkzones) throw invalidInput(`at most ${L.sharedWorkzones} sharedWorkzonesIds`, { field: 'sharedWorkzonesIds' });
    const out: string[] = [];
    for (const ref of input.sharedWorkzoneRefs) {
      const w = await zoneId(scope, ref);
      requirePermission(scope.workzone(w), [['workzone:share-links:write'], ['workzone:own-share-links:write']], code);
      if (!out.includes(w)) out.push(w);
    }
    return out;
  }

  function checkFields(input: ShareLinkInput, now: Date): void {
    if (!input.name.trim()) throw invalidInput('name must not be blank', { field: 'name' });
    if (input.expiresAt && input.expiresAt <= now) throw invalidInput('expiresAt must be in the future', { field: 'expiresAt' });
    if (input.savedView && JSON.stringify(input.savedView).length > L.savedViewChars) {
      throw invalidInput(`savedView holds at most ${L.savedViewChars} characters of JSON`, { field: 'savedView' });
    }
    if (input.boxLimit) checkBoxLimit(input.boxLimit);
  }

  const view = (scope: ProjectScope, link: ShareLinkRecord): ShareLinkView => ({ link, accountId: scope.account.account.id });

  return {
    async listShareLinks(actor, a, p) {
      const scope = await access.project(actor, a, p, { record: false });
      requireMember(scope);
      const all = await store.repos.shareLinks.list(scope.project.id);
      return all
        .filter((l) => {
          const held = scope.workzone(l.workzoneId);
          return held.has('workzone:share-links:read') || (l.createdBy === actor.userId && held.has('workzone:own-share-links:read'));
        })
        .map((l) => view(scope, l));
    },

    async getShareLink(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      const link = await linkIn(scope, ref);
      requirePermission(scope.workzone(link.workzoneId), linkRule(link, actor.userId, 'read'), 'view-sharelink-forbidden');
      return view(scope, link);
    },

    async createShareLink(actor, a, p, input) {
      const scope = await access.project(actor, a, p);
      if (!input.workzoneRef) throw invalidInput('workzoneId is required', { field: 'workzoneId' });
      const w = await zoneId(scope, input.workzoneRef);
      // Any link made now is the caller's own: either write permission will do.
      requirePermission(scope.workzone(w), [['workzone:share-links:write'], ['workzone:own-share-links:write']], 'create-sharelink-forbidden');
      const now = clock.now();
      checkFields(input, now);
      const shared = await sharedZones(scope, input, 'create-sharelink-forbidden');
      if (input.password) checkPassword(input.password);
      const link: ShareLinkRecord = {
        id: ids.uuid(), projectId: scope.project.id, workzoneId: w, name: input.name.trim(), sharedWorkzoneIds: shared,
        passwordHash: input.password ? await hasher.hash(input.password) : null, expiresAt: input.expiresAt, logoBlob: input.logoBlob,
        membershipRequired: input.membershipRequired, shareOptions: input.shareOptions, savedView: input.savedView, boxLimit: input.boxLimit,
        createdAt: now, createdBy: actor.userId,
      };
      await store.transaction(async (repos) => {
        await repos.shareLinks.insert(link);
        await repos.events.publish(projectEventOf('share-link.created', scope.project, subjectOf('share-link', link.id), { shareLinkId: link.id, workzoneId: w }), now);
      });
      return view(scope, link);
    },

    async updateShareLink(actor, a, p, ref, input) {
      const scope = await access.project(actor, a, p);
      const current = await linkIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), linkRule(current, actor.userId, 'write'), 'update-sharelink-forbidden');
      const now = clock.now();
      checkFields(input, now);
      const shared = await sharedZones(scope, input, 'update-sharelink-forbidden');
      const change = passwordChangeOf(input.password);
      if ('set' in change) checkPassword(change.set);
      const passwordHash = 'keep' in change ? current.passwordHash : 'remove' in change ? null : await hasher.hash(change.set);
      const fields: ShareLinkFields = {
        name: input.name.trim(), sharedWorkzoneIds: shared, passwordHash, expiresAt: input.expiresAt, logoBlob: input.logoBlob,
        membershipRequired: input.membershipRequired, shareOptions: input.shareOptions, savedView: input.savedView, boxLimit: input.boxLimit,
      };
      const passwordChanged = !('keep' in change);
      await store.transaction(async (repos) => {
        await repos.shareLinks.update(current.id, fields);
        // A new or removed password ends the sessions opened with the old one.
        if (passwordChanged) await repos.shareLinks.removeSessions(current.id);
        await repos.events.publish(
          projectEventOf('share-link.updated', scope.project, subjectOf('share-link', current.id), { shareLinkId: current.id, workzoneId: current.workzoneId, passwordChanged }),
          now,
        );
      });
      return view(scope, { ...current, ...fields });
    },

    async deleteShareLink(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      const current = await linkIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), linkRule(current, actor.userId, 'write'), 'delete-sharelink-forbidden');
      await store.transaction(async (repos) => {
        await repos.shareLinks.remove(current.id);
        await repos.events.publish(
          projectEventOf('share-link.deleted', scope.project, subjectOf('share-link', current.id), { shareLinkId: current.id, workzoneId: current.workzoneId }),
          clock.now(),
        );
      });
    },
  };
}
