/**
 * Forms and invoices printed by Chromium: label/value grids, boxed fields, check boxes, line items
 * with totals, addresses side by side. The truth writes label/value pairs as paragraphs
 * (`Label: value`) and line items as a table; the tests ask for the values, the items' cells and
 * their neighbours, and labels before their values, so any faithful reading passes.
 */
import type { Random } from '../../scans/random.ts';
import { drawLook } from '../html/style.ts';
import { tableHtml } from '../html/tables.ts';
import { escHtml } from '../markdown.ts';
import type { Family, PlannedDocument, TruthBlock, TruthCell, TruthTable } from '../types.ts';

const COMPANIES = [
  'Bluebell Office Supply',
  'Kestrel Engineering',
  'Lumen Print Works',
  'Orchard Street Bakery',
  'Tidewater Marine Services',
  'Quarry Hill Builders',
  'Summit Software GmbH',
  'Willow & Sons Ltd',
];
const STREETS = ['Market Street', 'Station Road', 'Elm Avenue', 'Harbour Way', 'Mill Lane', 'Church Road', 'Park Crescent'];
const TOWNS = ['Leeds LS1 4AP', 'Springfield, IL 62704', 'Bristol BS1 5TR', 'Portland, OR 97205', 'Dublin D02 X285', 'Austin, TX 78701'];
const PEOPLE = ['Ada Moreno', 'Ben Okafor', 'Chen Wei', 'Dana Novak', 'Elif Yilmaz', 'Farah Haddad', 'Greg Lindqvist', 'Hana Sato'];
const GOODS = [
  'Printer paper, A4, 80 gsm',
  'Toner cartridge, black',
  'Desk lamp, LED',
  'Consulting, hourly',
  'Site survey',
  'Cable, Cat6, 305 m',
  'Storage boxes, pack of 10',
  'Software licence, annual',
  'Delivery charge',
  'Installation labour',
];

const money = (v: number): string => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const date = (random: Random): string =>
  `${String(1 + Math.floor(random.next() * 28)).padStart(2, '0')}/${String(1 + Math.floor(random.next() * 12)).padStart(2, '0')}/${2019 + Math.floor(random.next() * 7)}`;

function lineItems(random: Random): { table: TruthTable; total: string; subtotal: string; tax: string } {
  const n = 2 + Math.floor(random.next() * 7);
  const heads = ['Description', 'Qty', 'Unit price', 'Amount'];
  const cells: TruthCell[] = heads.map((text, col) => ({ row: 0, col, rowspan: 1, colspan: 1, text, header: true }));
  let sum = 0;
  const goods = [...GOODS];
  for (let r = 1; r <= n; r++) {
    const what = goods.splice(Math.floor(random.next() * goods.length), 1)[0] ?? `Item ${r}`;
    const qty = 1 + Math.floor(random.next() * 24);
    const unit = Math.round(random.uniform(2, 480) * 100) / 100;
    const amount = Math.round(qty * unit * 100) / 100;
    sum += amount;
    [what, String(qty), money(unit), money(amount)].forEach((text, col) => cells.push({ row: r, col, rowspan: 1, colspan: 1, text, header: false }));
  }
  const tax = Math.round(sum * 0.2 * 100) / 100;
  return { table: { rows: n + 1, cols: 4, headerRows: 1, cells }, subtotal: money(sum), tax: money(tax), total: money(sum + tax) };
}

interface Field {
  readonly label: string;
  readonly value: string;
}

function fieldsHtml(fields: readonly Field[], style: 'grid' | 'boxes' | 'lines'): string {
  if (style === 'grid')
    return `<table class="fields">${fields.map((f) => `<tr><th>${escHtml(f.label)}</th><td>${escHtml(f.value)}</td></tr>`).join('')}</table>`;
  if (style === 'boxes')
    return `<div class="boxes">${fields.map((f) => `<div class="box"><div class="label">${escHtml(f.label)}</div><div class="value">${escHtml(f.value)}</div></div>`).join('')}</div>`;
  return fields.map((f) => `<p class="line"><span class="label">${escHtml(f.label)}:</span> ${escHtml(f.value)}</p>`).join('');
}

const FORM_CSS = `
table.fields th { text-align: left; font-weight: bold; padding: 3pt 10pt 3pt 0; } table.fields td { padding: 3pt 0; }
.boxes { display: flex; flex-wrap: wrap; gap: 6pt; } .box { border: 0.8pt solid #333; padding: 3pt 6pt; width: 44%; } .box .label { font-size: 0.75em; color: #444; }
.line .label { font-weight: bold; } .parties { display: flex; gap: 20mm; } .parties div { width: 45%; } .totals { text-align: right; } .check { font-family: 'DejaVu Sans'; }`;

