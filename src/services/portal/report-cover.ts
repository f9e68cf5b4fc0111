// The first page of the PDF report (docs/portal.md#the-pdf-report): what a claims handler wants at a
// glance. The vehicle (what the client expected against what the photos read, a difference in red), a
// grid of the photos with their damages framed, and the table of damages with what each costs when the
// inspection is priced. The details follow on the next pages.
import type { Db } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { drawBoxes } from './report-boxes.js';
import type { ReportInput, ReportMedia } from './report.js';
import { reportPhoto } from './report-photo.js';
import { COLOURS, MARGIN, odometerText, partWords } from './report-style.js';

/** The thumbnails' long side in pixels: sharp for a cell about 85 points wide, printed at 150 dpi. */
const THUMB_PIXELS = 180;
const PER_ROW = 6;
/** More photos than this are not on the cover: they each have their own page. */
const MAX_THUMBS = 18;

type Check = 'matches' | 'differs' | 'not read' | 'nothing expected';
interface VehicleRow {
  name: string;
  expected: string | null;
  read: string | null;
  check: Check;
}

/** The values the client gave for the vehicle (inputMetaData), when the report may show them. */
export interface ExpectedVehicle {
  plate?: string | undefined;
  vin?: string | undefined;
  odometer?: number | undefined;
}

const same = (a: string, b: string) =>
  a.replace(/[^0-9A-Za-z]/g, '').toUpperCase() === b.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

function check(expected: string | null, read: string | null, match: boolean | null | undefined): Check {
  if (read === null) return 'not read';
  if (expected === null) return 'nothing expected';
  return (match ?? same(expected, read)) ? 'matches' : 'differs';
}

/** The most confident of the photos' readings of one kind. */
function best<T extends { read: unknown; confidence: number | null }>(readings: (T | undefined)[]) {
  return readings
    .filter((r): r is T => r !== undefined && r.read !== null)
    .sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0))[0];
}

/** Plate, VIN and odometer: expected against read; with `blur`, no plate or VIN (they name the vehicle). */
export function vehicleRows(media: ReportMedia[], expected: ExpectedVehicle, blur: boolean): VehicleRow[] {
  const texts = media.map((m) => m.analysis.text);
  const rows: VehicleRow[] = [];
  if (!blur) {
    for (const [name, key] of [
      ['Licence plate', 'plate'],
      ['VIN', 'vin'],
    ] as const) {
      const reading = best(texts.map((t) => t?.[key]));
      const wanted = expected[key] ?? texts.find((t) => t?.[key].expected)?.[key].expected ?? null;
      const read = reading?.read ?? null;
      rows.push({ name, expected: wanted, read, check: check(wanted, read, reading?.match) });
    }
  }
  const odometer = best(texts.map((t) => t?.odometer));
  const unit = odometer?.unit ?? null;
  const wanted = expected.odometer ?? odometer?.expected ?? null;
  const read = odometer ? (odometerText(odometer) ?? null) : null;
  rows.push({
    name: 'Odometer',
    expected: wanted === null ? null : (odometerText({ read: wanted, unit }) ?? null),
    read,
    check:
      read === null
        ? 'not read'
        : wanted === null
          ? 'nothing expected'
          : odometer!.read === wanted
            ? 'matches'
            : 'differs',
  });
  return rows;
}

