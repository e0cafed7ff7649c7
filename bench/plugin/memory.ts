/**
 * The memory part of `folio bench plugin` (`--memory`): does `folio serve` give memory back after
 * large documents? Resident memory at start (after one small warm-up document), then idle after
 * one long born-digital document, then idle after 8 large documents at once; the target is idle
 * within 20% of the warm start.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startFolioServe } from '../common/folio-serve.ts';
import { rssMb } from './load.ts';

export interface MemoryResult {
  readonly longPages: number;
  readonly largeDocuments: number;
  readonly largePages: number;
  readonly rssMb: {
    readonly start: number;
    readonly warm: number;
    readonly peakLong: number;
    readonly idleLong: number;
    readonly peakLarge: number;
    readonly idleLarge: number;
  };
  /** idle after the large documents ÷ warm start. */
  readonly idleRatio: number;
}

/** A born-digital PDF of `pages` pages of text. */
export async function longPdf(pages: number, tag: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`${tag}: chapter ${Math.ceil(p / 20)}, page ${p}`, { x: 50, y: 790, size: 16, font });
    for (let line = 0; line < 40; line++) {
      page.drawText(`Line ${line + 1} of page ${p}: the shipment ledger records parcels, routes and the totals of the day.`, {
        x: 50,
        y: 750 - line * 17,
        size: 10,
        font,
      });
    }
  }
  return Buffer.from(await doc.save());
}

async function convert(url: string, bytes: Buffer, name: string): Promise<void> {
  const response = await fetch(`${url}/v1/convert?filename=${name}&chunks=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/pdf' },
    body: bytes,
  });
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

/** Peak RSS of `pid` while `work` runs. */
async function peakDuring(pid: number, work: Promise<unknown>): Promise<number> {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMb(pid));
      await sleep(200);
    }
  })();
  try {
    await work;
  } finally {
    running = false;
    await sampler;
  }
  return peak;
}

export async function memoryRun(options: Readonly<{ longPages: number; largeDocuments: number; largePages: number; idleMs?: number }>): Promise<MemoryResult> {
  // Past folio serve's --idle-release (60 s): what a long-running server sits at.
  const { longPages, largeDocuments, largePages, idleMs = 75_000 } = options;
  const serve = await startFolioServe(['--embed', 'none']);
  const pid = serve.child.pid!;
  try {
    const start = await rssMb(pid);
    await convert(serve.url, await longPdf(2, 'warm-up'), 'warm-up.pdf');
    await sleep(2000);
    const warm = await rssMb(pid);
    const long = await longPdf(longPages, 'long');
    const peakLong = await peakDuring(pid, convert(serve.url, long, 'long.pdf'));
    await sleep(idleMs);
    const idleLong = await rssMb(pid);
    const large = await Promise.all(Array.from({ length: largeDocuments }, (_, i) => longPdf(largePages, `large ${i}`)));
    const peakLarge = await peakDuring(pid, Promise.all(large.map((bytes, i) => convert(serve.url, bytes, `large-${i}.pdf`))));
    await sleep(idleMs);
    const idleLarge = await rssMb(pid);
    return {
      longPages,
      largeDocuments,
      largePages,
      rssMb: { start, warm, peakLong, idleLong, peakLarge, idleLarge },
      idleRatio: Math.round((idleLarge / warm) * 100) / 100,
    };
  } finally {
    serve.child.kill('SIGTERM');
  }
}
