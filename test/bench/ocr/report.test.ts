import assert from 'node:assert/strict';
import { ocrReport } from '../../../bench/ocr/report.ts';

describe('ocrReport', () => {
  it('should break paddle time down by stage for each page and the olmOCR pages together', () => {
    const md = ocrReport({
      cer: [
        {
          file: 'a.pdf',
          page: 1,
          width: 10,
          height: 10,
          paddleMs: 100,
          paddleCpuMs: 90,
          paddleChars: 5,
          rotation: 0,
          paddleStages: { recRunMs: 60, detRunMs: 30, recColumns: 640 },
        },
      ],
      olmocr: [
        {
          engine: 'paddle',
          overall: 0.5,
          passed: 1,
          total: 2,
          byType: {},
          ms: 1000,
          cpuMs: 900,
          pages: 3,
          stages: { detRunMs: 300, recRunMs: 600, fooMs: 1, recColumns: 9000 },
        },
      ],
      gnarly: [],
      tesseract: false,
      peakRssMiB: 1,
      wallS: 1,
    });
    assert.match(md, /\| page \| detRun \| recRun \| foo \| rec columns \|/);
    assert.match(md, /\| a\.pdf p1 \| 30 \| 60 \| 0 \| 640 \|/);
    assert.match(md, /\| olmOCR dev, 3 pages together \| 300 \| 600 \| 1 \| 9000 \|/);
  });
});
