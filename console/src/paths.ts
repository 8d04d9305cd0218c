// Addresses the console builds from what it did not write itself (issue 26 item 9): the ids
// in its own address (`/console/a/{account}/p/{project}?zone=…`) are checked before any of
// them enters an API path, and every such segment is encoded. A crafted link such as
// `?zone=../../../projects/P2/workzones/Z2` is refused as an address, never resolved by the
// browser into another project's path. Pure: no DOM, so the unit tests import it.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A connect job's slug: 16 random bytes in base64url (docs/connect.md). */
const SLUG = /^[A-Za-z0-9_-]{16,64}$/;

export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
export const isSlug = (v: unknown): v is string => typeof v === 'string' && SLUG.test(v);

/** A value that cannot be one path segment (empty, `.`, `..`, or undecodable). */
export class UnsafeSegment extends Error {}

/**
 * One path segment: encoded (a `/`, `?` or `#` in it stays inside the segment), never a dot
 * segment, which the URL parser would resolve even encoded (`%2e%2e` is `..` to it).
 */
export function segment(value: string): string {
  const encoded = encodeURIComponent(value);
  if (value === '' || /^(\.|%2e){1,2}$/i.test(encoded)) throw new UnsafeSegment(`Not a usable path segment: "${value}"`);
  return encoded;
}

/**
 * An API path whose every interpolated value is one encoded segment: write the constant
 * parts in the template (``apiPath`/api/2/accounts/${id}` ``); a plain string put where a
 * prefix belongs is encoded as one segment and the path fails isNormalPath. A value that is
 * itself an ApiPath (a screen's base) is kept as built.
 */
export class ApiPath {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export function apiPath(strings: TemplateStringsArray, ...values: (string | ApiPath)[]): ApiPath {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += (v instanceof ApiPath ? v.value : segment(v)) + strings[i + 1]!;
  });
  return new ApiPath(out);
}

/**
 * A path the browser would send elsewhere than written (a dot segment, a backslash, `//`):
 * the last guard of api(), whatever built the path.
 */
export function isNormalPath(path: string): boolean {
  const p = path.split(/[?#]/, 1)[0]!;
  if (!p.startsWith('/') || p.includes('\\') || p.includes('//')) return false;
  return p.split('/').every((s) => !/^(\.|%2e){1,2}$/i.test(s));
}

/** The screens, with their ids checked; `invalid` names the part of the address that is not an id. */
export type Route =
  | { screen: 'accounts' }
  | { screen: 'me' }
  | { screen: 'operator' }
  /** A share link opened without an account (docs/share-links.md): /console/share/{id}. */
  | { screen: 'shared'; link: string }
  | { screen: 'projects' | 'users' | 'groups' | 'roles' | 'reports' | 'sso' | 'integrations'; account: string }
  | { screen: 'project'; account: string; project: string; zone: string | null; tab: string; job: string | null }
  | { screen: 'tag-list'; account: string; project: string; tagList: string; tag: string | null }
  | { screen: 'callback' }
  | { screen: 'not-found' }
  | { screen: 'invalid'; part: string };

const TABS = new Set(['files', 'tags', 'members', 'crops', 'annotations', 'measurements', 'connect', 'copy']);
const ACCOUNT_SCREENS = new Set(['users', 'groups', 'roles', 'reports', 'sso', 'integrations']);

/** The screen at a console address (path and query), ids checked. */
export function routeOf(path: string, query: URLSearchParams): Route {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'console') return { screen: 'not-found' };
  let s: string[];
  try {
    s = parts.slice(1).map(decodeURIComponent);
  } catch {
    return { screen: 'invalid', part: 'address' };
  }
  if (s.length === 0) return { screen: 'accounts' };
  if (s.length === 1 && s[0] === 'callback') return { screen: 'callback' };
  if (s.length === 1 && s[0] === 'me') return { screen: 'me' };
  if (s.length === 1 && s[0] === 'operator') return { screen: 'operator' };
  if (s[0] === 'share' && s.length === 2) return isUuid(s[1]!) ? { screen: 'shared', link: s[1]!.toLowerCase() } : { screen: 'invalid', part: 'share link' };
  if (s[0] !== 'a' || s.length < 2) return { screen: 'not-found' };
  const account = s[1]!;
  if (!isUuid(account)) return { screen: 'invalid', part: 'account' };
  if (s.length === 2) return { screen: 'projects', account };
  if (s.length === 3 && ACCOUNT_SCREENS.has(s[2]!)) return { screen: s[2] as 'users', account };
  if (s[2] !== 'p' || s.length < 4) return { screen: 'not-found' };
  const project = s[3]!;
  if (!isUuid(project)) return { screen: 'invalid', part: 'project' };
  if (s.length === 4) {
    const zone = query.get('zone') || null;
    if (zone !== null && !isUuid(zone)) return { screen: 'invalid', part: 'zone' };
    const tab = query.get('tab') ?? 'files';
    if (!TABS.has(tab)) return { screen: 'invalid', part: 'tab' };
    const job = query.get('job') || null;
    // A copy's job is a UUID, a connect job a slug.
    if (job !== null && !(tab === 'copy' ? isUuid(job) : tab === 'connect' && isSlug(job))) return { screen: 'invalid', part: 'job' };
    return { screen: 'project', account, project, zone, tab, job };
  }
  if (s.length === 6 && s[4] === 't') {
    const tagList = s[5]!;
    if (!isUuid(tagList)) return { screen: 'invalid', part: 'tag list' };
    const tag = query.get('tag');
    return { screen: 'tag-list', account, project, tagList, tag: tag || null };
  }
  return { screen: 'not-found' };
}
