// The build steps that `npm ci` runs (the root `prepare`) use development packages (Vite,
// TypeScript, AssemblyScript). An install without them (`npm ci --omit=dev`: the service
// image's build stage) skips those steps with a line saying so; the image takes what they
// build from its full-install stage.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The path of `bin` inside the development package `name`; when it is not installed, prints
 * `<step>: <tool> is not installed (an install without devDependencies); <what> is not built.`
 * and ends the process successfully.
 */
export function devToolOrSkip({ step, tool, name, bin, what }) {
  try {
    return path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve(`${name}/package.json`)), bin);
  } catch {
    console.log(`${step}: ${tool} is not installed (an install without devDependencies); ${what} is not built.`);
    process.exit(0);
  }
}
