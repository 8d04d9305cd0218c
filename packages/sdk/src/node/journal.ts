// A small JSON state file, replaced atomically (temporary file, rename) on every save,
// saves serialised in the process: what a resumable batch reads back after a crash.
import fs from 'node:fs';
import path from 'node:path';

export class JsonJournal<T> {
  readonly file: string;
  #chain: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.file = file;
  }

  read(): T | null {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as T;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Saves `state` as it is when the save runs (after the saves queued before it). */
  save(state: () => T): Promise<void> {
    const run = async () => {
      await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      const fh = await fs.promises.open(tmp, 'w', 0o600);
      try {
        await fh.writeFile(JSON.stringify(state()));
        await fh.sync();
      } finally {
        await fh.close();
      }
      await fs.promises.rename(tmp, this.file);
    };
    const next = this.#chain.then(run);
    // The chain goes on after a failed save; the failure reaches this save's caller.
    this.#chain = next.then(() => undefined, () => undefined);
    return next;
  }
}
