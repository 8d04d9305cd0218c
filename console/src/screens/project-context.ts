// What the panels of a project's screen share: the project, its API base, and the caller's
// permissions in the chosen zone.
import { uuidOf } from '../api.ts';
import type { ApiPath } from '../paths.ts';
import type { Project } from '../types.ts';

export interface Ctx {
  accountId: string;
  project: Project;
  base: ApiPath;
  /** The caller's permissions in the chosen zone (undefined while they load). */
  perms: ReadonlySet<string> | undefined;
}

/** One id in its URN or bare UUID form. */
export const same = (a: string | null | undefined, b: string | null | undefined) => Boolean(a && b && uuidOf(a) === uuidOf(b));

/** What is selected on the zone's screen: a tag of one of its lists, a file, or an annotation (its pin). */
export type ZoneSelection =
  | { kind: 'tag'; listId: string; index: number }
  | { kind: 'file'; fileId: string }
  | { kind: 'annotation'; id: string }
  | { kind: 'measurement'; id: string };

export const tagLayerId = (listId: string) => `tags:${uuidOf(listId)}`;
export const scanLayerId = (fileId: string) => `scan:${uuidOf(fileId)}`;
/** The layers of the zone's annotations (pins) and saved measurements (lines). */
export const PINS_LAYER = 'pins';
export const MEASUREMENTS_LAYER = 'measurements';
/** Saved measurements' lines (a violet the tag colours and the selection do not use). */
export const MEASUREMENT_COLOUR = 0x7b2cbf;