export const formsFamily: Family = {
  name: 'forms',
  description: 'forms and invoices printed by Chromium: label/value grids, boxed fields, check boxes, line items with totals, addresses side by side',
  variants: ['invoice', 'application', 'purchase-order', 'receipt'],
  weight: 0.8,
  plan(variant, { random, id }): PlannedDocument {
    const company = random.pick(COMPANIES);
    const title =
      {
        invoice: 'Invoice',
        application: random.pick(['Application for Membership', 'Equipment Request Form', 'Leave Application']),
        'purchase-order': 'Purchase Order',
        receipt: 'Receipt',
      }[variant] ?? 'Form';
    const look = drawLook(random, { title, organisation: company, furniture: random.next() < 0.6 });
    const blocks: TruthBlock[] = [{ kind: 'heading', level: 1, text: title }];
    const html: string[] = [`<h1>${escHtml(title)}</h1>`];
    const address = `${1 + Math.floor(random.next() * 220)} ${random.pick(STREETS)}, ${random.pick(TOWNS)}`;
    const style = random.pick(['grid', 'boxes', 'lines'] as const);
    const number = `${variant === 'purchase-order' ? 'PO' : variant === 'receipt' ? 'R' : 'INV'}-${2019 + Math.floor(random.next() * 7)}-${String(Math.floor(random.next() * 99999)).padStart(5, '0')}`;
    const fields: Field[] =
      variant === 'application'
        ? [
            { label: 'Full name', value: random.pick(PEOPLE) },
            { label: 'Date of birth', value: date(random) },
            { label: 'Address', value: address },
            { label: 'Telephone', value: `+44 ${Math.floor(random.uniform(1000, 9999))} ${Math.floor(random.uniform(100000, 999999))}` },
            { label: 'Reference number', value: number },
            { label: 'Date of application', value: date(random) },
          ]
        : [
            { label: `${title} number`, value: number },
            { label: 'Date', value: date(random) },
            { label: variant === 'receipt' ? 'Received from' : 'Bill to', value: random.pick(PEOPLE) },
            { label: 'Address', value: address },
          ];
    html.push(`<p>${escHtml(company)}</p>`);
    blocks.push({ kind: 'paragraph', text: company });
    // Boxed forms print their labels in capitals, and the truth says what is printed.
    if (style === 'boxes') fields.forEach((f, i) => (fields[i] = { ...f, label: f.label.toUpperCase() }));
    html.push(fieldsHtml(fields, style));
    for (const f of fields) blocks.push({ kind: 'field', label: f.label, value: f.value });
    let css = '';
    if (variant === 'application') {
      const options = ['Full-time', 'Part-time', 'Contractor', 'Volunteer'];
      const chosen = random.pick(options);
      html.push(`<h2>Status</h2><p class="check">${options.map((o) => `${o === chosen ? '☒' : '☐'} ${escHtml(o)}`).join('&nbsp;&nbsp; ')}</p>`);
      blocks.push({ kind: 'heading', level: 2, text: 'Status' });
      blocks.push({ kind: 'paragraph', text: options.map((o) => `${o === chosen ? '☒' : '☐'} ${o}`).join(' ') });
      html.push('<h2>Declaration</h2><p>I confirm that the information given on this form is correct and complete to the best of my knowledge.</p>');
      blocks.push({ kind: 'heading', level: 2, text: 'Declaration' });
      blocks.push({ kind: 'paragraph', text: 'I confirm that the information given on this form is correct and complete to the best of my knowledge.' });
    } else {
      const items = lineItems(random);
      const t = tableHtml(items.table, random.pick(['grid', 'booktabs', 'header-rule', 'zebra'] as const), 'items');
      css = t.css;
      html.push(t.html);
      blocks.push({ kind: 'table', table: items.table });
      const totals: Field[] = [
        { label: 'Subtotal', value: items.subtotal },
        { label: 'VAT (20%)', value: items.tax },
        { label: 'Total due', value: items.total },
      ];
      html.push(`<div class="totals">${totals.map((f) => `<p><b>${escHtml(f.label)}:</b> ${escHtml(f.value)}</p>`).join('')}</div>`);
      for (const f of totals) blocks.push({ kind: 'field', label: f.label, value: f.value });
      const terms = `Payment is due within ${random.pick([14, 30, 45, 60])} days of the invoice date. Please quote the ${title.toLowerCase()} number with your payment.`;
      html.push(`<p>${escHtml(terms)}</p>`);
      blocks.push({ kind: 'paragraph', text: terms });
    }
    const doc = `<!doctype html><html><head><meta charset="utf-8"><title>${escHtml(title)}</title><style>${look.pageCss}\n${look.css}\n${FORM_CSS}\n${css}</style></head><body>${html.join('\n')}</body></html>`;
    return {
      id,
      family: 'forms',
      variant,
      source: { renderer: 'chromium', html: doc, print: look.print },
      blocks,
      title,
      furniture: (page, pages) => look.furnitureOf(page, pages),
    };
  },
};
