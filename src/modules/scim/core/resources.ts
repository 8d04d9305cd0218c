// The SCIM resources (RFC 7643) as the surface presents them, pure: a user of the account,
// a group of the account, and the list response with its pagination (RFC 7644 §3.4.2.4).
import type { GroupRecord } from '../../groups/index.ts';
import type { ScimUserView } from './ports.ts';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** Page size when the IdP names none, and the largest it may ask (ServiceProviderConfig filter.maxResults). */
export const PAGE = { defaultCount: 100, maxCount: 1000 } as const;

export type Resource = Record<string, unknown>;

export function userResource(u: ScimUserView, baseUrl: string): Resource {
  const formatted = `${u.firstName} ${u.lastName}`.trim();
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.externalId !== null ? { externalId: u.externalId } : {}),
    userName: u.userName,
    name: { givenName: u.firstName, familyName: u.lastName, formatted },
    displayName: formatted || u.email,
    ...(u.title ? { title: u.title } : {}),
    emails: [{ value: u.email, type: 'work', primary: true }],
    active: u.member,
    meta: { resourceType: 'User', created: u.createdAt.toISOString(), lastModified: u.updatedAt.toISOString(), location: `${baseUrl}/Users/${u.id}` },
  };
}

export function groupResource(g: GroupRecord, externalId: string | null, emails: Map<string, string>, baseUrl: string, withMembers = true): Resource {
  return {
    schemas: [GROUP_SCHEMA],
    id: g.id,
    ...(externalId !== null ? { externalId } : {}),
    displayName: g.name,
    ...(withMembers
      ? { members: g.userIds.map((id) => ({ value: id, display: emails.get(id) ?? id, type: 'User', $ref: `${baseUrl}/Users/${id}` })) }
      : {}),
    meta: { resourceType: 'Group', created: g.createdAt.toISOString(), lastModified: g.updatedAt.toISOString(), location: `${baseUrl}/Groups/${g.id}` },
  };
}

export interface Page {
  /** 1-based index of the first resource (RFC 7644: a value below 1 is 1). */
  startIndex: number;
  count: number;
}

/** startIndex and count as the query gives them: absent or below range are the defaults, count at most PAGE.maxCount. */
export function pageOf(startIndex: number | undefined, count: number | undefined): Page {
  return {
    startIndex: startIndex === undefined || !Number.isFinite(startIndex) || startIndex < 1 ? 1 : Math.floor(startIndex),
    count: count === undefined || !Number.isFinite(count) ? PAGE.defaultCount : Math.min(Math.max(0, Math.floor(count)), PAGE.maxCount),
  };
}

export function listResponse(all: Resource[], page: Page): Resource {
  const slice = all.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
  return { schemas: [LIST_SCHEMA], totalResults: all.length, startIndex: page.startIndex, itemsPerPage: slice.length, Resources: slice };
}
