// The idioms over an EntityRef (a path's reference: a UUID or an API 1 id), named once.
// (refValue, the reference as written, is in urn.ts beside the type.) They take any reference
// of either spelling: an EntityRef (urn.ts) or a repository's Ref (ports/project-repositories.ts).

import { uuidOfApi1Id } from './api1-id.ts';

/** A reference by UUID or by API 1 id. */
type AnyRef = { uuid: string } | { api1Id: string };

/**
 * The reference as a key of a per-node cache or map: its UUID, or `api1:<id>` (the two
 * spellings of one entity are two keys, each holding the same value).
 */
export const refKey = (ref: AnyRef): string => ('uuid' in ref ? ref.uuid : `api1:${ref.api1Id}`);

/** The UUID the reference names: its own, or the one its API 1 id encodes (null when it encodes none). */
export const refUuid = (ref: AnyRef): string | null => ('uuid' in ref ? ref.uuid : uuidOfApi1Id(ref.api1Id));

/** A look-up by reference: `byId` for a UUID, `byApi1Id` for an API 1 id (each called on `finder`). */
export const findByRef = <T>(finder: { byId(id: string): T; byApi1Id(api1Id: string): T }, ref: AnyRef): T =>
  'uuid' in ref ? finder.byId(ref.uuid) : finder.byApi1Id(ref.api1Id);
