// The tag JSON of each API generation (described by the presentation, src/http/api*/tag-json.ts,
// and handed over by compose), so that every write of tags also stores the text each
// generation will send: a whole-list read then copies stored text (docs/tags.md, "Reading
// whole lists").
import type { TagJsonShape, TagListRecord } from './ports.ts';
import { tagShapeOf, type TagJsonDescription } from './tag-json.ts';

export class TagTexts {
  private readonly byGeneration = new Map<1 | 2, TagJsonDescription>();

  constructor(descriptions: readonly TagJsonDescription[]) {
    for (const d of descriptions) this.byGeneration.set(d.generation, d);
  }

  /** The shape `generation` sends for a list: what its reads write and its writes store. */
  shapeOf(generation: 1 | 2, list: TagListRecord): TagJsonShape {
    const d = this.byGeneration.get(generation);
    if (!d) throw new Error(`no tag JSON described for API generation ${generation}`);
    return tagShapeOf(d, list);
  }

  /** The shapes to store for a list's tags. */
  shapesOf(list: TagListRecord): TagJsonShape[] {
    return [...this.byGeneration.values()].map((d) => tagShapeOf(d, list));
  }
}
