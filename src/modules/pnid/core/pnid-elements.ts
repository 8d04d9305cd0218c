// P&ID elements (vendor BETA addPnIdElementsInTagList): instruments and pipes detected on the
// pages of a 2d tag list's attachments, added as tags through the tags module's bulk change
// (docs/pnid.md). Pure planning here: each element becomes one TagData with a konva shape.
import { DomainError, invalidInput } from '../../../core/errors.ts';
import type { EntityRef } from '../../../core/ids/urn.ts';
import type { Actor } from '../../../core/permissions/authorizer.ts';
import type { TagListRecord } from '../../tags/index.ts';
import type { TagData, TagLists } from '../../tags/index.ts';

export type Point2D = readonly [number, number];

export interface PnIdInstrument {
  name: string;
  class?: string | null;
  confidence?: number | null;
  /** `[[xMin, yMin], [xMax, yMax]]`. */
  location: readonly [Point2D, Point2D];
}

export interface PnIdPipe {
  name: string;
  segments: readonly Point2D[];
}

export interface PnIdPage {
  attachmentId: string;
  /** The page's position in its attachment (from 1). */
  index: number;
  instruments?: readonly PnIdInstrument[] | null;
  pipes?: readonly PnIdPipe[] | null;
}

/** TagData.name and TagData.class hold at most 50 characters (vendor TagData): longer names are cut, the whole name kept in `description`. */
export const TAG_NAME_CHARS = 50;

interface StoredPage { id?: unknown; index?: unknown }
interface StoredAttachment { id?: unknown; pages?: unknown }

/** The stored page an element page names (attachment id and index), or null. */
export function findPage(attachments: readonly unknown[] | null, attachmentId: string, index: number): { id: string } | null {
  for (const a of (attachments ?? []) as StoredAttachment[]) {
    if (a?.id !== attachmentId || !Array.isArray(a.pages)) continue;
    const page = (a.pages as StoredPage[]).find((p) => (p?.index ?? 0) === index);
    if (page && typeof page.id === 'string') return { id: page.id };
  }
  return null;
}

const named = (name: string): { name: string; description?: string } =>
  name.length > TAG_NAME_CHARS ? { name: name.slice(0, TAG_NAME_CHARS), description: name } : { name };

const konva = (points: readonly number[], closed: boolean) => ({
  type: 'konva', data: JSON.stringify({ className: 'Line', attrs: { points, closed } }),
});

/**
 * The tags an element upload adds, in body order (each page's instruments, then its pipes),
 * after checking it: at least one element per page, every page found on the list, a 2d list, a
 * confidence in [0, 1], an instrument's corners in order.
 */
export function planPnIdTags(list: TagListRecord, pages: readonly PnIdPage[]): TagData[] {
  const tags: TagData[] = [];
  pages.forEach((p, i) => {
    const field = `pages[${i}]`;
    const instruments = p.instruments ?? [];
    const pipes = p.pipes ?? [];
    if (!instruments.length && !pipes.length) throw invalidInput(`${field} needs at least one instrument or one pipe`, { field });
    const page = findPage(list.attachments, p.attachmentId, p.index);
    if (!page) {
      throw new DomainError('invalid', 'invalid-input', `${field}: the tag list has no page ${p.index} in attachment ${p.attachmentId}`, {
        field, attachmentId: p.attachmentId, index: p.index,
      });
    }
    // After the page: a request naming pages the list lacks is told so first, whatever the list.
    if (list.tagListType !== '2d') throw invalidInput('P&ID elements go on a 2d tag list', { field: 'tagListType', tagListType: list.tagListType });
    instruments.forEach((e, k) => {
      const [[x0, y0], [x1, y1]] = e.location;
      if (x0 > x1 || y0 > y1) throw invalidInput(`${field}.instruments[${k}].location must be [[xMin, yMin], [xMax, yMax]]`, { field: `${field}.instruments[${k}].location` });
      if (e.confidence != null && !(e.confidence >= 0 && e.confidence <= 1)) {
        throw invalidInput(`${field}.instruments[${k}].confidence must be within [0, 1]`, { field: `${field}.instruments[${k}].confidence` });
      }
      tags.push({
        ...named(e.name), pageId: page.id, nature: 'AI', class: (e.class ?? 'instrument').slice(0, TAG_NAME_CHARS),
        ...(e.confidence != null ? { confidence: e.confidence } : {}),
        model: konva([x0, y0, x1, y0, x1, y1, x0, y1], true),
        customFields: [{ name: 'pnidElement', value: 'instrument' }],
      });
    });
    pipes.forEach((e) => {
      tags.push({
        ...named(e.name), pageId: page.id, nature: 'AI', class: 'pipe',
        model: konva(e.segments.flat(), false),
        customFields: [{ name: 'pnidElement', value: 'pipe' }],
      });
    });
  });
  return tags;
}

/** Adding P&ID elements to a tag list. */
export interface PnIdElements {
  /**
   * Adds every element as a tag (never changes or removes one), all or nothing, with the
   * tags module's bulk change: `workzone:tags:write` on the list's zone, the subscription's
   * tag capacity, 50,000 tags per list. Answers the list after the change.
   */
  addPnIdElementsInTagList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, listRef: EntityRef, pages: readonly PnIdPage[]): Promise<TagListRecord>;
}

export function createPnIdElements(deps: { tagLists: TagLists }): PnIdElements {
  const { tagLists } = deps;
  return {
    async addPnIdElementsInTagList(actor, accountRef, projectRef, listRef, pages) {
      // The pages are read, then the tags written in the bulk change's own transaction: a page
      // removed in between leaves its new tags pointing at a page id that is gone (docs/pnid.md).
      const list = await tagLists.getTagList(actor, accountRef, projectRef, listRef);
      const insert = planPnIdTags(list, pages);
      return (await tagLists.bulkTags(actor, accountRef, projectRef, { uuid: list.id, type: 'tag-list' }, { insert })).list;
    },
  };
}
