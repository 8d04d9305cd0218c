// @scanbase/sdk/node: the Node-only parts (files, sockets).
export { FileTokenStore, profilePath, configDir, type FileTokenStoreOptions } from './file-store.ts';
export { signInWithLoopback, type LoopbackSignInOptions } from './loopback.ts';
export { uploadFiles, md5OfFile, splitName, type UploadOptions, type UploadProgress, type UploadedFile, type UploadTarget, type UploadFileSpec } from './upload.ts';
export { downloadFile, signedBlobUrl, type DownloadOptions } from './download.ts';
export * from '../index.ts';
export { uploadMultipart, compositeOf, Slots, type MultipartOptions, type MultipartResult, type MultipartState, type MultipartTarget } from './multipart.ts';
export { downloadRanged, type RangedDownloadOptions } from './ranged-download.ts';
export { DEFAULT_MULTIPART_THRESHOLD } from './upload.ts';
