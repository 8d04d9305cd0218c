// The shape of each API generation's tag text (registered by the HTTP layer, which owns the
// presentation), so that every write of tags also stores the text each generation will
// send: a whole-list read then copies stored text (docs/tags.md, "Reading whole lists").
// Nothing registered: nothing stored, and reads write the text themselves as before.
import type { TagJsonShape, TagListRecord } from '../ports/tags.ts';

export type TagShapeOf = (list: TagListRecord) => TagJsonShape;

export class TagTexts {
  private readonly byGeneration = new Map<1 | 2, TagShapeOf>();

  /** The shape `generation` sends for a list (its `generation` field is set here). */
  register(generation: 1 | 2, shapeOf: TagShapeOf): void {
    this.byGeneration.set(generation, (list) => ({ ...shapeOf(list), generation }));
  }

  /** The shape `generation` registered, for a list: what its reads write and its writes store. */
  shapeOf(generation: 1 | 2, list: TagListRecord): TagJsonShape {
    const f = this.byGeneration.get(generation);
    if (!f) throw new Error(`no tag shape registered for API generation ${generation}`);
    return f(list);
  }

  /** The shapes to store for a list's tags. */
  shapesOf(list: TagListRecord): TagJsonShape[] {
    return [...this.byGeneration.values()].map((f) => f(list));
  }
}
