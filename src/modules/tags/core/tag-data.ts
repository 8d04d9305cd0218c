// TagData and tag-list definitions in pure code: geometry (geometry.ts), the limits of
// CONTRACT §8 (50 metadata definitions, 10 custom fields) and the reserved metadata names.
import { DomainError, invalidInput } from '../../../core/errors.ts';
import type { MetadataDefinition } from './ports.ts';
import { withBoundingBox, type TagWhere } from './geometry.ts';

export const MAX_TAGS_PER_LIST = 50_000;
export const MAX_METADATA_DEFINITIONS = 50;
export const MAX_CUSTOM_FIELDS = 10;
export const DEFAULT_TAG_LIST_COLOR = '#6b7785';
export const COLOR_RE = /^#[0-9a-fA-F]{6}$/;

/** Names a metadata definition may not take (they are TagData or viewer fields; vendor TagListMetadataDefinition). */
export const RESERVED_METADATA_NAMES: readonly string[] = [
  'id', 'description', 'cameraState', 'model', 'x', 'y', 'z', 'size', 'xMin', 'xMax', 'yMin', 'yMax', 'zMin', 'zMax',
  'scanUuids', 'subId', 'nature', 'confidence', 'needValidation',
];

export type TagData = Record<string, unknown> & {
  id?: string;
  metadata?: { id: string; value: string }[];
  customFields?: { name: string; value: string }[];
};

export const tooManyTags = (listId: string, wanted: number) =>
  new DomainError('invalid', 'too-many-tags', `A tag list holds at most ${MAX_TAGS_PER_LIST} tags (this change would make ${wanted})`, {
    tagListId: listId, limit: MAX_TAGS_PER_LIST,
  });

/** Checks and normalises metadata definitions: at most 50, unique ids, trimmed non-reserved names. */
export function checkMetadataDefinitions(defs: readonly MetadataDefinition[] | null | undefined): MetadataDefinition[] {
  const list = defs ?? [];
  if (list.length > MAX_METADATA_DEFINITIONS) {
    throw invalidInput(`A tag list has at most ${MAX_METADATA_DEFINITIONS} metadata definitions`, { field: 'metadataDefinitions', limit: MAX_METADATA_DEFINITIONS });
  }
  const seen = new Set<string>();
  return list.map((d, i) => {
    const field = `metadataDefinitions[${i}]`;
    if (typeof d?.id !== 'string' || !d.id || d.id.length > 255) throw invalidInput(`${field}.id must be 1 to 255 characters`, { field: `${field}.id` });
    if (seen.has(d.id)) throw invalidInput(`${field}.id ${d.id} is defined twice`, { field: `${field}.id` });
    seen.add(d.id);
    const name = typeof d.name === 'string' ? d.name.trim() : '';
    if (!name || name.length > 100) throw invalidInput(`${field}.name must be 1 to 100 characters`, { field: `${field}.name` });
    if (RESERVED_METADATA_NAMES.includes(name)) throw invalidInput(`${field}.name "${name}" is reserved`, { field: `${field}.name`, reserved: name });
    return { id: d.id, name };
  });
}

export function checkColor(color: string | null | undefined): string {
  if (color === null || color === undefined || color === '') return DEFAULT_TAG_LIST_COLOR;
  if (!COLOR_RE.test(color)) throw invalidInput('color must be #rrggbb', { field: 'color' });
  return color.toLowerCase();
}

/**
 * A tag's data as stored: geometry checked and its boundingBox completed, custom fields and
 * metadata within limits, metadata ids among the list's definitions (when `defined` is given).
 */
export function normaliseTagData(data: TagData, where: TagWhere, defined: ReadonlySet<string> | null): TagData {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalidInput('A tag needs a data object', { field: 'data', tagIndex: where.index });
  const at = { ...where, ...(typeof data.id === 'string' ? { id: data.id } : {}) };
  const values = (field: string) => ({ field, ...(at.index !== undefined ? { tagIndex: at.index } : {}), ...(at.id !== undefined ? { tagId: at.id } : {}) });
  if (data.customFields !== undefined) {
    if (!Array.isArray(data.customFields)) throw invalidInput('customFields must be an array', values('customFields'));
    if (data.customFields.length > MAX_CUSTOM_FIELDS) {
      throw invalidInput(`A tag has at most ${MAX_CUSTOM_FIELDS} custom fields`, { ...values('customFields'), limit: MAX_CUSTOM_FIELDS });
    }
  }
  if (data.metadata !== undefined) {
    if (!Array.isArray(data.metadata)) throw invalidInput('metadata must be an array', values('metadata'));
    if (data.metadata.length > MAX_METADATA_DEFINITIONS) {
      throw invalidInput(`A tag has at most ${MAX_METADATA_DEFINITIONS} metadata values`, { ...values('metadata'), limit: MAX_METADATA_DEFINITIONS });
    }
    if (defined) {
      data.metadata.forEach((m, i) => {
        if (!defined.has(m?.id)) throw invalidInput(`metadata[${i}].id ${String(m?.id)} is not defined on the tag list`, values(`metadata[${i}].id`));
      });
    }
  }
  return withBoundingBox(data, at);
}

/** Metadata entries whose id is still defined (cleanRemovedMetadataIds), or null when nothing changes. */
export function cleanMetadata(data: TagData, defined: ReadonlySet<string>): TagData | null {
  if (!Array.isArray(data.metadata)) return null;
  const kept = data.metadata.filter((m) => defined.has(m.id));
  return kept.length === data.metadata.length ? null : { ...data, metadata: kept };
}

/** Maps metadata ids (bulk-move's metadataIdMapping), then keeps those the target defines. */
export function remapMetadata(data: TagData, mapping: ReadonlyMap<string, string>, defined: ReadonlySet<string>): TagData {
  if (!Array.isArray(data.metadata)) return data;
  const metadata = data.metadata.map((m) => ({ id: mapping.get(m.id) ?? m.id, value: m.value })).filter((m) => defined.has(m.id));
  return { ...data, metadata };
}
