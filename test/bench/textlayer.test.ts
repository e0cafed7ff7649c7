import assert from 'node:assert/strict';
import { parseSummary } from '../../bench/textlayer/index.ts';

describe('parseSummary', () => {
  it('should read pages and count failure records by code from the ingest summary', () => {
    const stderr = [
      'documents: 26 (24 done, 0 unchanged, 2 failed)',
      'pages:     253 (text 253; 0 failed)',
      'chunks:    589',
      'failures:  FOLIO_QUALITY_GATE 2, FOLIO_NOT_FOUND 1',
      '  - file:///a.pdf page 1: failed the quality gate (score 0.00: FOLIO_X 7)',
    ].join('\n');
    assert.deepEqual(parseSummary(stderr), { pages: 253, failures: 3, chunks: 589 });
    assert.deepEqual(parseSummary('pages:     4 (text 4; 0 failed)\n'), { pages: 4, failures: 0 });
    assert.equal(parseSummary('folio ingest: Elasticsearch at http://x is unreachable'), undefined);
  });
});

describe('textLayerMarkdown', () => {
  const phase = (name: string, pps: number, vs: number) => ({
    phase: name,
    description: name,
    pages: 10,
    runsMs: [1],
    medianMs: 1,
    pagesPerSecond: pps,
    failures: 0,
    vsPdftotext: vs,
  });
  const result = (loadAverage: number) => ({
    files: 1,
    pages: 10,
    skippedFiles: [],
    workers: 2,
    defaultWorkers: true,
    phases: [phase('pdftotext', 100, 1), { ...phase('ingest-es', 50, 0.5), cpuSeconds: 3.2, esCpuSeconds: 0.6 }],
    machine: { cpu: 'x', cores: 2, memoryGiB: 1, platform: 'p', loadAverage, node: 'v', packages: {}, tools: {}, at: 't' },
  });

  it('should name the worker count, the CPU seconds of Folio and Elasticsearch, and a busy machine', async () => {
    const { textLayerMarkdown } = await import('../../bench/textlayer/index.ts');
    const busy = textLayerMarkdown(result(9), ['d'], 1);
    assert.match(busy, /`--workers 2`, the command's default on this machine/);
    assert.match(busy, /\| ingest-es \| ingest-es \| 50 \| 1 \| 0\.5× \| 3\.2 \| 0\.6 \|/);
    assert.match(busy, /Load average 9 on 2 cores when measured/);
    assert.doesNotMatch(textLayerMarkdown(result(0.5), ['d'], 1), /Load average 0\.5 on 2 cores when measured/);
  });
});
