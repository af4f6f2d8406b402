/** The part of s3rver's API the tests use (the package ships no types). */
declare module 's3rver' {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }
  /** The part of a Koa context the extra middleware of s3-server.ts uses. */
  interface KoaContext {
    method: string;
    url: string;
    status: number;
    type: string;
    body: unknown;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list (S3rver is a Koa application). */
    middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
    run(): Promise<{ address: string; port: number; family: string }>;
    close(): Promise<void>;
  }
}
