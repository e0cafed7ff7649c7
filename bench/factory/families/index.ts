/** Every family of the factory, in the order documents are allotted. */
import type { Family } from '../types.ts';
import { formsFamily } from './forms.ts';
import { papersFamily } from './papers.ts';
import { reportFamily } from './report.ts';
import { scriptsFamily } from './scripts.ts';
import { slidesFamily } from './slides.ts';
import { wordFamily } from './word.ts';

export const FAMILIES: readonly Family[] = [reportFamily, wordFamily, papersFamily, slidesFamily, formsFamily, scriptsFamily];

export { formsFamily, papersFamily, reportFamily, scriptsFamily, slidesFamily, wordFamily };
