import { sourcesFrom } from '../../connector/index.ts';
import { ConfigurationError } from '../../core/errors.ts';
import { convert } from '../../pipeline/run/convert.ts';
import { PIPELINE_FLAGS, parse, pipelineOptions } from '../options.ts';
import { Progress } from '../progress.ts';
import { SOURCE_FLAGS, SOURCE_USAGE, sourceOptions } from '../source-flags.ts';
import { EXIT_CODES_HELP, exitCode, formatSummary } from '../summary.ts';

export const CONVERT_USAGE = `folio convert <paths|urls|s3://bucket/prefix...> [--out-dir DIR] [--engine auto|text|paddle|onnx] [options]

Writes DIR/<input path relative to the inputs' common root>.md (clean Markdown, pages in order)
and a .json beside it with the elements, page routes and failures. Failed inputs are listed.

  --out-dir DIR        output folder (default ./folio-out)
  --engine E           auto (text layer, OCR where needed), text, paddle, onnx (default auto)
  --device D           cpu | webgpu | cuda for ONNX engines (default cpu)
  --draft-k N          draft tokens per step for the onnx engine (0 = greedy)
  --recognizer R       paddle | folio: what reads paddle's detected lines (default paddle;
                       folio = folio-ocr-lines on --device, refused lines fall back to paddle)
  --model DIR          folio-ocr model folder for the onnx engine
  --password P         password for encrypted PDFs
  --dpi N              rendering resolution for OCR (default: chosen per page)
  --no-image-regions   under auto, leave images on text pages unread (default: paddle reads
                       words drawn as images)
  --no-formula-regions under auto, keep the text of formulas the text layer cannot rebuild
                       (default: folio-ocr-math reads them on --device, kept when its guard passes)
  --revisions R        Word tracked changes and comments: accept (default) or show (deletions
                       struck through, comments as footnotes)
  --workers N          threads reading documents, one document each; 0 reads them on the
                       main thread (default: cores - 1, at least 2, at most 4; 0 on one core)
${SOURCE_USAGE}
  -q, --quiet          no progress or summary

${EXIT_CODES_HELP.replace(/\n {2}3 .*$/s, '\n  3  a source server (S3) was lost mid-run past its retries; rerun once it is back')}`;

export async function convertCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parse(argv, { ...PIPELINE_FLAGS, ...SOURCE_FLAGS, 'out-dir': { type: 'string', default: 'folio-out' } });
  if (values.help) {
    console.log(CONVERT_USAGE);
    return 0;
  }
  if (positionals.length === 0) throw new ConfigurationError('FOLIO_BAD_ARGUMENTS', `convert needs at least one input path or URL\n\n${CONVERT_USAGE}`);
  const { options, close } = await pipelineOptions(values);
  const progress = values.quiet ? undefined : new Progress();
  try {
    const summary = await convert(sourcesFrom(positionals, { exclude: [values['out-dir']], ...sourceOptions(values) }), {
      ...options,
      outDir: values['out-dir'],
      onPage: (event) => progress?.page(event.source),
      onDocument: () => progress?.document(),
    });
    progress?.done();
    if (!values.quiet) console.error(formatSummary(summary, { extra: [`output:    ${values['out-dir']} (failures in each input's .json)`] }));
    return exitCode(summary);
  } finally {
    await close();
  }
}
