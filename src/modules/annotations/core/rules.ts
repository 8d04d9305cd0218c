// Pure rules of annotations (docs/annotations.md): the vendor's per-project limit, our input
// limits, the plain text of a description, who sees a private note, who may be assigned.
import { invalidInput } from '../../../core/errors.ts';
import type { WorkzoneGrant } from '../../../core/permissions/evaluate.ts';
import type { AnnotationFields, AnnotationRecord } from './ports.ts';

/** The vendor's createAnnotation: "A maximum of 3000 annotations are allowed on the same project". */
export const MAX_ANNOTATIONS_PER_PROJECT = 3000;

/** Our limits on one annotation's fields (the vendor's schema bounds only the title, 1 to 255). */
export const ANNOTATION_LIMITS = {
  titleChars: 255,
  descriptionChars: 20_000,
  commentChars: 20_000,
  assignees: 50,
  labels: 50,
  labelChars: 100,
  modelElementGUIDs: 1000,
  modelElementGUIDChars: 200,
  imgBlobNameChars: 1024,
  /** The saved view as JSON text. */
  savedViewChars: 64 * 1024,
  comments: 1000,
} as const;

/** The plain text of a description that may hold markup: tags dropped, the five XML entities decoded, blanks collapsed. */
export function descriptionText(description: string | null): string {
  if (!description) return '';
  return description
    .replace(/<br\s*\/?>|<\/p>|<\/div>|<\/li>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
}

/** A private note is its author's only: nobody else lists, reads or changes it. */
export const visibleTo = (a: Pick<AnnotationRecord, 'annotationType' | 'createdBy'>, userId: string): boolean =>
  a.annotationType !== 'Private note' || a.createdBy === userId;

/**
 * A user is a member of a work zone when he is the project's owner or when a role of his
 * own or of one of his groups reaches the zone and has not expired (membership rules 1, 2, 7).
 */
export function isZoneMember(userId: string, ownerId: string | null, grants: readonly WorkzoneGrant[], workzoneId: string, now: Date): boolean {
  if (ownerId === userId) return true;
  return grants.some((g) => g.workzoneIds.has(workzoneId) && (!g.expiresAt || g.expiresAt > now));
}

/** The checks of every field the schema does not bound (a 400 naming the field). */
export function checkFields(f: AnnotationFields): void {
  const L = ANNOTATION_LIMITS;
  if (!f.title.trim()) throw invalidInput('title must not be blank', { field: 'title' });
  if (f.title.length > L.titleChars) throw invalidInput(`title holds at most ${L.titleChars} characters`, { field: 'title' });
  if (f.description && f.description.length > L.descriptionChars) {
    throw invalidInput(`description holds at most ${L.descriptionChars} characters`, { field: 'description' });
  }
  if (f.assignedTo.length > L.assignees) throw invalidInput(`at most ${L.assignees} assignees`, { field: 'assignedTo' });
  if (new Set(f.assignedTo).size !== f.assignedTo.length) throw invalidInput('assignedTo names a user twice', { field: 'assignedTo' });
  if (f.labels.length > L.labels || f.labels.some((l) => l.length > L.labelChars)) {
    throw invalidInput(`at most ${L.labels} labels of at most ${L.labelChars} characters`, { field: 'labels' });
  }
  const guids = f.modelElementGUIDs ?? [];
  if (guids.length > L.modelElementGUIDs || guids.some((g) => g.length > L.modelElementGUIDChars)) {
    throw invalidInput(`at most ${L.modelElementGUIDs} modelElementGUIDs of at most ${L.modelElementGUIDChars} characters`, { field: 'modelElementGUIDs' });
  }
  if (f.imgBlobName && f.imgBlobName.length > L.imgBlobNameChars) throw invalidInput('imgBlobName is too long', { field: 'imgBlobName' });
  if (f.savedView && JSON.stringify(f.savedView).length > L.savedViewChars) {
    throw invalidInput(`savedView holds at most ${L.savedViewChars} characters of JSON`, { field: 'savedView' });
  }
  if (f.dueDate && !validDate(f.dueDate)) throw invalidInput('dueDate is not a date (YYYY-MM-DD)', { field: 'dueDate' });
  for (const [name, p] of [['position', f.position], ['normal', f.normal]] as const) {
    if (p && ![p.x, p.y, p.z].every(Number.isFinite)) throw invalidInput(`${name} must be finite numbers`, { field: name });
  }
}

function validDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The users of `after` that `before` did not hold: the ones a change assigns (and mails). */
export const newlyAssigned = (before: readonly string[], after: readonly string[]): string[] => after.filter((u) => !before.includes(u));
