/**
 * Imported first by every entry point of the package (for its effect): on a Node older than the
 * package supports, importing Folio fails here, at once, naming both versions. Only modules that
 * load on old Nodes may come before it, or link before it.
 */
import { assertSupportedNode } from './node-version.ts';

assertSupportedNode();
