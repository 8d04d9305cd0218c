// The share-links module's repository port (src/modules/sharelinks/postgres implements it).
import type { BoxLimit } from '../../pointclouds/index.ts';

export type { BoxLimit };

/** The vendor's ShareLinkOptions: what a link shows besides the zone's files. */
export interface ShareOptions {
  /** The additional zones of `sharedWorkzoneIds` are shared too. */
  workzones: boolean;
  /** Annotations of type "Note". */
  notes: boolean;
  /** Annotations of type "Issue" and "Resolved". */
  issues: boolean;
  measurements: boolean;
  crops: boolean;
  tags: boolean;
}

/** What a create or a PUT writes (the password as its hash). */
export interface ShareLinkFields {
  name: string;
  sharedWorkzoneIds: string[];
  passwordHash: string | null;
  expiresAt: Date | null;
  logoBlob: string | null;
  membershipRequired: boolean;
  shareOptions: ShareOptions;
  savedView: Record<string, unknown> | null;
  /**
   * Our extension (migration 0038): the box its sessions may see of the shared point clouds
   * (corners in the clouds' coordinates, inclusive); null: no limit.
   */
  boxLimit: BoxLimit | null;
}

export interface ShareLinkRecord extends ShareLinkFields {
  id: string;
  projectId: string;
  workzoneId: string;
  createdAt: Date;
  createdBy: string | null;
}

export interface ShareLinkSessionRecord {
  tokenHash: string;
  shareLinkId: string;
  /** The signed-in user who opened it (a link with membershipRequired), else null. */
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface ShareLinksRepo {
  byId(id: string): Promise<ShareLinkRecord | null>;
  /** Every link of the project, oldest first. */
  list(projectId: string): Promise<ShareLinkRecord[]>;
  insert(l: ShareLinkRecord): Promise<void>;
  update(id: string, f: ShareLinkFields): Promise<void>;
  remove(id: string): Promise<void>;
  insertSession(s: ShareLinkSessionRecord): Promise<void>;
  /** The session of this token hash with its link, in one read (null: no such session). */
  sessionWithLink(tokenHash: string): Promise<{ session: ShareLinkSessionRecord; link: ShareLinkRecord } | null>;
  /** Drops the link's sessions (a password change ends them). */
  removeSessions(shareLinkId: string): Promise<void>;
}

/** The module's repositories, as every executor of the store carries them (module.ts `repositories`). */
export interface ShareLinksRepos {
  shareLinks: ShareLinksRepo;
}
