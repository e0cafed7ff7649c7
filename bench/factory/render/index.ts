/** The renderers by name: each engine real documents come from. */
import type { DocumentSource } from '../types.ts';
import { chromiumRenderer } from './chromium.ts';
import { libreOfficeRenderer } from './libreoffice.ts';
import { pdflatexRenderer } from './pdflatex.ts';
import type { Renderer } from './types.ts';

export const RENDERERS: Readonly<Record<DocumentSource['renderer'], Renderer>> = {
  chromium: chromiumRenderer,
  libreoffice: libreOfficeRenderer,
  pdflatex: pdflatexRenderer,
};

export { aptEnsure } from './apt.ts';
export { CHROMIUM_PACKAGES, chromiumRenderer } from './chromium.ts';
export { libreOfficeRenderer } from './libreoffice.ts';
export { pdflatexRenderer } from './pdflatex.ts';
export type { Renderer, RenderJob } from './types.ts';
