/**
 * Reads an OpenAI-style server-sent event stream of chat completion chunks and yields the text
 * deltas. Events may arrive split across network reads, so lines are buffered.
 */
export async function* chatDeltas(body: ReadableStream<Uint8Array>): AsyncIterable<{ text: string; tokens?: number }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      const event = JSON.parse(data) as { choices?: { delta?: { content?: string } }[]; usage?: { completion_tokens?: number } };
      const text = event.choices?.[0]?.delta?.content ?? '';
      yield { text, tokens: event.usage?.completion_tokens };
    }
  }
  throw new Error('stream ended before [DONE]');
}
