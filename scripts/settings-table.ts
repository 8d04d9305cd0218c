// The README's table of the modules' settings, generated from their contracts
// (src/modules/<m>/settings.ts rows): `npm run docs:settings` rewrites the block between the
// two markers in README.md; test/unit/module-settings.test.ts checks it is up to date. A
// module's settings are written once, beside their reader, and the README follows.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MODULE_SETTINGS } from '../src/modules/registries.ts';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));
export const BEGIN = '<!-- the modules\' settings: generated from src/modules/<m>/settings.ts by `npm run docs:settings`; edit them there -->';
export const END = '<!-- end of the modules\' settings -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The block: the two markers and the table of every module's rows, in the module list's order. */
export function settingsBlock(): string {
  const lines = ['| Variable | Module | Default | Meaning |', '|---|---|---|---|'];
  for (const { module, settings } of MODULE_SETTINGS) {
    for (const row of settings.rows) lines.push(`| \`${row.env}\` | ${module} | ${cell(row.default)} | ${cell(row.does)} |`);
  }
  return [BEGIN, '', ...lines, '', END].join('\n');
}

/** The README with its block replaced by `block` (throws when the markers are missing). */
export function withBlock(readme: string, block: string): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no block between ${BEGIN} and ${END}`);
  return readme.slice(0, start) + block + readme.slice(end + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  fs.writeFileSync(README, withBlock(fs.readFileSync(README, 'utf8'), settingsBlock()));
  console.log('README.md: the modules\' settings table rewritten');
}
