// What every API 2 route module opens with: reference parsing and URNs in the deployment's
// namespace, the caller as an Actor, the 4xx response schema and the operation tags (each
// module presents its own resources: src/modules/<m>/http/presenters.ts).
import type { KernelConfig } from '../../kernel-config.ts';
import { api2BlobUrl, api2Naming } from './naming.ts';

/** Needs only the configuration's names and addresses (a module's route file passes its `use`). */
export type KitCore = { config: Pick<KernelConfig, 'urnNamespace' | 'publicUrl' | 'storageUrl'> };

export function api2Kit(core: KitCore) {
  const ns = core.config.urnNamespace;
  return {
    ...api2Naming(ns),
    /** The 302 link of a stored object (a file, a cover, a thumbnail): docs/files.md. */
    blobUrl: (accountId: string, projectId: string, blobName: string) => api2BlobUrl(core.config.publicUrl, accountId, projectId, blobName),
  };
}