/** A row of cells at the cursor, `widths` fractions of the line; a new page first when it would not fit. */
function row(
  doc: PDFKit.PDFDocument,
  widths: readonly number[],
  cells: { text: string; colour?: string; bold?: boolean; align?: 'left' | 'right' }[],
  options: { bold?: boolean; rule?: boolean } = {},
): void {
  const width = doc.page.width - 2 * MARGIN;
  if (doc.y + 28 > doc.page.height - MARGIN) doc.addPage();
  const y = doc.y;
  let x = MARGIN;
  let bottom = y;
  cells.forEach((cell, i) => {
    const w = widths[i]! * width;
    doc
      .font(options.bold || cell.bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor(cell.colour ?? COLOURS.text)
      .text(cell.text, x, y, { width: w - 6, align: cell.align ?? 'left' });
    bottom = Math.max(bottom, doc.y);
    x += w;
  });
  if (options.rule)
    doc
      .save()
      .moveTo(MARGIN, bottom + 1.5)
      .lineTo(MARGIN + width, bottom + 1.5)
      .lineWidth(0.5)
      .stroke(COLOURS.rule)
      .restore();
  doc.x = MARGIN;
  doc.y = bottom + 4;
  doc.fillColor(COLOURS.text);
}

function heading(doc: PDFKit.PDFDocument, text: string): void {
  doc.x = MARGIN;
  doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).fillColor(COLOURS.text).text(text);
  doc.moveDown(0.3);
}

function drawVehicle(doc: PDFKit.PDFDocument, rows: VehicleRow[]): void {
  heading(doc, 'Vehicle');
  const widths = [0.18, 0.3, 0.3, 0.22] as const;
  row(
    doc,
    widths,
    [{ text: '' }, { text: 'Expected (from the client)' }, { text: 'Read on the photos' }, { text: 'Check' }],
    {
      bold: true,
      rule: true,
    },
  );
  for (const r of rows)
    row(
      doc,
      widths,
      [
        { text: r.name, bold: true },
        { text: r.expected ?? '—', colour: r.expected ? COLOURS.text : COLOURS.muted },
        { text: r.read ?? '—', colour: r.read ? COLOURS.text : COLOURS.muted },
        {
          text: r.check === 'differs' ? 'DIFFERS' : r.check,
          bold: r.check === 'differs' || r.check === 'matches',
          colour: r.check === 'differs' ? COLOURS.bad : r.check === 'matches' ? COLOURS.good : COLOURS.muted,
        },
      ],
      { rule: true },
    );
}

/** The photos, a few to a row, each shrunk on its own (one photo decoded at a time). */
async function drawThumbnails(
  deps: { storage: MediaStorage; db: Db },
  doc: PDFKit.PDFDocument,
  input: ReportInput,
): Promise<void> {
  const items = input.media.slice(0, MAX_THUMBS);
  if (items.length === 0) return;
  heading(doc, 'Photos');
  const gap = 6;
  const cell = (doc.page.width - 2 * MARGIN - gap * (PER_ROW - 1)) / PER_ROW;
  const imageHeight = cell * 0.75;
  const rowHeight = imageHeight + 24;
  for (const [i, item] of items.entries()) {
    if (i % PER_ROW === 0 && i > 0) doc.y += rowHeight;
    if (i % PER_ROW === 0 && doc.y + rowHeight > doc.page.height - MARGIN) doc.addPage();
    const x = MARGIN + (i % PER_ROW) * (cell + gap);
    const y = doc.y;
    const photo =
      item.kind === 'image' && item.width > 0
        ? await reportPhoto(deps, input, item, THUMB_PIXELS)
        : undefined;
    if (photo) {
      const scale = Math.min(cell / item.width, imageHeight / item.height);
      const area = { x, y, width: item.width * scale, height: item.height * scale };
      doc.image(photo, area.x, area.y, { width: area.width, height: area.height });
      drawBoxes(doc, area, item, { blur: input.blurred !== undefined, labels: false, only: 'damage' });
    } else {
      doc.save().rect(x, y, cell, imageHeight).fill('#eeeeee').restore();
      doc.font('Helvetica').fontSize(8).fillColor(COLOURS.muted);
      doc.text(item.kind === 'video' ? 'video' : 'no preview', x, y + imageHeight / 2 - 4, {
        width: cell,
        align: 'center',
      });
    }
    const damages = item.analysis.damage?.damages.length ?? 0;
    doc.font('Helvetica-Bold').fontSize(7.5).fillColor(COLOURS.text);
    doc.text(`${item.position + 1}. ${item.original_id ?? item.kind}`, x, y + imageHeight + 2, {
      width: cell,
      lineBreak: false,
      ellipsis: true,
      height: 9,
    });
    doc.font('Helvetica').fillColor(damages > 0 ? COLOURS.damage : COLOURS.muted);
    doc.text(
      damages === 0 ? 'no damage' : damages === 1 ? '1 damage' : `${damages} damages`,
      x,
      y + imageHeight + 11,
      {
        width: cell,
        lineBreak: false,
      },
    );
    doc.y = y;
  }
  doc.x = MARGIN;
  doc.y += rowHeight;
  if (input.media.length > MAX_THUMBS)
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(COLOURS.muted)
      .text(`And ${input.media.length - MAX_THUMBS} more: every photo has its own page.`);
}

