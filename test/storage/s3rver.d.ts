// s3rver ships no types: the little the storage tests use.
declare module 's3rver' {
  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    configureBuckets?: { name: string }[];
  }
  /** A Koa middleware (s3rver is a Koa application). */
  export type S3rverMiddleware = (
    ctx: { path: string; method: string; query: Record<string, string | string[] | undefined>; status: number; type: string; body: unknown },
    next: () => Promise<void>,
  ) => Promise<void>;
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list, in order. */
    middleware: S3rverMiddleware[];
    /** Its filesystem store: where a bucket's resources (`uploads` for multipart parts) live. */
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
