// SEED_FILE (README "Configuration"): read and checked against the same schema as
// POST /_operator/seed at every start and after every reset; every failure names the file.
import fs from 'node:fs/promises';
import { invalidInput } from './core/errors.ts';
import type { SeedDocument } from './modules/operator/index.ts';
import { SEED_DOCUMENT_SCHEMA } from './modules/operator/module.ts';

/** The reader of the seed file at `path` (null when SEED_FILE is unset): each call reads it afresh. */
export function seedFileReader(path: string | undefined): () => Promise<SeedDocument | null> {
  return async () => {
    if (!path) return null;
    let doc: unknown;
    try {
      doc = JSON.parse(await fs.readFile(path, 'utf8'));
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code ?? 'not valid JSON';
      throw invalidInput(`SEED_FILE ${path} cannot be read: ${why}`);
    }
    // Loaded here, when a seed file is set: typebox's value module is 300 more modules
    // (~0.1 CPU s) at every start of a process that never reads one.
    const { Value } = await import('typebox/value');
    const first = Value.Errors(SEED_DOCUMENT_SCHEMA, doc)[0];
    if (first) {
      throw invalidInput(`SEED_FILE ${path} is not a seed document: ${first.instancePath || '/'} ${first.message}`, {
        field: first.instancePath,
      });
    }
    return doc as SeedDocument;
  };
}
