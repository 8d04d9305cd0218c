// SCIM PATCH (RFC 7644 §3.5.2), pure: the operations an IdP sends, turned into the changes of
// a user or a group. Tolerant of the IdPs' dialects: Entra ID's capitalised ops ("Replace") and
// string booleans ("False"), Okta's path-less `{"op":"replace","value":{"active":false}}`,
// schema-qualified paths (`urn:ietf:params:scim:schemas:core:2.0:User:name.givenName`),
// member removal by `members[value eq "…"]` or by `members` with a value list.
// Attributes Scanbase does not keep (phone numbers, addresses, the enterprise extension…)
// are accepted and ignored, as a provisioning client expects.
import { parseFilter, type Filter } from './filter.ts';
import { scimInvalid, ScimError } from './scim-error.ts';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** Most operations one PATCH may carry (a group's members arrive in batches of a few hundred). */
export const PATCH_MAX_OPERATIONS = 1000;

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | null;
  value: unknown;
}

export interface UserChanges {
  userName?: string;
  givenName?: string;
  familyName?: string;
  title?: string;
  externalId?: string | null;
  active?: boolean;
}

export interface GroupChanges {
  displayName?: string;
  externalId?: string | null;
  /** Every member at once (replace, or remove of all), applied before additions and removals. */
  replaceMembers?: string[];
  addMembers: string[];
  removeMembers: string[];
}

/** The operations of a PatchOp body; anything else answers 400 invalidSyntax. */
export function patchOperations(body: unknown): PatchOperation[] {
  if (!body || typeof body !== 'object') throw scimInvalid('the body must be a PatchOp message', 'invalidSyntax');
  const b = body as Record<string, unknown>;
  const schemas = b.schemas;
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA)) throw scimInvalid(`schemas must contain ${PATCH_OP_SCHEMA}`, 'invalidSyntax');
  const ops = b.Operations ?? b.operations;
  if (!Array.isArray(ops) || ops.length === 0) throw scimInvalid('Operations must be a non-empty array', 'invalidSyntax');
  if (ops.length > PATCH_MAX_OPERATIONS) throw new ScimError(413, `at most ${PATCH_MAX_OPERATIONS} operations per request`);
  return ops.map((raw): PatchOperation => {
    if (!raw || typeof raw !== 'object') throw scimInvalid('each operation must be an object', 'invalidSyntax');
    const o = raw as Record<string, unknown>;
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw scimInvalid(`unknown op ${String(o.op)}`, 'invalidSyntax');
    if (o.path !== undefined && o.path !== null && typeof o.path !== 'string') throw scimInvalid('path must be a string', 'invalidPath');
    const path = typeof o.path === 'string' && o.path.trim() !== '' ? o.path.trim() : null;
    if (op === 'remove' && path === null) throw scimInvalid('remove needs a path', 'noTarget');
    if (op !== 'remove' && o.value === undefined) throw scimInvalid(`${op} needs a value`, 'invalidValue');
    return { op, path, value: o.value };
  });
}

/** A path without its core schema's prefix, lower-cased (`urn:…:core:2.0:User:name.givenName` → `name.givenname`). */
export function barePath(path: string): string {
  const lower = path.toLowerCase();
  for (const prefix of ['urn:ietf:params:scim:schemas:core:2.0:user:', 'urn:ietf:params:scim:schemas:core:2.0:group:']) {
    if (lower.startsWith(prefix)) return lower.slice(prefix.length);
  }
  return lower;
}

/** A SCIM boolean: true/false, or Entra ID's strings "True"/"False". */
export function scimBoolean(name: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw scimInvalid(`${name} must be a boolean`);
}

export function scimString(name: string, v: unknown, max: number): string {
  if (typeof v !== 'string') throw scimInvalid(`${name} must be a string`);
  if (v.length > max) throw scimInvalid(`${name} is longer than ${max} characters`);
  return v.trim();
}

const nullableString = (name: string, v: unknown, max: number): string | null => (v === null ? null : scimString(name, v, max));

/** Longest name, title or externalId kept. */
export const TEXT_MAX = 200;

