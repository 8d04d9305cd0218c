// How the console writes sizes, counts, dates and file categories: short forms that fit one
// line (styles.css keeps them from wrapping), the full value in a tooltip where it is cut.

/** Bytes in B, KB, MB, GB or TB (binary multiples, written the way people read them). */
export const formatSize = (n: number): string =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(1)} KiB`
      : n < 1024 ** 3
        ? `${(n / 1024 ** 2).toFixed(1)} MiB`
        : n < 1024 ** 4
          ? `${(n / 1024 ** 3).toFixed(2)} GiB`
          : `${(n / 1024 ** 4).toFixed(2)} TiB`;

/** "1 file", "2 files". */
export const count = (n: number, what: string): string => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;

const SHORT_DATE = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });
const SHORT_TIME = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hour12: false });
const FULL = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'long' });

/** "12 Mar 2026" (today: "14:05"): short enough for a table cell. */
export function formatDate(iso: string | undefined, now = new Date()): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toDateString() === now.toDateString() ? SHORT_TIME.format(d) : SHORT_DATE.format(d);
}

/** The whole date and time, for a tooltip. */
export const formatFullDate = (iso: string | undefined): string => (iso ? FULL.format(new Date(iso)) : '');

/** "5 min ago", "3 days ago": how recent an activity is. */
export function formatAgo(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.max(0, (now - new Date(iso).getTime()) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 30) return count(Math.floor(s / 86400), 'day') + ' ago';
  return SHORT_DATE.format(new Date(iso));
}

/** The API's file categories (src/core/files/formats.ts) as people name them, plural for a group's heading. */
const CATEGORIES: Record<string, [one: string, many: string]> = {
  scan: ['Scan', 'Scans'],
  model: ['3D model', '3D models'],
  geoImage: ['Geo image', 'Geo images'],
  document: ['Document', 'Documents'],
  media: ['Photo or video', 'Photos and videos'],
  miscfile: ['Other file', 'Other files'],
  archive: ['Archive', 'Archives'],
  sitemap: ['Site map', 'Site maps'],
  modelReport: ['Model report', 'Model reports'],
  video3d: ['360° video', '360° videos'],
  gaussian: ['Gaussian splat', 'Gaussian splats'],
};

export const categoryName = (category: string, plural = true): string => {
  const c = CATEGORIES[category];
  return c ? c[plural ? 1 : 0] : category;
};

/** The order categories are listed in (what a site engineer looks for first). */
export const CATEGORY_ORDER = Object.keys(CATEGORIES);

/** The account roles (API 2 `accountRoles`) as people name them. */
export const ACCOUNT_ROLE_NAMES = {
  administrator: 'Administrator',
  projectManager: 'Project manager',
  projectLister: 'Project lister',
} as const;
export const accountRoleNames = (roles: readonly string[] | undefined): string =>
  (roles ?? []).map((r) => ACCOUNT_ROLE_NAMES[r as keyof typeof ACCOUNT_ROLE_NAMES] ?? r).join(', ');
