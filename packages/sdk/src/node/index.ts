// @scanbase/sdk/node: the Node-only parts (files, sockets).
export { FileTokenStore, profilePath, configDir, type FileTokenStoreOptions } from './file-store.ts';
export { signInWithLoopback, type LoopbackSignInOptions } from './loopback.ts';
export { uploadFiles, md5OfFile, splitName, type UploadOptions, type UploadProgress, type UploadedFile, type UploadTarget, type UploadFileSpec } from './upload.ts';
export { downloadFile, signedBlobUrl, type DownloadOptions } from './download.ts';
export * from '../index.ts';
