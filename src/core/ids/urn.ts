// URNs and path references (CONTRACT §2): `urn:<ns>:<type>:<uuid>`; a reference may be
// a URN, a raw UUID or an API 1 id. API 1 never accepts URNs.
import { DomainError } from '../errors.ts';

export const URN_TYPES = [
  'account', 'user', 'subscription', 'role', 'group', 'project', 'workzone',
  'file', 'crop', 'tag-list', 'tag', 'format', 'webhook', 'annotation', 'annotation-comment', 'measurement', 'sharelink', 'newforma-konekt-hub',
] as const;
export type UrnType = (typeof URN_TYPES)[number];

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const API1_RE = /^[a-zA-Z0-9_-]{1,50}$/;

export const isUuid = (s: string): boolean => UUID_RE.test(s);
export const isApi1Id = (s: string): boolean => API1_RE.test(s);

/** A parsed reference: the core looks it up by UUID or by API 1 id. */
export type EntityRef = { type: UrnType; uuid: string } | { type: UrnType; api1Id: string };

/** The reference's value as the repositories look it up: the UUID, or else the API 1 id. */
export const refValue = (ref: EntityRef): string => ('uuid' in ref ? ref.uuid : ref.api1Id);

export function formatUrn(ns: string, type: UrnType, uuid: string): string {
  return `urn:${ns}:${type}:${uuid}`;
}

export const invalidUrn = (type: UrnType, ref: string) =>
  new DomainError('invalid', `invalid-${type}-urn` as const, `Not a valid ${type} reference: ${ref.slice(0, 200)}`, {
    [type]: ref.slice(0, 200),
  });

/** API 2 reference: URN (of the right type), UUID or API 1 id. */
export function parseApi2Ref(ns: string, type: UrnType, ref: string): EntityRef {
  if (ref.startsWith('urn:')) {
    const parts = ref.split(':');
    if (parts.length !== 4 || parts[1] !== ns || parts[2] !== type || !UUID_RE.test(parts[3]!)) {
      throw invalidUrn(type, ref);
    }
    return { type, uuid: parts[3]!.toLowerCase() };
  }
  return parseApi1Ref(type, ref);
}

/** API 1 reference: UUID or API 1 id, never a URN. */
export function parseApi1Ref(type: UrnType, ref: string): EntityRef {
  if (UUID_RE.test(ref)) return { type, uuid: ref.toLowerCase() };
  if (API1_RE.test(ref)) return { type, api1Id: ref };
  throw invalidUrn(type, ref);
}

/** Parses a full URN of the given type (e.g. a token's `sub`); null when it is not one. */
export function uuidOfUrn(ns: string, type: UrnType, urn: string): string | null {
  const parts = urn.split(':');
  if (parts.length !== 4 || parts[0] !== 'urn' || parts[1] !== ns || parts[2] !== type) return null;
  return UUID_RE.test(parts[3]!) ? parts[3]!.toLowerCase() : null;
}
