// The inspection's PDF report (docs/portal.md#the-pdf-report, ADR 9): summary, flags in words, every
// photo with its boxes drawn and its metadata, and the reviewer. Written with PDFKit, a page at a time
// as the photos are read (one photo in memory at a time), into a stream the route sends as it grows.
import { AppError } from '../../domain/errors.js';
import { flagText } from '../../domain/flags.js';
import type { InspectionResult } from '../../domain/result/index.js';
import type { Db, InspectionRow } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { visibleInspection } from './access.js';
import { renderPhoto } from './media-files.js';
import { privacyRegions, type Box } from './privacy-regions.js';
import type { PortalCaller } from './sessions.js';

type MediaResult = InspectionResult['media'][number];

const PHOTO_MAX_SIDE = 1400;
const MARGIN = 40;
const COLOURS = {
  vehicle: '#1d6fd8',
  damage: '#d32f2f',
  plate: '#b8860b',
  text: '#222222',
  muted: '#666666',
};

export interface ReportInput {
  inspection: InspectionRow;
  result: InspectionResult;
  clientName: string;
  /** Faces and plates blurred (share links that ask for it). */
  blur: boolean;
}

type ReportDeps = { db: Db; storage: MediaStorage; now: () => number };

/** A PDF to send: its file name, and the document, written as it is sent. */
export interface PdfFile {
  fileName: string;
  pdf: PDFKit.PDFDocument;
}

/** The report of the inspection's latest result; PORTAL_NOT_ANALYSED until it has one. */
export async function inspectionReport(
  deps: ReportDeps,
  inspection: InspectionRow,
  options: { blur: boolean },
): Promise<PdfFile> {
  if (inspection.result === null || inspection.status !== 'completed')
    throw new AppError('PORTAL_NOT_ANALYSED');
  const client = await deps.db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  const result = JSON.parse(inspection.result) as InspectionResult;
  const pdf = await renderReport(deps, { inspection, result, clientName: client.name, blur: options.blur });
  return { fileName: `inspection-${result.case_id.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`, pdf };
}

/** The report of an inspection the caller sees. */
export async function reportFor(
  deps: ReportDeps,
  caller: PortalCaller,
  inspectionId: string,
): Promise<PdfFile> {
  return inspectionReport(deps, await visibleInspection(deps.db, caller, inspectionId), { blur: false });
}

/**
 * The report as a stream; an error while it is written destroys the stream with that error. PDFKit is
 * loaded on the first report, not with the service.
 */
