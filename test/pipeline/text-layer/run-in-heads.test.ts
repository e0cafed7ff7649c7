import assert from 'node:assert/strict';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { firstPage } from '../../support/text-layer.ts';

const HEIGHT = 792;

type Part = readonly [text: string, font: PDFFont, size?: number, shift?: number];

/** A page writer: each line is parts set one after the other from the left margin, as TeX and browsers set them. */
async function pageOf(lines: readonly { baseline: number; parts: readonly Part[]; size?: number }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, HEIGHT]);
  for (const { baseline, parts, size = 10 } of lines) {
    let x = 72;
    for (const [text, font, partSize = size, shift = 0] of parts) {
      // A positive shift lowers the text (a subscript), a negative one raises it.
      page.drawText(text, { x, y: HEIGHT - baseline - shift, size: partSize, font });
      x += font.widthOfTextAtSize(text, partSize);
    }
  }
  return doc.save();
}

interface Faces {
  roman: PDFFont;
  italic: PDFFont;
  bold: PDFFont;
}

async function faces(doc: PDFDocument): Promise<Faces> {
  return {
    roman: await doc.embedFont(StandardFonts.TimesRoman),
    italic: await doc.embedFont(StandardFonts.TimesRomanItalic),
    bold: await doc.embedFont(StandardFonts.TimesRomanBold),
  };
}

const FILLER = [
  'The results of this section hold for every finite ring that we consider in the sequel, and',
  'the arguments carry over to modules with only minor changes to the notation used here.',
  'We keep the conventions of the previous section throughout and recall them when needed.',
];

/** Body paragraphs at 10 pt that set the page's body size and font. */
function filler(f: Faces, baseline: number): { baseline: number; parts: Part[] }[] {
  return FILLER.map((text, i) => ({ baseline: baseline + i * 12, parts: [[text, f.roman]] }));
}

/**
 * An amsthm-style page: a numbered section title in bold, a plain-style theorem (bold head, italic
 * statement) in short lines as a two-column paper sets them, a proof (italic head) with an inline
 * formula, a remark (italic head, upright number), and a bold corollary set larger than the body.
 */
async function amsthmPage(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const f = await faces(doc);
  const page = doc.addPage([612, HEIGHT]);
  const put = (baseline: number, parts: readonly Part[], size = 10): void => {
    let x = 72;
    for (const [text, font, partSize = size, shift = 0] of parts) {
      page.drawText(text, { x, y: HEIGHT - baseline - shift, size: partSize, font });
      x += font.widthOfTextAtSize(text, partSize);
    }
  };
  for (const l of filler(f, 90)) put(l.baseline, l.parts);
  put(140, [['2.1 Main results', f.bold]], 12);
  put(162, [
    ['Theorem 2.1 ', f.bold],
    ['(Compactness)', f.roman],
    ['. ', f.bold],
    ['Let G be a finite group acting', f.italic],
  ]);
  put(174, [['on a set X with n points. Then the', f.italic]]);
  put(186, [['orbits of G partition the set X.', f.italic]]);
  for (const l of filler(f, 204)) put(l.baseline, l.parts);
  put(248, [
    ['Proof. ', f.italic],
    ['We argue by induction on the order of the group, where ', f.roman],
    ['x', f.italic],
    ['2', f.roman, 7, -3.5],
    [' + ', f.roman],
    ['y', f.italic],
    ['2', f.roman, 7, -3.5],
    [' = 1 holds.', f.roman],
  ]);
  put(260, [['The case of the trivial group is clear, and the step follows from the class equation.', f.roman]]);
  put(282, [
    ['Remark', f.italic],
    [' 2.2', f.roman],
    ['. ', f.italic],
    ['The bound is sharp, as the cycle graph on a few vertices shows for every order.', f.roman],
  ]);
  put(306, [
    ['Corollary 2.3. ', f.bold, 12],
    ['Suppose that the group acts freely on the set.', f.italic, 12],
  ]);
  for (const l of filler(f, 330)) put(l.baseline, l.parts);
  put(380, [['Acknowledgements', f.bold]], 12);
  for (const l of filler(f, 400)) put(l.baseline, l.parts);
  return doc.save();
}

