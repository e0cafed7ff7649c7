/** Every family of the factory, in the order documents are allotted. */
import type { Family } from '../types.ts';
import { formsFamily } from './forms.ts';
import { reportFamily } from './report.ts';

export const FAMILIES: readonly Family[] = [reportFamily, formsFamily];

export { formsFamily, reportFamily };
