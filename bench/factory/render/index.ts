/** The renderers by name: each engine real documents come from. */
import type { DocumentSource } from '../types.ts';
import { chromiumRenderer } from './chromium.ts';
import type { Renderer } from './types.ts';

export const RENDERERS: Readonly<Partial<Record<DocumentSource['renderer'], Renderer>>> = {
  chromium: chromiumRenderer,
};

export { aptInstall, chromiumRenderer } from './chromium.ts';
export type { Renderer, RenderJob } from './types.ts';
