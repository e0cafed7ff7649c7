/** The s3proxy launcher the S3 tests start their server with (it lives in `scripts/`, shared with `folio bench sources`). */
export type { S3Server } from '../../scripts/s3proxy.ts';
export { ensureS3Proxy, S3PROXY_VERSION, startS3Server } from '../../scripts/s3proxy.ts';
