/**
 * Debian's Chromium for the browser tests, driven by playwright-core. Like Elasticsearch, the
 * test setup installs it where it is missing (`apt-get install chromium`, as root: CI runs as
 * root on a fresh machine); each launch gets a fresh profile folder, removed on close.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a quiet, offline, sandbox-less headless run (tests run as root, on 2 cores). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const run = promisify(execFile);

/** Installs Debian's chromium package when /usr/bin/chromium is absent (a few minutes, once per machine). */
export async function ensureChromium(log: (line: string) => void = (line) => process.stderr.write(`  chromium: ${line}\n`)): Promise<string> {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing and this user cannot install it: run \`apt-get install -y chromium\` as root`);
  log('not found: apt-get install chromium …');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-q'], { env, maxBuffer: 64 * 1024 * 1024 });
  await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium'], { env, maxBuffer: 64 * 1024 * 1024 });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
  log('installed');
  return CHROMIUM;
}

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh `--user-data-dir`, installed first where missing. */
export async function launchChromium(options: Readonly<{ width?: number; height?: number }> = {}): Promise<LaunchedBrowser> {
  const executablePath = await ensureChromium();
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'folio-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: options.width ?? 1400, height: options.height ?? 1000 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
