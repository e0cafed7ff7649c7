import assert from 'node:assert/strict';
import { markdownTable } from '../../bench/common/markdown-table.ts';
import { median } from '../../bench/common/stats.ts';
import { barChart } from '../../bench/common/svg.ts';
import { replaceFiguresBlock } from '../../bench/readme-table.ts';
import { headlineFigures } from '../../bench/report/figures.ts';
import { runBench } from '../../bench/run-bench.ts';

describe('median', () => {
  it('should take the middle value or the mean of the middle two', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 2, 3]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });
});

describe('markdownTable', () => {
  it('should escape pipes in cells', () => {
    assert.equal(markdownTable(['a'], [['x|y']]), '| a |\n|---|\n| x\\|y |');
  });
});

describe('barChart', () => {
  it('should draw one bar per value, scaled to the largest', () => {
    const svg = barChart({
      title: 'T',
      unit: 'u',
      bars: [
        { label: 'a', value: 10 },
        { label: 'b<', value: 5 },
      ],
    });
    assert.equal((svg.match(/<rect x=/g) ?? []).length, 2);
    assert.ok(svg.includes('b&lt;'));
  });
});

describe('replaceFiguresBlock', () => {
  const readme = 'intro\n<!-- figures:start -->\nold\n<!-- figures:end -->\noutro\n';
  it('should replace only the block between the markers', () => {
    const next = replaceFiguresBlock(readme, [{ figure: 'f', value: '1', command: 'npx folio bench x' }]);
    assert.ok(next.startsWith('intro\n<!-- figures:start -->'));
    assert.ok(next.endsWith('<!-- figures:end -->\noutro\n'));
    assert.ok(!next.includes('old'));
    assert.ok(next.includes('| f | 1 | `npx folio bench x` |'));
  });
  it('should refuse a README without markers', () => {
    assert.throws(() => replaceFiguresBlock('no markers', []), /figures:start/);
  });
});

describe('headlineFigures', () => {
  it('should give each figure the command that reproduces it', () => {
    const figures = headlineFigures({ resultsDir: 'bench/results', olmocr: {}, docling: {}, suites: { decode: { perK: [{ k: 2, speedup: 1.5 }] } } });
    assert.deepEqual(figures, [{ figure: 'Speculative decoding speed-up on this CPU, K=2 (batch 1)', value: '1.50×', command: 'npx folio bench decode' }]);
  });
});

describe('decodeSpeedups', () => {
  it('should read the decode suite rows: model draft, batch 1, K above 0', async () => {
    const { decodeSpeedups } = await import('../../bench/report/figures.ts');
    const rows = [
      { draft: 'model', batch: 1, k: 0, speedup: 1 },
      { draft: 'model', batch: 1, k: 2, speedup: 1.8 },
      { draft: 'model', batch: 4, k: 2, speedup: 1.2 },
      { draft: 'steered', batch: 1, k: 2, speedup: 2.5 },
    ];
    assert.deepEqual(decodeSpeedups({ rows }), [{ k: 2, speedup: 1.8 }]);
    assert.deepEqual(decodeSpeedups(undefined), []);
  });
});

describe('runBench', () => {
  it('should reject an unknown suite and name the known ones', async () => {
    await assert.rejects(runBench('nope', []), /unknown bench suite `nope`.*olmocr/);
  });
  it('should reject bad flags with the usage', async () => {
    await assert.rejects(runBench('olmocr', ['--bogus']), /usage: folio bench olmocr/);
  });
});

describe('textLayerMarkdown', () => {
  it('should say whether each target is met', async () => {
    const { textLayerMarkdown } = await import('../../bench/textlayer/run.ts');
    const phase = (name: string, pps: number, vs?: number) => ({
      phase: name,
      description: name,
      pages: 10,
      runsMs: [1],
      medianMs: 1,
      pagesPerSecond: pps,
      failures: 0,
      ...(vs === undefined ? {} : { vsPdftotext: vs }),
    });
    const machine = { cpu: 'x', cores: 2, memoryGiB: 1, platform: 'p', node: 'v', packages: {}, tools: {}, at: 't' };
    const md = textLayerMarkdown(
      {
        files: 1,
        pages: 10,
        skippedFiles: [],
        phases: [phase('pdftotext', 100, 1), phase('extract', 60, 0.6), phase('pages', 40, 0.4), phase('ingest-ndjson', 120, 1.2)],
        machine,
      },
      ['d'],
      1,
    );
    assert.match(md, /End to end ≥ 100 pages\/s: 120 pages\/s \(ingest-ndjson, the command from start-up to exit\) — met/);
    assert.match(md, /Extraction ≥ ½ pdftotext: 0\.6× \(extract\) — met; with Folio's layout analysis and Markdown on top: 0\.4× \(pages\) — not met/);
    assert.match(md, /The extraction step is `extract`/);
  });
});
