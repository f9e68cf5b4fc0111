// The boxes drawn over a photo of the PDF report: vehicles in blue, damages in red, the plate, VIN and
// odometer read in their own colours. Each label sits in a filled box of the frame's colour with white
// text, above the frame (below it, or inside it, when there is no room), and always inside the photo:
// thin coloured text straight on a photo could not be read on a busy or dark background.
import type { Box } from './privacy-regions.js';
import type { ReportMedia } from './report.js';
import { COLOURS, odometerText, partWords } from './report-style.js';

const LABEL_SIZE = 8;
const PAD = 2;

/** The label of a damage: `new · rear door left: dent (moderate)`. */
export function damageLabel(damage: { new?: boolean; part: string | null; type: string; severity: string }) {
  return `${damage.new ? 'new · ' : ''}${damage.part ? `${partWords(damage.part)}: ` : ''}${damage.type} (${damage.severity})`;
}

/**
 * Every box of `item` over the photo drawn at `area` (PDF points); with `blur`, the plate and VIN (blurred
 * on the photo) are neither framed nor written; with `labels` false, frames only (a thumbnail).
 */
export function drawBoxes(
  doc: PDFKit.PDFDocument,
  area: Box,
  item: ReportMedia,
  options: { blur: boolean; labels: boolean; only?: 'damage' },
): void {
  const draw = (box: Box, colour: string, label?: string) => {
    const frame = {
      x: area.x + box.x * area.width,
      y: area.y + box.y * area.height,
      width: box.width * area.width,
      height: box.height * area.height,
    };
    doc
      .save()
      .lineWidth(options.labels ? 1.5 : 0.8)
      .rect(frame.x, frame.y, frame.width, frame.height)
      .stroke(colour)
      .restore();
    if (label && options.labels) drawLabel(doc, area, frame, colour, label);
  };
  if (options.only !== 'damage')
    for (const vehicle of item.analysis.vehicles?.detections ?? [])
      draw(vehicle.box, COLOURS.vehicle, vehicle.label);
  for (const damage of item.analysis.damage?.damages ?? [])
    draw(damage.box, COLOURS.damage, damageLabel(damage));
  if (options.only === 'damage') return;
  const text = item.analysis.text;
  if (text?.plate.box && !options.blur) draw(text.plate.box, COLOURS.plate, text.plate.read ?? undefined);
  if (text?.vin.box && !options.blur) draw(text.vin.box, COLOURS.vin, text.vin.read ?? undefined);
  if (text?.odometer?.box) draw(text.odometer.box, COLOURS.odometer, odometerText(text.odometer));
}

/** A filled label box beside `frame`, kept inside `area`; the text cursor is left where it was. */
function drawLabel(doc: PDFKit.PDFDocument, area: Box, frame: Box, colour: string, label: string): void {
  const { x: cursorX, y: cursorY } = doc;
  doc.font('Helvetica-Bold').fontSize(LABEL_SIZE);
  const maxWidth = area.width - 2 * PAD;
  let text = label;
  // A label wider than the photo is cut, with an ellipsis, rather than run off it.
  while (text.length > 1 && doc.widthOfString(text) > maxWidth - 2 * PAD) text = `${text.slice(0, -2)}…`;
  const width = doc.widthOfString(text) + 2 * PAD;
  const height = LABEL_SIZE + 2 * PAD;
  const right = area.x + area.width;
  const bottom = area.y + area.height;
  const x = Math.min(Math.max(frame.x, area.x), right - width);
  const above = frame.y - height;
  const below = frame.y + frame.height;
  const y = above >= area.y ? above : below + height <= bottom ? below : Math.max(area.y, frame.y);
  doc.save().rect(x, y, width, height).fill(colour).restore();
  doc
    .save()
    .fillColor('#ffffff')
    .text(text, x + PAD, y + PAD + 0.5, { lineBreak: false })
    .restore();
  doc.x = cursorX;
  doc.y = cursorY;
}
