// The job kind of a work-zone copy (copy.ts enqueues and handles it), on its own so that the
// module's public face names it without importing the copy's use cases (index.ts).
export const COPY_JOB = 'workzone-copy';
