// Opening a share link (docs/share-links.md "Opening a link"): the link's public facts, a
// link session (after its password, and a signed-in user when membershipRequired), and the
// read-only reads of that session: the shared zones' files (with short download URLs), and
// as the link's options allow, their tags, annotations, measurements and crops.
//
// Every read re-reads the session with its link in one query and checks both: a deleted link
// (its sessions go with it) or an expired one refuses on its next request, on every node.
// The session's bearer secret is a random value kept hashed; it is no access token, so every
// route of API 1, API 2 and the other surfaces refuses it (401).
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { DomainError, notFound, unauthorized } from '../../../core/errors.ts';
import { sha256Hex } from '../../../core/crypto/digest.ts';
import { isUuid } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { PasswordHasher } from '../../../core/ports/crypto.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import type { UsageRecorder } from '../../usage/index.ts';
import type { FileRecord, FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { CropRecord, CropsRepos } from '../../crops/index.ts';
import type { TagListRecord, TagRow } from '../../tags/index.ts';
import { downloadName, servedAs } from '../../files/index.ts';
import type { AnnotationRecord, AnnotationsRepos } from '../../annotations/index.ts';
import type { MeasurementRecord, MeasurementsRepos } from '../../measurements/index.ts';
import type { TagsRepos } from '../../tags/index.ts';
import type { BoxLimit, ShareLinkRecord, ShareLinkSessionRecord, ShareLinksRepos, ShareOptions } from './ports.ts';
import { POINT_CLOUD_EXTENSIONS } from '../../pointclouds/index.ts';
import './errors.ts';
import { SHARE_LINK_LIMITS as L, isExpired, sharedAnnotationTypes, sharedZoneIds } from './rules.ts';
import type { WorkzoneRecord, WorkzonesRepos } from '../../workzones/index.ts';

/** What anyone holding the link's id may know before opening it. */
export interface ShareLinkFacts {
  id: string;
  name: string;
  passwordProtected: boolean;
  membershipRequired: boolean;
  expiresAt: Date | null;
  shareOptions: ShareOptions;
}

export interface OpenedSession {
  token: string;
  expiresAt: Date;
}

/** A session's link and the zones it shows (id and name). */
export interface SharedScope {
  link: ShareLinkRecord;
  zones: Pick<WorkzoneRecord, 'id' | 'name'>[];
}

export interface SharedFile {
  file: FileRecord;
}

export interface SharedTagList {
  list: TagListRecord;
  tags: TagRow[];
}

export interface SharedViews {
  /** The link's public facts: 404 sharelink-not-found, 403 sharelink-expired. */
  facts(linkId: string): Promise<ShareLinkFacts>;
  /**
   * Opens a session: the password when the link has one (401 sharelink-password-required),
   * a signed-in user when it asks for membership (401 sharelink-membership-required).
   */
  open(linkId: string, input: { password: string | null; userId: string | null }): Promise<OpenedSession>;
  /** The session's link and zones (every read below checks the session the same way first). */
  scope(token: string | null, linkId: string): Promise<SharedScope>;
  files(token: string | null, linkId: string): Promise<SharedFile[]>;
  /** A download URL of a shared file, valid SHARE_LINK_LIMITS.downloadSeconds. */
  fileUrl(token: string | null, linkId: string, fileId: string): Promise<string>;
  tagLists(token: string | null, linkId: string): Promise<SharedTagList[]>;
  annotations(token: string | null, linkId: string): Promise<AnnotationRecord[]>;
  measurements(token: string | null, linkId: string): Promise<MeasurementRecord[]>;
  crops(token: string | null, linkId: string): Promise<CropRecord[]>;
  /** A shared file whose point cloud the session reads, with the link's box limit (null: none). 404 file-not-found outside the shared zones. */
  pointCloudFile(token: string | null, linkId: string, fileId: string): Promise<{ file: FileRecord; boxLimit: BoxLimit | null }>;
}

const optionDisabled = (option: keyof ShareOptions) =>
  new DomainError('forbidden', 'sharelink-option-disabled', `This share link does not share ${option}`, { option });

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const SHARED_VIEWS_STORE = storeUseOf<Repos & FilesRepos & WorkzonesRepos & ShareLinksRepos & AnnotationsRepos & MeasurementsRepos & CropsRepos & TagsRepos>()({ reads: ['annotations', 'crops', 'files', 'measurements', 'shareLinks', 'tags', 'workzones'], writes: [] });

export function createSharedViews(deps: {
  store: SliceOf<typeof SHARED_VIEWS_STORE, Repos & FilesRepos & WorkzonesRepos & ShareLinksRepos & AnnotationsRepos & MeasurementsRepos & CropsRepos & TagsRepos>;
  clock: Clock;
  ids: Ids;
  hasher: PasswordHasher;
  objectStore: Pick<ObjectStore, 'signDownload'>;
  usage: UsageRecorder;
}): SharedViews {
  const { clock, ids, hasher, objectStore, usage } = deps;
  const store = sliceOf(deps.store, SHARED_VIEWS_STORE);
  const repos = () => store.repos;

  /** The link as it is now: 404 when there is none (or the id is no UUID), 403 when it has expired. */
  async function usableLink(linkId: string): Promise<ShareLinkRecord> {
    const link = isUuid(linkId) ? await repos().shareLinks.byId(linkId.toLowerCase()) : null;
    if (!link) throw notFound('sharelink', linkId.slice(0, 200));
    if (isExpired(link, clock.now())) throw expired(link);
    return link;
  }

  const expired = (link: ShareLinkRecord) =>
    new DomainError('forbidden', 'sharelink-expired', 'This share link has expired', { sharelinkId: link.id, expiresAt: link.expiresAt?.toISOString() });

  /** The session's link, checked on this request: the session, its link, the link's expiry. */
  async function openSession(token: string | null, linkId: string): Promise<{ session: ShareLinkSessionRecord; link: ShareLinkRecord }> {
    if (!token) throw unauthorized('A share link session is required (POST /share/{id}/sessions)');
    const found = await repos().shareLinks.sessionWithLink(sha256Hex(token));
    const now = clock.now();
    if (!found || found.link.id !== linkId.toLowerCase()) throw unauthorized('Unknown share link session');
    if (isExpired(found.link, now)) throw expired(found.link);
    if (found.session.expiresAt <= now) throw unauthorized('Expired share link session: open the link again');
    return found;
  }
  const sessionLink = async (token: string | null, linkId: string): Promise<ShareLinkRecord> => (await openSession(token, linkId)).link;

  const inZones = (link: ShareLinkRecord) => {
    const zones = new Set(sharedZoneIds(link));
    return <T extends { workzoneId: string }>(x: T) => zones.has(x.workzoneId);
  };

  /** A file of the session's shared zones (404 file-not-found otherwise). */
  async function sharedFile(token: string | null, linkId: string, fileId: string): Promise<{ session: ShareLinkSessionRecord; link: ShareLinkRecord; file: FileRecord }> {
    const { session, link } = await openSession(token, linkId);
    const file = isUuid(fileId) ? await repos().files.byRef(link.projectId, { uuid: fileId.toLowerCase() }) : null;
    if (!file || !inZones(link)(file)) throw notFound('file', fileId.slice(0, 200));
    return { session, link, file };
  }

  function requireOption(link: ShareLinkRecord, option: keyof ShareOptions): void {
    if (!link.shareOptions[option]) throw optionDisabled(option);
  }

  return {
    async facts(linkId) {
      const link = await usableLink(linkId);
      return {
        id: link.id, name: link.name, passwordProtected: link.passwordHash !== null, membershipRequired: link.membershipRequired,
        expiresAt: link.expiresAt, shareOptions: link.shareOptions,
      };
    },

    async open(linkId, input) {
      const link = await usableLink(linkId);
      if (link.membershipRequired && !input.userId) {
        throw new DomainError('unauthorized', 'sharelink-membership-required', 'This share link is for signed-in users: send your access token');
      }
      if (link.passwordHash !== null && !(input.password && (await hasher.verify(link.passwordHash, input.password)))) {
        throw new DomainError('unauthorized', 'sharelink-password-required', 'This share link needs its password', { passwordProtected: true });
      }
      const token = ids.secret(32);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + L.sessionSeconds * 1000);
      await repos().shareLinks.insertSession({ tokenHash: sha256Hex(token), shareLinkId: link.id, userId: input.userId, createdAt: now, expiresAt });
      return { token, expiresAt };
    },

    async scope(token, linkId) {
      const link = await sessionLink(token, linkId);
      const zones: SharedScope['zones'] = [];
      for (const id of sharedZoneIds(link)) {
        const w = await repos().workzones.byRef(link.projectId, { uuid: id });
        if (w) zones.push({ id: w.id, name: w.name });
      }
      return { link, zones };
    },

    async files(token, linkId) {
      const link = await sessionLink(token, linkId);
      return (await repos().files.list(link.projectId)).filter(inZones(link)).map((file) => ({ file }));
    },

    async fileUrl(token, linkId, fileId) {
      const { session, link, file } = await sharedFile(token, linkId, fileId);
      // The whole file would carry the points outside the box: a limited link reads them node by node.
      if (link.boxLimit && POINT_CLOUD_EXTENSIONS.has(file.extension.toLowerCase())) {
        throw new DomainError('forbidden', 'sharelink-box-limited', 'This share link limits its point clouds to a box: read this file through its point-cloud nodes, not whole', {
          fileId: file.id,
        });
      }
      const now = clock.now();
      const url = await objectStore.signDownload(
        { key: blobKey(link.projectId, file.blobName), expiresInSeconds: L.downloadSeconds, ...servedAs(file.extension, downloadName(file)) },
        now,
      );
      // A scan downloaded through the link counts for who opened it signed in, else for the
      // link's creator, who shared it (the report counts users; docs/usage.md).
      const userId = session.userId ?? link.createdBy;
      if (userId && file.category === 'scan') await usage.recordDownloads([{ projectId: link.projectId, userId, action: 'scans-downloaded', count: 1 }], now);
      return url;
    },

    async pointCloudFile(token, linkId, fileId) {
      const { link, file } = await sharedFile(token, linkId, fileId);
      return { file, boxLimit: link.boxLimit };
    },

    async tagLists(token, linkId) {
      const link = await sessionLink(token, linkId);
      requireOption(link, 'tags');
      const lists = (await repos().tags.listsOfProject(link.projectId)).filter(inZones(link));
      const out: SharedTagList[] = [];
      for (const list of lists) out.push({ list, tags: await repos().tags.tags(list.id, { all: true }) });
      return out;
    },

    async annotations(token, linkId) {
      const link = await sessionLink(token, linkId);
      const types = sharedAnnotationTypes(link.shareOptions);
      if (!types.length) throw optionDisabled('notes');
      return (await repos().annotations.list(link.projectId)).filter(inZones(link)).filter((a) => types.includes(a.annotationType));
    },

    async measurements(token, linkId) {
      const link = await sessionLink(token, linkId);
      requireOption(link, 'measurements');
      return (await repos().measurements.list(link.projectId)).filter(inZones(link));
    },

    async crops(token, linkId) {
      const link = await sessionLink(token, linkId);
      requireOption(link, 'crops');
      return (await repos().crops.list(link.projectId)).filter(inZones(link));
    },
  };
}
