import assert from 'node:assert/strict';
import { loadTokenizer, TextStreamer } from '../../../inference/tokenizer/index.ts';
import { MODEL_DIR } from '../onnx/fixture.ts';

describe('loadTokenizer', () => {
  it('should encode and decode the model tokenizer without network', async () => {
    const tok = await loadTokenizer({ path: `${MODEL_DIR}tokenizer.json` });
    const ids = tok.encode('Licensed under the Apache License');
    assert.ok(ids.length > 1);
    assert.equal(tok.decode(ids), 'Licensed under the Apache License');
    assert.equal(tok.tokenToId('<|eos|>'), 2);
    assert.equal(tok.decode([6, 7]), '');
    assert.equal(tok.decode([6, 7], true), '<|ref|><|/ref|>');
  });

  it('should name a missing tokenizer', async () => {
    await assert.rejects(loadTokenizer({ path: '/nonexistent/tokenizer.json' }), /\/nonexistent\/tokenizer\.json: cannot read the tokenizer/);
  });
});

describe('TextStreamer', () => {
  it('should hold back a character split across tokens', async () => {
    const tok = await loadTokenizer({ path: `${MODEL_DIR}tokenizer.json` });
    const ids = tok.encode('né € ok');
    const streamer = new TextStreamer(tok);
    const deltas = ids.map((id) => streamer.push([id]));
    assert.ok(
      deltas.some((d) => d === ''),
      'some token ends inside a character',
    );
    assert.ok(deltas.every((d) => !d.includes('\uFFFD')));
    assert.equal(deltas.join('') + streamer.flush(), 'né € ok');
  });
});
