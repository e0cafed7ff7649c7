/**
 * Files the built package reads at run time that tsc does not emit. Each is copied from the
 * source tree to the same place under `dist/`, so code that finds its files beside itself
 * (`new URL('./models/…', import.meta.url)`) works unchanged from source and from the build.
 * The JSON mappings are not listed: they are imported, so tsc emits them.
 */
export const PACKAGE_ASSETS: readonly string[] = [
  // The default embedder (all-MiniLM-L6-v2 as ONNX, its tokenizer and licence): `--embed local`.
  'inference/embed/models/all-minilm-l6-v2/LICENSE',
  'inference/embed/models/all-minilm-l6-v2/conversion-report.json',
  'inference/embed/models/all-minilm-l6-v2/folio-embed.json',
  'inference/embed/models/all-minilm-l6-v2/model.onnx',
  'inference/embed/models/all-minilm-l6-v2/tokenizer.json',
  'inference/embed/models/all-minilm-l6-v2/tokenizer_config.json',
];

/**
 * Folders copied whole: the web app's browser files (HTML, CSS and TypeScript that the server
 * type-strips as it serves them), which the Node build does not compile (they need the DOM).
 */
export const PACKAGE_ASSET_DIRS: readonly string[] = ['server/web'];

/** The build's output folder, relative to the repository root. */
export const DIST_DIR = 'dist';

/**
 * The most bytes the packed tarball may have (`npm test` fails above it): 19 MiB. The embedding
 * model is 17.1 MiB of it packed; the JavaScript, declarations and mappings under 1 MiB. The
 * onnx engine's model ships separately (`npm run pack:model`), so it is not counted here.
 */
export const PACKAGE_BUDGET_BYTES = 19 * 1024 * 1024;
