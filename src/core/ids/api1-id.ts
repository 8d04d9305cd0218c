// API 1 ids (CONTRACT §2): derived from the internal UUID as the base64url of its 16
// bytes (22 characters of [A-Za-z0-9_-]), so either form converts to the other without
// a lookup and presenters of both generations need no extra query.
import { isUuid } from './urn.ts';

export function api1IdOf(uuid: string): string {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
}

/** The UUID behind a derived API 1 id, or null when the id is not one. */
export function uuidOfApi1Id(api1Id: string): string | null {
  if (!/^[A-Za-z0-9_-]{22}$/.test(api1Id)) return null;
  const hex = Buffer.from(api1Id, 'base64url').toString('hex');
  if (hex.length !== 32) return null;
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return isUuid(uuid) && api1IdOf(uuid) === api1Id ? uuid : null;
}
