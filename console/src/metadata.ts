// A tag list's metadata as the console edits it: the definitions (id, name) a list holds,
// and the values (id, value) a tag holds for them. Pure rules, checked without a browser;
// the service checks them again (docs/tags.md "Limits and capacity").
import type { Tag, TagList } from './types.ts';

export type Definition = TagList['metadataDefinition'][number];
type MetadataValue = NonNullable<Tag['data']['metadata']>[number];

/**
 * The metadata the form's values describe: one entry per definition with a non-empty value,
 * in the definitions' order. Values of ids the list no longer defines are dropped (the
 * service refuses a tag naming an undefined id); `dropped` counts them for the page to say so.
 */
export function metadataOf(definitions: readonly Definition[], values: Readonly<Record<string, string>>, stored: readonly MetadataValue[]): { metadata: MetadataValue[]; dropped: number } {
  const defined = new Set(definitions.map((d) => d.id));
  const metadata = definitions.filter((d) => (values[d.id] ?? '').trim() !== '').map((d) => ({ id: d.id, value: values[d.id]!.trim() }));
  return { metadata, dropped: stored.filter((m) => !defined.has(m.id)).length };
}

/** The service's limits (docs/tags.md "Limits and capacity"), checked again by it. */
const MAX_DEFINITIONS = 50;
export const MAX_DEFINITION_NAME = 100;

/** The definitions to send, or the reason they are not valid yet. */
export function definitionsOf(rows: readonly Definition[]): Definition[] | string {
  const out = rows.map((r) => ({ id: r.id, name: r.name.trim() }));
  if (out.length > MAX_DEFINITIONS) return `A tag list has at most ${MAX_DEFINITIONS} metadata definitions.`;
  const empty = out.findIndex((r) => !r.name);
  if (empty >= 0) return `Definition ${empty + 1} needs a name.`;
  const long = out.find((r) => r.name.length > MAX_DEFINITION_NAME);
  if (long) return `"${long.name.slice(0, 20)}…" is longer than ${MAX_DEFINITION_NAME} characters.`;
  const seen = new Set<string>();
  for (const r of out) {
    if (seen.has(r.name.toLowerCase())) return `Two definitions are named "${r.name}".`;
    seen.add(r.name.toLowerCase());
  }
  return out;
}

