// The estimate table of the PDF report (docs/estimate.md#in-the-portal): one row per line, what a
// reviewer changed marked, the totals, and the total-loss verdict. Drawn on page 2, after the cover.
import type { EstimatePart } from '../../domain/result/estimate-part.js';

const COLUMNS = [
  { title: 'Part', width: 0.24 },
  { title: 'Operation', width: 0.22 },
  { title: 'Labour', width: 0.14 },
  { title: 'Paint', width: 0.14 },
  { title: 'Parts', width: 0.12 },
  { title: 'Total', width: 0.14 },
] as const;

const words = (operation: string) => operation.replaceAll('_', ' ');

export function drawEstimate(
  doc: PDFKit.PDFDocument,
  estimate: EstimatePart,
  colours: { text: string; muted: string },
): void {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency: estimate.currency });
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    let x = left;
    let bottom = y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor(colours.text);
    cells.forEach((cell, i) => {
      const w = COLUMNS[i]!.width * width;
      doc.text(cell, x, y, { width: w - 4, align: i >= 2 ? 'right' : 'left' });
      bottom = Math.max(bottom, doc.y);
      x += w;
    });
    doc.x = left;
    doc.y = bottom + 2;
  };
  if (estimate.rate_card_version === 0)
    doc
      .font('Helvetica-Oblique')
      .fontSize(9)
      .fillColor(colours.muted)
      .text('Example rates: the client has not set its own rate card yet.')
      .moveDown(0.2);
  row(
    COLUMNS.map((c) => c.title),
    true,
  );
  if (estimate.lines.length === 0) doc.font('Helvetica').fontSize(9).text('No damage to price.');
  for (const line of estimate.lines) {
    const part = `${line.part?.replaceAll('_', ' ') ?? 'unknown part'}${line.part_source === 'suggested' ? ' (suggested)' : ''}`;
    const changed = line.rules
      ? ` (changed; rules: ${words(line.rules.operation)})`
      : line.source === 'reviewer'
        ? ' (added)'
        : '';
    row([
      part,
      `${words(line.operation)}${changed}`,
      `${line.labour_hours} h · ${money.format(line.labour_cost)}`,
      `${line.paint_hours} h · ${money.format(line.paint_cost)}`,
      `${money.format(line.parts_cost)}${line.price_missing ? ' *' : ''}`,
      money.format(line.total),
    ]);
  }
  row(
    [
      'Total',
      '',
      money.format(estimate.labour_total),
      money.format(estimate.paint_total),
      money.format(estimate.parts_total),
      money.format(estimate.total),
    ],
    true,
  );
  doc.font('Helvetica').fontSize(9).fillColor(colours.muted);
  if (estimate.lines.some((l) => l.price_missing)) doc.text('* No price for this part on the rate card.');
  if (estimate.total_loss !== null)
    doc.text(
      estimate.total_loss
        ? `Total loss: the total exceeds the card's share of the vehicle value (${money.format(estimate.vehicle_value ?? 0)}).`
        : `Not a total loss against a vehicle value of ${money.format(estimate.vehicle_value ?? 0)}.`,
    );
  doc.text(
    `Rate card version ${estimate.rate_card_version}. A suggestion for a person to check, not a charge.`,
  );
  doc.fillColor(colours.text);
}
