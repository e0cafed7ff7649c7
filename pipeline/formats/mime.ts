/** The mime types the format readers handle, and which reader reads each. */

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
export const ODT_MIME = 'application/vnd.oasis.opendocument.text';
export const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet';
export const ODP_MIME = 'application/vnd.oasis.opendocument.presentation';
export const EPUB_MIME = 'application/epub+zip';
export const HTML_MIME = 'text/html';
export const CSV_MIME = 'text/csv';
export const TSV_MIME = 'text/tab-separated-values';
export const EML_MIME = 'message/rfc822';
export const MSG_MIME = 'application/vnd.ms-outlook';
export const RTF_MIME = 'application/rtf';
/** XML of no Office kind (JATS, DocBook, exports): read by its titles, paragraphs, lists and tables. */
export const XML_MIME = 'application/xml';
/** An Office file encrypted with a password (an OLE container holding `EncryptedPackage`). */
export const ENCRYPTED_OFFICE_MIME = 'application/x-encrypted-office';
/** An OLE compound file of no kind Folio reads. */
export const LEGACY_OFFICE_MIME = 'application/x-ole-storage';
/** Legacy binary Office (Word, Excel, PowerPoint 97–2003): read through LibreOffice when installed. */
export const DOC_MIME = 'application/msword';
export const XLS_MIME = 'application/vnd.ms-excel';
export const PPT_MIME = 'application/vnd.ms-powerpoint';

/** Which reader a mime type goes to (macro-enabled variants read like the plain ones). */
export const FORMAT_OF: Readonly<Record<string, string>> = {
  [DOCX_MIME]: 'docx',
  'application/vnd.ms-word.document.macroEnabled.12': 'docx',
  [XLSX_MIME]: 'xlsx',
  'application/vnd.ms-excel.sheet.macroEnabled.12': 'xlsx',
  [PPTX_MIME]: 'pptx',
  'application/vnd.ms-powerpoint.presentation.macroEnabled.12': 'pptx',
  [ODT_MIME]: 'odt',
  [ODS_MIME]: 'ods',
  [ODP_MIME]: 'odp',
  [EPUB_MIME]: 'epub',
  [HTML_MIME]: 'html',
  'application/xhtml+xml': 'html',
  [CSV_MIME]: 'csv',
  [TSV_MIME]: 'csv',
  [EML_MIME]: 'eml',
  [MSG_MIME]: 'msg',
  [RTF_MIME]: 'rtf',
  [XML_MIME]: 'xml',
  'text/xml': 'xml',
  [ENCRYPTED_OFFICE_MIME]: 'encrypted',
  'application/msword': 'legacy',
  'application/vnd.ms-excel': 'legacy',
  'application/vnd.ms-powerpoint': 'legacy',
};

/** Formats with a reader (the others are sniffed, and fail with a clear code until they have one). */
const READ = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub', 'eml', 'msg', 'rtf', 'legacy', 'xml', 'html', 'csv', 'encrypted']);

/** Mime types Folio reads through a format reader. */
export const FORMAT_MIME_TYPES: readonly string[] = Object.keys(FORMAT_OF).filter((mime) => READ.has(FORMAT_OF[mime]!));

/** What Folio reads, for messages that name an unsupported type. */
export const READABLE_TYPES =
  'PDF, PNG, JPEG, TIFF, WebP, Markdown, Word, Excel, PowerPoint (legacy ones through LibreOffice), OpenDocument, HTML, EPUB, e-mail (EML, MSG), RTF, XML and CSV/TSV';
