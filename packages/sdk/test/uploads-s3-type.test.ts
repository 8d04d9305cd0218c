// @engine-independent: the object store is what is tested.
// Uploads and downloads of the SDK on S3-type signed URLs (s3rver).
import { test } from 'node:test';
import { startS3rver } from '../../../test/storage/emulators.ts';
import { uploadAndDownloadThrough } from './support/object-store-run.ts';

test('object stores: upload (cancel, resume) and ranged download through S3-type signed URLs', async () => {
  const s3 = await startS3rver();
  await uploadAndDownloadThrough(s3, {
    STORAGE_URL: `s3://scanbase-sdk?endpoint=${s3.endpoint}&region=eu-west-3&forcePathStyle=true`,
    AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
});
