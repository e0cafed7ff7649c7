import assert from 'node:assert/strict';
import { furnitureKey, furnitureReason, readsAsPageNumber } from '../../core/furniture.ts';

const line = (text: string, more: Partial<Parameters<typeof furnitureReason>[0]> = {}) =>
  furnitureReason({ text, edge: 'bottom', size: 10, bodySize: 10, isolated: false, ...more });

describe('furnitureReason', () => {
  it('should call page numbers furniture in arabic, roman and "Page n of N" forms', () => {
    for (const text of ['12', '- 12 -', 'xiv', 'Page 3', 'Page 3 of 9', '3/9']) assert.equal(line(text), 'page-number', text);
  });

  it('should call a running head that carries the page number furniture at either end', () => {
    assert.equal(line('400 BRITISH HUSBANDRY.', { edge: 'top' }), 'running-page-number');
    assert.equal(line('Advocacy in Action 447', { edge: 'top' }), 'running-page-number');
    // Bigger than the body, a trailing number is a numbered heading.
    assert.equal(line('Results of the trial 4', { edge: 'top', size: 14 }), undefined);
  });

  it('should not take a year at either end of a line for a page number', () => {
    assert.equal(line('Prepared by Tomas Kowalski, Project Lead, December 8, 2023', { edge: 'top' }), undefined);
    assert.equal(line('2024 Annual Report of the Board', { edge: 'top' }), undefined);
    // Repeated on the document's pages it is a running line all the same.
    assert.equal(line('Annual Report 2023', { edge: 'top', pages: 3 }), 'repeated');
    assert.equal(line('Proceedings of the Society 1411', { edge: 'top' }), 'running-page-number');
  });

  it('should keep footnotes and plain body-size lines in the body', () => {
    assert.equal(line('1 See the report of the committee for the figures.', { size: 8 }), undefined);
    assert.equal(line('The soil was drained before the crop went in.'), undefined);
  });

  it('should call small, isolated or repeated margin lines furniture, but not a big isolated line at the top', () => {
    assert.equal(line('Journal of Applied Studies', { edge: 'top', size: 8.5 }), 'small-margin-text');
    assert.equal(line('NORTHFIELD ENERGY SYSTEMS', { isolated: true }), 'isolated-margin-text');
    assert.equal(line('Chapter 4: Rural Economy', { edge: 'top', pages: 3 }), 'repeated');
    assert.equal(line('A Title', { edge: 'top', size: 16, isolated: true }), undefined);
  });
});

describe('readsAsPageNumber and furnitureKey', () => {
  it('should mask numbers so running lines of different pages share a key', () => {
    assert.equal(furnitureKey('top', '400 BRITISH  HUSBANDRY.'), furnitureKey('top', '402 british husbandry.'));
    assert.ok(readsAsPageNumber('Page 2 of 9') && readsAsPageNumber('Vol. 3 Report 12') && !readsAsPageNumber('The crop'));
  });
});
