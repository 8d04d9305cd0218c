// Chooses the object store from the configuration (CONTRACT §1): no STORAGE_URL is the
// local disk under DATA_DIR/blobs (a temporary directory for an in-memory database),
// s3://BUCKET?… an S3-type store, azure://CONTAINER an Azure-type one. The bucket or
// container is created at start when missing. Each cloud SDK is loaded only when chosen
// (together ~13 MB of heap every node would otherwise carry; a bigger heap
// makes every full GC longer).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KernelConfig } from '../../kernel-config.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { SettingsRepo } from '../../core/ports/repositories.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import { LocalDiskStore } from './local-disk.ts';
import { s3Failure } from '../../startup-failures.ts';

export interface ObjectStoreDeps {
  clock: Clock;
  /** The local-disk store's HMAC key, shared by every node (kept in the database). */
  signingKey: () => Promise<Buffer>;
  logger?: Logger;
}

/** The local-disk store's URL key, read from the settings where migration 0008 created it (shared by every node). */
export const storedSigningKey = (settings: SettingsRepo) => async (): Promise<Buffer> => {
  const key = await settings.get<string>('storage.signing_key');
  if (!key) throw new Error('storage.signing_key is missing (migration 0008)');
  return Buffer.from(key, 'utf8');
};

export async function openObjectStore(config: KernelConfig, deps: ObjectStoreDeps): Promise<ObjectStore> {
  const url = config.storageUrl;
  if (!url) {
    const memory = config.database.kind === 'pglite-memory';
    const root = memory
      ? await fs.mkdtemp(path.join(os.tmpdir(), 'scanbase-blobs-'))
      : path.join(config.dataDir, 'blobs');
    const store = new LocalDiskStore({
      root,
      publicUrl: config.blobPublicUrl ?? config.storagePublicUrl ?? config.publicUrl,
      signingKey: deps.signingKey,
      clock: deps.clock,
      removeRootOnClose: memory,
      logger: deps.logger,
    });
    await store.init();
    return store;
  }
  if (url.startsWith('s3://')) {
    const { parseS3Url, S3Store } = await import('./s3.ts');
    const store = new S3Store({ ...parseS3Url(url), publicUrl: config.storagePublicUrl });
    try {
      await store.init();
    } catch (e) {
      // No credentials, no answer: one line naming STORAGE_URL rather than the SDK's stack.
      throw s3Failure(e, url) ?? e;
    }
    return store;
  }
  if (url.startsWith('azure://')) {
    const { AzureStore, parseAzureUrl } = await import('./azure.ts');
    const store = new AzureStore({
      ...parseAzureUrl(url),
      connectionString: config.azureConnectionString ?? '',
      publicUrl: config.storagePublicUrl,
    });
    await store.init();
    return store;
  }
  throw new Error('STORAGE_URL: expected s3://BUCKET?… or azure://CONTAINER');
}
