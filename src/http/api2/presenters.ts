// API 2 presenters shared by modules: the default color of roles and groups, the storage region of accounts.
export const DEFAULT_COLOR = '#6b7785';

export interface StorageRegion {
  id: string;
  name: string;
  provider: 'azure' | 's3' | 'minio';
}

/** The storage region an account reports, from STORAGE_URL (local disk reports as minio: self-hosted). */
export function regionOf(storageUrl: string | undefined): StorageRegion {
  if (storageUrl?.startsWith('azure://')) return { id: 'default', name: 'Azure Blob storage', provider: 'azure' };
  if (storageUrl?.startsWith('s3://')) return { id: 'default', name: 'S3 storage', provider: 's3' };
  return { id: 'default', name: 'Local storage', provider: 'minio' };
}
