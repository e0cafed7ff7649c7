/**
 * What Office Open XML packages share: relationships (`_rels/*.rels`), the main part found through
 * them, and the check that turns an encrypted or damaged package into a clear error.
 */
import { SourceError } from '../../core/errors.ts';
import { find, parseXml, textOf, type XmlElement } from './xml.ts';
import type { ZipArchive } from './zip.ts';

export interface Relationship {
  readonly id: string;
  readonly type: string;
  /** Resolved against the part's folder (`word/media/image1.png`), or the URL as written when external. */
  readonly target: string;
  readonly external: boolean;
}

/** `a/b/../c.xml` → `a/c.xml`. */
export function resolvePath(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base === '' ? [] : base.split('/');
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** A part of the package as an XML tree, or undefined when the package has no such part. */
export function readPart(zip: ZipArchive, path: string): XmlElement | undefined {
  const text = zip.text(path);
  return text === undefined ? undefined : parseXml(text, path);
}

/** The relationships of a part (`word/document.xml` → `word/_rels/document.xml.rels`), by id. */
export function relationships(zip: ZipArchive, part: string): Map<string, Relationship> {
  const folder = folderOf(part);
  const name = part.slice(folder.length === 0 ? 0 : folder.length + 1);
  const rels = readPart(zip, `${folder === '' ? '' : `${folder}/`}_rels/${name}.rels`);
  const out = new Map<string, Relationship>();
  if (!rels) return out;
  for (const rel of rels.children) {
    if (typeof rel === 'string' || rel.local !== 'Relationship') continue;
    const external = rel.attrs['TargetMode'] === 'External';
    const target = rel.attrs['Target'] ?? '';
    out.set(rel.attrs['Id'] ?? '', {
      id: rel.attrs['Id'] ?? '',
      type: rel.attrs['Type'] ?? '',
      target: external ? target : resolvePath(folder, target),
      external,
    });
  }
  return out;
}

/** The package's main part (`officeDocument` relationship), or `fallback`. */
export function mainPart(zip: ZipArchive, fallback: string): string {
  for (const rel of relationships(zip, '').values()) {
    if (rel.type.endsWith('/officeDocument') && zip.has(rel.target)) return rel.target;
  }
  if (zip.has(fallback)) return fallback;
  throw new SourceError('FOLIO_FORMAT_CORRUPT', `the package has no main part (${fallback} is missing)`);
}

/** The first relationship of a type (`…/styles`) from a part, as a path. */
export function relatedPart(rels: ReadonlyMap<string, Relationship>, typeSuffix: string): string | undefined {
  for (const rel of rels.values()) if (!rel.external && rel.type.endsWith(typeSuffix)) return rel.target;
  return undefined;
}

/**
 * The package's declared title as format metadata: `dc:title` of the Office core properties
 * (`docProps/core.xml`) or of an OpenDocument's `meta.xml`; `{}` when there is none.
 */
export function packageTitle(zip: ZipArchive): { metadata?: { title: string } } {
  for (const part of ['docProps/core.xml', 'meta.xml']) {
    const title = textOf(find(readPart(zip, part), 'title')).trim();
    if (title !== '') return { metadata: { title } };
  }
  return {};
}
