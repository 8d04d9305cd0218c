// Generated avatars (User.avatar, GET /avatars/{id}.svg): a pattern drawn from the user id
// alone, the same for any well-formed id, whether or not a user has it. The address is
// public (an <img> sends no token), so the image shows nothing of the user (no initials)
// and its answer tells nothing of his existence (docs/security.md "Existence across tenants").
import crypto from 'node:crypto';

const COLORS = ['#0b5cad', '#2e8540', '#b35900', '#6f42c1', '#c0392b', '#117a8b'];
const CELLS = 5;
const CELL = 10;
const MARGIN = 7;

/** The SVG of the id's avatar: a 5×5 left-right symmetric pattern in one of six colours, from the id's SHA-256. */
export function avatarSvg(id: string): string {
  const digest = crypto.createHash('sha256').update(id.toLowerCase()).digest();
  const color = COLORS[digest[0]! % COLORS.length];
  const rects: string[] = [];
  const half = Math.ceil(CELLS / 2);
  for (let row = 0; row < CELLS; row++) {
    for (let col = 0; col < half; col++) {
      const bit = row * half + col;
      if (((digest[1 + (bit >> 3)]! >> (bit & 7)) & 1) === 0) continue;
      for (const c of new Set([col, CELLS - 1 - col])) {
        rects.push(`<rect x="${MARGIN + c * CELL}" y="${MARGIN + row * CELL}" width="${CELL}" height="${CELL}"/>`);
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="#eef1f4"/><g fill="${color}">${rects.join('')}</g></svg>`;
}
