// The files module's HTTP face for other modules' routes: API 2's file schemas and presenter
// (crops, connect, uploads and mesh export answer with them), the permission text of a file
// write (the uploads module's operation docs), and the /_blobs answers' security headers and
// range rule (point clouds and share links serve stored objects too).
export * as FileSchemas from './schemas.ts';
export { filePresenters } from './presenters.ts';
export { FILE_WRITE } from './operations.ts';
export { BLOB_SECURITY_HEADERS, parseRange } from './blobs.ts';
