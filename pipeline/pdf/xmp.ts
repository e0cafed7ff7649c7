/**
 * The `dc:title` of a PDF's XMP metadata packet. The packet is meant to be readable without a
 * PDF parser (it is rarely compressed, and starts with `<?xpacket`), so the bytes are searched
 * directly; a packet inside a compressed stream is not found, and the Info title is used instead.
 */

const OPEN = new TextEncoder().encode('<dc:title');
/** The longest packet read past `<dc:title`: titles are short, and a stray match must stay cheap. */
const WINDOW = 4096;

/**
 * @example
 * xmpTitle(bytes) // 'Annual Report 2023' for `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Annual Report 2023</rdf:li>…`
 */
export function xmpTitle(bytes: Uint8Array): string | undefined {
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(OPEN);
  if (at < 0) return undefined;
  const xml = new TextDecoder().decode(bytes.subarray(at, Math.min(bytes.byteLength, at + WINDOW)));
  const end = xml.indexOf('</dc:title>');
  if (end < 0) return undefined;
  const inner = xml.slice(xml.indexOf('>') + 1, end);
  // `rdf:Alt` of languages: the default one, else the first.
  const items = [...inner.matchAll(/<rdf:li\b([^>]*)>([\s\S]*?)<\/rdf:li>/g)];
  const chosen = items.find((m) => /xml:lang=["']x-default["']/.test(m[1] ?? '')) ?? items[0];
  const text = decodeEntities((chosen ? chosen[2] : inner) ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name.toLowerCase()] ?? entity;
  });
}
