/**
 * A real S3-compatible server for the tests and `folio bench sources`: s3proxy (`org.gaul:s3proxy`, Apache-2.0) with its
 * filesystem backend, fetched once into `.cache/s3proxy/` by Maven and run with the JDK the
 * Elasticsearch launcher finds. Each server gets its own port, data folder and credentials.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { S3Client } from '@aws-sdk/client-s3';
import { findJavaHome, REPO_ROOT } from './elasticsearch/index.ts';

export const S3PROXY_VERSION = '2.6.0';
const JAR_FOLDER = join(REPO_ROOT, '.cache', 's3proxy');
const JAR = join(JAR_FOLDER, `s3proxy-${S3PROXY_VERSION}-jar-with-dependencies.jar`);

export interface S3Server {
  /** `http://127.0.0.1:PORT` */
  readonly endpoint: string;
  /** The credentials it accepts, as the AWS SDK reads them from the environment. */
  readonly env: Readonly<Record<string, string>>;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The filesystem backend's folder: `<dataDir>/<bucket>/<key>` (seeding many keys without uploads). */
  readonly dataDir: string;
  /** An SDK client with the server's credentials (for uploads by the tests). */
  client(): S3Client;
  /** Stop the server (its data stays until `remove`). */
  stop(): Promise<void>;
  /** Stop it and delete its data. */
  remove(): Promise<void>;
}

/** The s3proxy jar, fetched by `mvn dependency:copy` when missing. */
export async function ensureS3Proxy(): Promise<string> {
  if (existsSync(JAR)) return JAR;
  await promisify(execFile)(
    'mvn',
    ['-q', 'dependency:copy', `-Dartifact=org.gaul:s3proxy:${S3PROXY_VERSION}:jar:jar-with-dependencies`, `-DoutputDirectory=${JAR_FOLDER}`],
    { cwd: REPO_ROOT, timeout: 300_000 },
  );
  if (!existsSync(JAR)) throw new Error(`mvn dependency:copy did not produce ${JAR}`);
  return JAR;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Start s3proxy on a free loopback port; resolves once it answers HTTP.
 *
 * @example
 * const s3 = await startS3Server(); try { … } finally { await s3.remove(); }
 */
export async function startS3Server(): Promise<S3Server> {
  const jar = await ensureS3Proxy();
  const java = join(findJavaHome(), 'bin', 'java');
  const dir = await mkdtemp(join(tmpdir(), 'folio-s3proxy-'));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = 'folio-test';
  const secretAccessKey = 'folio-test-secret';
  const config = join(dir, 's3proxy.conf');
  await writeFile(
    config,
    [
      `s3proxy.endpoint=${endpoint}`,
      's3proxy.authorization=aws-v2-or-v4',
      `s3proxy.identity=${accessKeyId}`,
      `s3proxy.credential=${secretAccessKey}`,
      'jclouds.provider=filesystem',
      `jclouds.filesystem.basedir=${join(dir, 'data')}`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(java, ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-jar', jar, '--properties', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log = (log + d).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (log = (log + d).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`s3proxy exited (${child.exitCode}):\n${log}`);
    try {
      await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`s3proxy did not answer at ${endpoint} within 60 s:\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    dataDir: join(dir, 'data'),
    client: () =>
      new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        // s3proxy answers the SDK's default CRC checksum headers with 501 NotImplemented.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials: { accessKeyId, secretAccessKey },
      }),
    env: { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_REGION: 'us-east-1' },
    stop,
    remove: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