/** One row per damage; its estimate line's total beside it, on the first damage the line prices. */
function drawDamages(doc: PDFKit.PDFDocument, input: ReportInput): void {
  heading(doc, 'Damages');
  const damages = input.media.flatMap((item) =>
    (item.analysis.damage?.damages ?? []).map((damage, index) => ({
      item,
      damage,
      id: `${item.id}:${index}`,
    })),
  );
  if (damages.length === 0) {
    doc.font('Helvetica').fontSize(10).fillColor(COLOURS.text).text('No damage found.');
    return;
  }
  const estimate = input.estimate;
  const money =
    estimate && new Intl.NumberFormat('en-GB', { style: 'currency', currency: estimate.currency });
  const widths = estimate
    ? ([0.04, 0.16, 0.2, 0.13, 0.12, 0.19, 0.16] as const)
    : ([0.04, 0.19, 0.25, 0.16, 0.14, 0.22] as const);
  const titles = [
    '#',
    'Photo',
    'Part',
    'Damage',
    'Severity',
    'New since last inspection',
    ...(estimate ? ['Estimate'] : []),
  ];
  row(
    doc,
    widths,
    titles.map((text, i) => ({ text, align: i === 6 ? ('right' as const) : ('left' as const) })),
    { bold: true, rule: true },
  );
  const priced = new Map<object, number>();
  damages.forEach(({ item, damage, id }, i) => {
    const line = estimate?.lines.find((l) => l.damage_ids.includes(id));
    const part = damage.part ?? (line?.part ? `${line.part} (suggested)` : null);
    let cost = '';
    if (line && money) {
      const first = priced.get(line);
      cost = first === undefined ? money.format(line.total) : `in row ${first}`;
      if (first === undefined) priced.set(line, i + 1);
    }
    row(
      doc,
      widths,
      [
        { text: String(i + 1) },
        { text: `${item.position + 1}. ${item.original_id ?? item.kind}` },
        { text: part ? partWords(part) : 'unknown part', colour: part ? COLOURS.text : COLOURS.muted },
        { text: `${damage.type}${damage.source === 'reviewer' ? ' (reviewer)' : ''}` },
        { text: damage.severity },
        { text: damage.new ? 'new' : '', bold: true, colour: COLOURS.damage },
        ...(estimate ? [{ text: cost, align: 'right' as const }] : []),
      ],
      { rule: true },
    );
  });
  if (estimate && money)
    row(
      doc,
      [0.7, 0.3],
      [
        {
          // The example card's figures are not this client's prices: said here, not only on page 2.
          text:
            estimate.rate_card_version === 0
              ? 'Estimate total, at example rates: the client has no rate card yet'
              : 'Estimate total (its lines are under Repair estimate, on the next page)',
        },
        { text: money.format(estimate.total), align: 'right' },
      ],
      { bold: true },
    );
}

/** The cover: the vehicle, the photos and the damages, under the title the report already wrote. */
export async function drawCover(
  deps: { storage: MediaStorage; db: Db },
  doc: PDFKit.PDFDocument,
  input: ReportInput,
): Promise<void> {
  const vehicle = vehicleRows(input.media, input.expected ?? {}, input.blurred !== undefined);
  // A share without readings has nothing to set side by side: no table of dashes.
  if (vehicle.some((r) => r.expected !== null || r.read !== null)) drawVehicle(doc, vehicle);
  await drawThumbnails(deps, doc, input);
  drawDamages(doc, input);
}