export async function renderReport(deps: ReportDeps, input: ReportInput): Promise<PDFKit.PDFDocument> {
  const { result } = input;
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Inspection ${result.case_id}`, Creator: 'Walkaround', Producer: 'Walkaround' },
  });
  void write(deps, doc, input).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}

async function write(deps: ReportDeps, doc: PDFKit.PDFDocument, input: ReportInput): Promise<void> {
  const { result, inspection } = input;
  doc.fillColor(COLOURS.text).font('Helvetica-Bold').fontSize(20).text(`Inspection ${result.case_id}`);
  doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor(COLOURS.muted);
  doc.text(
    `${input.clientName} · ${result.source === 'link' ? 'inspection link' : 'API upload'} · result version ${result.version}`,
  );
  doc.text(`Received ${human(result.created_at)} · analysed ${human(result.analysed_at)}`);
  doc.text(`Report generated ${human(new Date(deps.now()).toISOString())}`);
  if (input.blur) doc.text('Faces and licence plates are blurred in this report.');
  doc.moveDown();

  heading(doc, 'Summary');
  const review = result.review;
  facts(doc, [
    ['Photos and videos', `${result.summary.images} photo(s), ${result.summary.videos} video(s)`],
    ['Damages', String(result.summary.damages)],
    [
      'Review',
      review
        ? `${review.decision ?? 'corrected'} by ${review.reviewer.email} on ${human(review.reviewed_at)}${review.note ? ` — “${review.note}”` : ''}`
        : inspection.review_decision
          ? inspection.review_decision
          : 'not reviewed',
    ],
    ...metadataFacts(result),
  ]);
  doc.moveDown(0.5);
  heading(doc, 'Flags');
  if (result.summary.flags.length === 0) doc.font('Helvetica').fontSize(10).text('None.');
  for (const flag of result.summary.flags) {
    const { label, explanation } = flagText(flag);
    const count = result.summary.flag_counts[flag] ?? 0;
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(COLOURS.text)
      .text(`${label} (${count})`, { continued: true });
    doc.font('Helvetica').text(`: ${explanation}`);
  }

  for (const item of result.media) {
    doc.addPage();
    await mediaPage(deps, doc, input, item);
  }
}

async function mediaPage(
  deps: { storage: MediaStorage; db: Db },
  doc: PDFKit.PDFDocument,
  input: ReportInput,
  item: MediaResult,
): Promise<void> {
  heading(doc, `${item.position + 1}. ${item.original_id ?? item.kind}`);
  const width = doc.page.width - 2 * MARGIN;
  if (item.kind === 'image' && item.width > 0) {
    const row = await deps.db
      .selectFrom('media')
      .select('storage_key')
      .where('id', '=', item.id)
      .where('inspection_id', '=', input.inspection.id)
      .executeTakeFirst();
    if (row) {
      const regions = input.blur ? privacyRegions(item) : [];
      const photo = await (
        await renderPhoto(await deps.storage.get(row.storage_key), { maxSide: PHOTO_MAX_SIDE, regions })
      ).toBuffer();
      const maxHeight = doc.page.height / 2;
      const scale = Math.min(width / item.width, maxHeight / item.height);
      const box = { x: MARGIN, y: doc.y, width: item.width * scale, height: item.height * scale };
      doc.image(photo, box.x, box.y, { width: box.width, height: box.height });
      drawBoxes(doc, box, item, input.blur);
      // Drawing the labels moved the text cursor: back to the margin, under the photo.
      doc.x = MARGIN;
      doc.y = box.y + box.height + 10;
    }
  } else if (item.kind === 'video') {
    const video = item.analysis.video;
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(
        video
          ? `Video, ${video.duration.toFixed(1)} s, ${video.width}×${video.height}, ${video.codec}; ${video.keyframes.length} keyframes analysed.`
          : 'Video.',
      );
  }
  const flags = item.flags.map((flag) => flagText(flag).label);
  facts(doc, [
    ['Flags', flags.length > 0 ? flags.join(', ') : 'none'],
    ...damageFacts(item),
    ...photoFacts(item, input.blur),
    ['SHA-256', item.sha256],
  ]);
  if (item.errors.length > 0)
    facts(
      doc,
      item.errors.map((e): [string, string] => [`Not analysed (${e.analyzer})`, e.message]),
    );
}

/**
 * Vehicles in blue, damages in red, the plate read in gold, over the photo drawn at `area`; with `blur`,
 * the plate (blurred on the photo) is neither framed nor written.
 */
function drawBoxes(doc: PDFKit.PDFDocument, area: Box, item: MediaResult, blur: boolean): void {
  const draw = (box: Box, colour: string, label?: string) => {
    const x = area.x + box.x * area.width;
    const y = area.y + box.y * area.height;
    doc
      .save()
      .lineWidth(1.5)
      .rect(x, y, box.width * area.width, box.height * area.height)
      .stroke(colour);
    if (label)
      doc
        .fillColor(colour)
        .font('Helvetica-Bold')
        .fontSize(8)
        .text(label, x, Math.max(area.y, y - 10), { lineBreak: false });
    doc.restore();
  };
  for (const vehicle of item.analysis.vehicles?.detections ?? [])
    draw(vehicle.box, COLOURS.vehicle, vehicle.label);
  for (const damage of item.analysis.damage?.damages ?? [])
    draw(
      damage.box,
      COLOURS.damage,
      `${damage.part ? `${damage.part} ` : ''}${damage.type} (${damage.severity})`,
    );
  const plate = item.analysis.text?.plate;
  if (plate?.box && !blur) draw(plate.box, COLOURS.plate, plate.read ?? undefined);
}

function damageFacts(item: MediaResult): [string, string][] {
  const damages = item.analysis.damage?.damages ?? [];
  return damages.map((d, i): [string, string] => [
    `Damage ${i + 1}`,
    `${d.part ? `${d.part}: ` : ''}${d.type}, ${d.severity}${d.source === 'reviewer' ? ' (reviewer)' : `, confidence ${Math.round(d.confidence * 100)} %`}`,
  ]);
}

function photoFacts(item: MediaResult, blur: boolean): [string, string][] {
  const rows: [string, string][] = [];
  const exif = item.analysis.exif;
  if (exif?.capture_time) rows.push(['Taken', exif.capture_time]);
  const device = [exif?.camera_make, exif?.camera_model].filter(Boolean).join(' ');
  if (device) rows.push(['Device', device]);
  if (exif?.software) rows.push(['Software', exif.software]);
  if (exif?.gps) rows.push(['GPS', `${exif.gps.latitude.toFixed(5)}, ${exif.gps.longitude.toFixed(5)}`]);
  const capture = item.capture;
  if (capture) {
    rows.push([
      'Captured',
      `${capture.source === 'gallery' ? 'picked from the gallery' : 'in the app'}${capture.captured_at ? `, ${capture.captured_at}` : ''}`,
    ]);
    if (capture.location)
      rows.push([
        'Location',
        `${capture.location.latitude.toFixed(5)}, ${capture.location.longitude.toFixed(5)}`,
      ]);
  }
  const text = item.analysis.text;
  if (text?.plate.read && !blur) rows.push(['Plate read', text.plate.read]);
  if (text?.vin.read && !blur) rows.push(['VIN read', text.vin.read]);
  return rows;
}

function metadataFacts(result: InspectionResult): [string, string][] {
  const meta = result.client_metadata;
  const rows: [string, string][] = [];
  if (meta.agent_name || meta.agent_id)
    rows.push(['Agent', [meta.agent_name, meta.agent_id].filter(Boolean).join(', ')]);
  for (const [key, value] of Object.entries(meta.input_metadata ?? {}))
    if (typeof value === 'string' || typeof value === 'number') rows.push([key, String(value)]);
  return rows;
}

function heading(doc: PDFKit.PDFDocument, text: string): void {
  doc.font('Helvetica-Bold').fontSize(13).fillColor(COLOURS.text).text(text);
  doc.moveDown(0.3);
}

function facts(doc: PDFKit.PDFDocument, rows: [string, string][]): void {
  for (const [name, value] of rows) {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(COLOURS.muted).text(`${name}: `, { continued: true });
    doc.font('Helvetica').fillColor(COLOURS.text).text(value);
  }
}

/** An ISO time as a reader writes it: `2026-11-23 09:42 UTC`. */
const human = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
