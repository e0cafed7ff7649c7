import assert from 'node:assert/strict';
import { onFirstUse } from '../../../pipeline/markdown/on-first-use.ts';

describe('onFirstUse', () => {
  it('should give the instance `import` gives (its `import` build, not a second copy), the same on every call', async () => {
    // KaTeX ships a CommonJS build beside its ES one: resolving with `require`'s condition would load that.
    const load = onFirstUse<typeof import('katex')>('katex');
    const first = load();
    assert.equal(load(), first);
    assert.equal(first.default, (await import('katex')).default);
    assert.equal(typeof first.default.renderToString, 'function');
  });

  it('should throw, not return undefined, for a package that is not there', () => {
    const load = onFirstUse('folio-no-such-package');
    assert.throws(load, /folio-no-such-package/);
  });
});
