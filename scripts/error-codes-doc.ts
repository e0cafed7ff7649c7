/**
 * `node scripts/error-codes-doc.ts`: writes `core/ERROR-CODES.md` from `core/error-codes.ts`, the
 * one list of codes. The sections are the list's own `// Heading.` comments, so a code added to
 * the list needs only this command to reach the docs (a test keeps the two equal).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES } from '../core/error-codes.ts';

const source = fileURLToPath(new URL('../core/error-codes.ts', import.meta.url));
const target = fileURLToPath(new URL('../core/ERROR-CODES.md', import.meta.url));

const HEADER = `# Folio error codes

Every error Folio throws is a \`FolioError\` (\`ConfigurationError\`, \`SourceError\`, \`InferenceError\`,
\`IndexingError\`) with a stable \`code\`; every failure record (\`FailureRecord\`, a dead letter) carries
one too. The typed list is \`ERROR_CODES\` in \`core/error-codes.ts\` (exported from the package
root, with the \`FolioErrorCode\` type); this table is the same list, written from it by
\`node scripts/error-codes-doc.ts\`, and a test keeps the two equal. Codes are never renamed.
`;

const text = await readFile(source, 'utf8');
const body = text.slice(text.indexOf('export const ERROR_CODES'));
const sections: string[] = [];
let rows: string[] = [];
const flush = (): void => {
  if (rows.length > 0) sections.push(`| code | meaning |\n|---|---|\n${rows.join('\n')}\n`);
  rows = [];
};
for (const line of body.split('\n')) {
  const heading = /^\s*\/\/ (.+)$/.exec(line);
  const code = /^\s*(FOLIO_[A-Z0-9_]+):/.exec(line);
  if (heading) {
    flush();
    sections.push(`${heading[1]}\n`);
  } else if (code) {
    rows.push(`| \`${code[1]}\` | ${ERROR_CODES[code[1] as keyof typeof ERROR_CODES]} |`);
  } else if (/^\}/.test(line)) break;
}
flush();
await writeFile(target, `${HEADER}\n${sections.join('\n')}`);
process.stderr.write(`error codes: ${Object.keys(ERROR_CODES).length} written to core/ERROR-CODES.md\n`);