/** The changes a PATCH makes to a user. */
export function userChanges(ops: PatchOperation[]): UserChanges {
  const c: UserChanges = {};
  const set = (path: string, v: unknown) => {
    const p = barePath(path);
    if (p === 'active') c.active = scimBoolean('active', v);
    else if (p === 'username') c.userName = scimString('userName', v, 320);
    else if (p === 'externalid') c.externalId = nullableString('externalId', v, TEXT_MAX);
    else if (p === 'title') c.title = scimString('title', v, TEXT_MAX);
    else if (p === 'name.givenname') c.givenName = scimString('name.givenName', v, TEXT_MAX);
    else if (p === 'name.familyname') c.familyName = scimString('name.familyName', v, TEXT_MAX);
    else if (p === 'name') {
      if (!v || typeof v !== 'object') throw scimInvalid('name must be an object');
      for (const [k, inner] of Object.entries(v)) set(`name.${k}`, inner);
    }
  };
  for (const o of ops) {
    if (o.op === 'remove') {
      const p = barePath(o.path!);
      if (p === 'externalid') c.externalId = null;
      else if (p === 'title') c.title = '';
      else if (p === 'name.givenname') c.givenName = '';
      else if (p === 'name.familyname') c.familyName = '';
      else if (p === 'username' || p === 'active') throw scimInvalid(`${o.path} cannot be removed`, 'mutability');
      continue;
    }
    if (o.path === null) {
      if (!o.value || typeof o.value !== 'object' || Array.isArray(o.value)) throw scimInvalid('a path-less operation needs an object value');
      for (const [k, v] of Object.entries(o.value)) set(k, v);
    } else set(o.path, o.value);
  }
  return c;
}

/** The member ids of a `members` value: `[{ value: id }, …]` (or one such object). */
export function memberIds(v: unknown): string[] {
  const list = Array.isArray(v) ? v : [v];
  return list.map((m) => {
    if (!m || typeof m !== 'object' || typeof (m as Record<string, unknown>).value !== 'string') throw scimInvalid('members must be objects with a value');
    return (m as { value: string }).value;
  });
}

/** The member ids a `members[value eq "…"]` path names. */
function membersOfValueFilter(path: string): string[] {
  const open = path.indexOf('[');
  if (!path.endsWith(']') || barePath(path.slice(0, open)) !== 'members') throw scimInvalid(`unsupported path ${path}`, 'invalidPath');
  const ids: string[] = [];
  const walk = (f: Filter) => {
    if (f.kind === 'or') { walk(f.left); walk(f.right); return; }
    if (f.kind === 'compare' && f.op === 'eq' && f.path.toLowerCase() === 'value' && typeof f.value === 'string') { ids.push(f.value); return; }
    throw scimInvalid(`unsupported member filter in ${path}`, 'invalidPath');
  };
  walk(parseFilter(path.slice(open + 1, -1)));
  return ids;
}

/** The changes a PATCH makes to a group. */
export function groupChanges(ops: PatchOperation[]): GroupChanges {
  const c: GroupChanges = { addMembers: [], removeMembers: [] };
  const set = (op: 'add' | 'replace', path: string, v: unknown) => {
    const p = barePath(path);
    if (p === 'displayname') c.displayName = scimString('displayName', v, TEXT_MAX);
    else if (p === 'externalid') c.externalId = nullableString('externalId', v, TEXT_MAX);
    else if (p === 'members') {
      if (op === 'replace') { c.replaceMembers = memberIds(v); c.addMembers = []; c.removeMembers = []; }
      else c.addMembers.push(...memberIds(v));
    }
  };
  for (const o of ops) {
    if (o.op === 'remove') {
      const path = o.path!;
      if (path.includes('[')) c.removeMembers.push(...membersOfValueFilter(path));
      else if (barePath(path) === 'members') {
        if (o.value === undefined || o.value === null) { c.replaceMembers = []; c.addMembers = []; c.removeMembers = []; }
        else c.removeMembers.push(...memberIds(o.value));
      } else if (barePath(path) === 'externalid') c.externalId = null;
      else if (barePath(path) === 'displayname') throw scimInvalid('displayName cannot be removed', 'mutability');
      continue;
    }
    if (o.path === null) {
      if (!o.value || typeof o.value !== 'object' || Array.isArray(o.value)) throw scimInvalid('a path-less operation needs an object value');
      for (const [k, v] of Object.entries(o.value)) set(o.op, k, v);
    } else if (o.path.includes('[')) throw scimInvalid(`unsupported path ${o.path}`, 'invalidPath');
    else set(o.op, o.path, o.value);
  }
  return c;
}