/**
 * A printed web page: a heading, a paragraph, then `<p><b>Note:</b> …</p>` with no gap before it;
 * then a heading whose bold lead is followed by title words.
 */
async function notePage(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const f = await faces(doc);
  return pageOf([
    { baseline: 90, parts: [['Getting started', f.bold]], size: 15 },
    { baseline: 114, parts: [['The connector reads every file in the folder and hands each one to the pipeline.', f.roman]] },
    { baseline: 126, parts: [['Settings are read once at start-up.', f.roman]] },
    {
      baseline: 138,
      parts: [
        ['Note: ', f.bold],
        ['a change to the settings takes effect only after the service restarts.', f.roman],
      ],
    },
    { baseline: 150, parts: [['Large documents are split into chunks of a few hundred words before indexing.', f.roman]] },
    { baseline: 162, parts: [['Each chunk keeps the path of headings above it, which helps ranking.', f.roman]] },
    { baseline: 174, parts: [['The index can be rebuilt at any time from the stored documents.', f.roman]] },
    // A title in two faces: the words after the lead are capitalised like a title's, not a sentence.
    {
      baseline: 204,
      parts: [
        ['Step 2. ', f.bold],
        ['Indexing And Search', f.roman],
      ],
      size: 12,
    },
    { baseline: 226, parts: [['Chunks go to the search engine in batches, and a failed batch is retried once.', f.roman]] },
    { baseline: 238, parts: [['A document that fails twice is reported with its name and the reason.', f.roman]] },
  ]);
}

const headings = (markdown: string): string[] => markdown.split('\n').filter((l) => /^#{1,6} /.test(l));

describe('run-in heads', () => {
  it('reads a theorem whose bold head precedes an italic statement in short lines as a paragraph', async () => {
    const page = await firstPage(await amsthmPage(), 'amsthm.pdf');
    assert.ok(page.markdown.includes('**Theorem 2.1 (Compactness).** Let G be a finite group acting on a set X with n points.'), page.markdown);
    assert.ok(!headings(page.markdown).some((h) => h.includes('Theorem')), page.markdown);
  });

  it('keeps an italic proof head as emphasis and finds the inline formula after it', async () => {
    const page = await firstPage(await amsthmPage(), 'amsthm.pdf');
    const proof = page.markdown.split('\n').find((l) => l.includes('Proof.'));
    assert.ok(proof?.startsWith('*Proof.* We argue by induction'), page.markdown);
    assert.match(proof ?? '', /\$[^$]*x\^\{?2\}?[^$]*\$/);
  });

  it('takes an upright number inside an italic head (amsthm remark style)', async () => {
    const page = await firstPage(await amsthmPage(), 'amsthm.pdf');
    assert.ok(page.markdown.includes('*Remark 2.2.* The bound is sharp'), page.markdown);
  });

  it('reads a lead-in set larger than the body as a paragraph, not a heading', async () => {
    const page = await firstPage(await amsthmPage(), 'amsthm.pdf');
    assert.ok(page.markdown.includes('**Corollary 2.3.** Suppose that the group acts freely on the set.'), page.markdown);
  });

  it('leaves real headings as they were', async () => {
    const page = await firstPage(await amsthmPage(), 'amsthm.pdf');
    assert.deepEqual(headings(page.markdown), ['### 2.1 Main results', '### Acknowledgements']);
  });

  it('starts a paragraph at a bold lead-in after a sentence end, with no gap before it', async () => {
    const page = await firstPage(await notePage(), 'note.pdf');
    assert.deepEqual(headings(page.markdown), ['## Getting started', '### Step 2. Indexing And Search']);
    const note = page.markdown.split('\n').find((l) => l.includes('Note:'));
    assert.ok(note?.startsWith('**Note:** a change to the settings'), page.markdown);
    assert.ok(page.markdown.includes('Settings are read once at start-up.\n'), page.markdown);
  });
});
