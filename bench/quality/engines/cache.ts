/** Where the bench installs its baselines: `.cache/quality/` under the repository root (git-ignored). */
import { fileURLToPath } from 'node:url';

export const CACHE_DIR = fileURLToPath(new URL('../../../.cache/quality/', import.meta.url));
