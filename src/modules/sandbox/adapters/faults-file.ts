// FAULTS_FILE (README "Configuration", docs/sandbox.md "Fault rules"): a JSON document
// `{"rules": [...]}` read once at start (SANDBOX only); its rules are checked as
// PUT /_operator/faults checks them, and a failure names the file and the field.
import fs from 'node:fs/promises';
import { invalidInput } from '../../../core/errors.ts';

export function faultsFileReader(path: string | undefined): () => Promise<unknown> {
  return async () => {
    if (!path) return null;
    try {
      return JSON.parse(await fs.readFile(path, 'utf8')) as unknown;
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? 'not valid JSON';
      throw invalidInput(`FAULTS_FILE ${path} cannot be read: ${why}`);
    }
  };
}
