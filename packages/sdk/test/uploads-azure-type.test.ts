// @engine-independent: the object store is what is tested.
// Uploads and downloads of the SDK on Azure-type signed URLs (Azurite).
import { test } from 'node:test';
import { startAzurite } from '../../../test/storage/emulators.ts';
import { uploadAndDownloadThrough } from './support/object-store-run.ts';

test('object stores: upload (cancel, resume) and ranged download through Azure-type signed URLs', async () => {
  const azurite = await startAzurite();
  await uploadAndDownloadThrough(azurite, { STORAGE_URL: 'azure://scanbase-sdk', AZURE_STORAGE_CONNECTION_STRING: azurite.connectionString });
});
