// The inspection's PDF report (docs/portal.md#the-pdf-report, ADR 9): a cover (./report-cover.ts), then
// the summary, flags in words and estimate, then every photo with its boxes drawn and its metadata.
// Written with PDFKit, a page at a time as the photos are read (one photo in memory at a time), into a
// stream the route sends as it grows.
import { AppError } from '../../domain/errors.js';
import { flagText } from '../../domain/flags.js';
import type { InspectionResult } from '../../domain/result/index.js';
import type { Db } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { visibleInspection } from './access.js';
import { privacyRegions, type Box } from './privacy-regions.js';
import type { PortalCaller } from './sessions.js';
import { sharedView, type OpenedShare } from './shared-view.js';
import type { EstimatePart } from '../../domain/result/estimate-part.js';
import { drawEstimate } from './report-estimate.js';
import { drawBoxes } from './report-boxes.js';
import { drawCover, type ExpectedVehicle } from './report-cover.js';
import { reportPhoto } from './report-photo.js';
import { COLOURS, MARGIN, human, odometerText, partWords } from './report-style.js';

type MediaResult = InspectionResult['media'][number];

const PHOTO_MAX_SIDE = 1400;
/** What a page of the report shows of a photo or video (a stored result's item, or a shared one). */
export type ReportMedia = Pick<
  MediaResult,
  'id' | 'position' | 'original_id' | 'width' | 'height' | 'flags' | 'errors' | 'capture'
> & {
  /** Absent on a share without details. */
  sha256?: string | undefined;
  kind: MediaResult['kind'];
  analysis: Pick<MediaResult['analysis'], 'vehicles' | 'damage' | 'exif' | 'text' | 'video'>;
};

/** What the report says, and nothing else: the portal's from the stored result, a share's from its view. */
export interface ReportInput {
  inspectionId: string;
  caseId: string;
  /** Under the title: who, and what it is. */
  byline: string;
  createdAt: string;
  analysedAt: string;
  summary: Pick<InspectionResult['summary'], 'images' | 'videos' | 'damages' | 'flags' | 'flag_counts'>;
  review: string;
  /** The client's own facts (agent, input metadata): the portal's report only. */
  facts: [string, string][];
  media: ReportMedia[];
  /** What the client said of the vehicle (inputMetaData): the portal's report only. */
  expected?: ExpectedVehicle;
  /** The repair estimate: the portal's report only (a share shows evidence, not prices). */
  estimate?: EstimatePart | undefined;
  /** On a blurred share: the regions each photo is blurred in (people, plates), by media id. */
  blurred?: (mediaId: string) => Box[];
}

type ReportDeps = { db: Db; storage: MediaStorage; now: () => number };

/** A PDF to send: its file name, and the document, written as it is sent. */
export interface PdfFile {
  fileName: string;
  pdf: PDFKit.PDFDocument;
}

const fileNameOf = (caseId: string) => `inspection-${caseId.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`;

/** The report of an inspection the caller sees: its latest result, whole. */
export async function reportFor(
  deps: ReportDeps,
  caller: PortalCaller,
  inspectionId: string,
): Promise<PdfFile> {
  const inspection = await visibleInspection(deps.db, caller, inspectionId);
  if (inspection.result === null || inspection.status !== 'completed')
    throw new AppError('PORTAL_NOT_ANALYSED');
  const client = await deps.db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  const result = JSON.parse(inspection.result) as InspectionResult;
  const review = result.review;
  const pdf = await renderReport(deps, {
    inspectionId: inspection.id,
    caseId: result.case_id,
    byline: `${client.name} · ${result.source === 'link' ? 'inspection link' : 'API upload'} · result version ${result.version}`,
    createdAt: result.created_at,
    analysedAt: result.analysed_at,
    summary: result.summary,
    review: review
      ? `${review.decision ?? 'corrected'} by ${review.reviewer.email} on ${human(review.reviewed_at)}${review.note ? ` — “${review.note}”` : ''}`
      : (inspection.review_decision ?? 'not reviewed'),
    facts: metadataFacts(result),
    expected: expectedVehicle(result),
    media: result.media,
    estimate: result.estimate,
  });
  return { fileName: fileNameOf(result.case_id), pdf };
}

/**
 * The report of a share link: its view (./shared-view.ts) and nothing more. On a blurred share, the
 * photos are blurred where the stored result found people and plates.
 */
export async function sharedReport(deps: ReportDeps, opened: OpenedShare): Promise<PdfFile> {
  const view = await sharedView(deps.db, opened);
  const stored = JSON.parse(opened.inspection.result!) as InspectionResult;
  const byId = new Map(stored.media.map((item) => [item.id, item]));
  const pdf = await renderReport(deps, {
    inspectionId: opened.inspection.id,
    caseId: view.case_id,
    byline: `${view.client_name} · shared report`,
    createdAt: view.created_at,
    analysedAt: view.analysed_at,
    summary: view.summary,
    review: view.review_decision ?? 'not reviewed',
    facts: [],
    media: view.photos,
    ...(view.blur && {
      blurred: (id: string) => {
        const item = byId.get(id);
        return item ? privacyRegions(item) : [];
      },
    }),
  });
  return { fileName: fileNameOf(view.case_id), pdf };
}

/**
 * The report as a stream; an error while it is written destroys the stream with that error. PDFKit is
 * loaded on the first report, not with the service.
 */
export async function renderReport(deps: ReportDeps, input: ReportInput): Promise<PDFKit.PDFDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Inspection ${input.caseId}`, Creator: 'Walkaround', Producer: 'Walkaround' },
  });
  void write(deps, doc, input).then(
    () => doc.end(),
    (error: unknown) => doc.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return doc;
}

async function write(deps: ReportDeps, doc: PDFKit.PDFDocument, input: ReportInput): Promise<void> {
  const { summary } = input;
  doc.fillColor(COLOURS.text).font('Helvetica-Bold').fontSize(20).text(`Inspection ${input.caseId}`);
  doc.moveDown(0.3).font('Helvetica').fontSize(10).fillColor(COLOURS.muted);
  doc.text(input.byline);
  doc.text(`Received ${human(input.createdAt)} · analysed ${human(input.analysedAt)}`);
  doc.text(`Report generated ${human(new Date(deps.now()).toISOString())}`);
  if (input.blurred) doc.text('Faces and licence plates are blurred in this report.');
  doc.moveDown();

  facts(doc, [
    ['Review', input.review],
    ['Flags', summary.flags.length === 0 ? 'none' : summary.flags.map((f) => flagText(f).label).join(', ')],
  ]);
  await drawCover(deps, doc, input);

  doc.addPage();
  heading(doc, 'Summary');
  facts(doc, [
    ['Photos and videos', `${summary.images} photo(s), ${summary.videos} video(s)`],
    ['Damages', String(summary.damages)],
    ['Review', input.review],
    ...input.facts,
  ]);
  doc.moveDown(0.5);
  heading(doc, 'Flags');
  if (summary.flags.length === 0) doc.font('Helvetica').fontSize(10).text('None.');
  for (const flag of summary.flags) {
    const { label, explanation } = flagText(flag);
    const count = summary.flag_counts[flag] ?? 0;
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor(COLOURS.text)
      .text(`${label} (${count})`, { continued: true });
    doc.font('Helvetica').text(`: ${explanation}`);
  }

  if (input.estimate) {
    doc.moveDown(0.5);
    heading(doc, 'Repair estimate');
    drawEstimate(doc, input.estimate, COLOURS);
  }

  const readings = readingFacts(input.media, input.blurred !== undefined);
  if (readings.length > 0) {
    doc.moveDown(0.5);
    heading(doc, 'Readings');
    facts(doc, readings);
  }

  for (const item of input.media) {
    doc.addPage();
    await mediaPage(deps, doc, input, item);
  }
}

async function mediaPage(
  deps: { storage: MediaStorage; db: Db },
  doc: PDFKit.PDFDocument,
  input: ReportInput,
  item: ReportMedia,
): Promise<void> {
  heading(doc, `${item.position + 1}. ${item.original_id ?? item.kind}`);
  const width = doc.page.width - 2 * MARGIN;
  if (item.kind === 'image' && item.width > 0) {
    const photo = await reportPhoto(deps, input, item, PHOTO_MAX_SIDE);
    if (photo) {
      const maxHeight = doc.page.height / 2;
      const scale = Math.min(width / item.width, maxHeight / item.height);
      const box = { x: MARGIN, y: doc.y, width: item.width * scale, height: item.height * scale };
      doc.image(photo, box.x, box.y, { width: box.width, height: box.height });
      drawBoxes(doc, box, item, { blur: input.blurred !== undefined, labels: true });
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
    ...photoFacts(item, input.blurred !== undefined),
    ...(item.sha256 ? [['SHA-256', item.sha256] as [string, string]] : []),
  ]);
  if (item.errors.length > 0)
    facts(
      doc,
      item.errors.map((e): [string, string] => [`Not analysed (${e.analyzer})`, e.message]),
    );
}

/** `read (expected …, matches|differs)` of one reading. */
function versus(read: string, expected: string | null | undefined, match: boolean | null): string {
  if (!expected) return read;
  return `${read} (expected ${expected}: ${match ? 'matches' : 'differs'})`;
}

/**
 * The readings of every photo, for the first page: what was read, and against what was expected. With
 * `blur`, no plate or VIN (they name the vehicle).
 */
function readingFacts(media: ReportMedia[], blur: boolean): [string, string][] {
  const rows: [string, string][] = [];
  for (const item of media) {
    const text = item.analysis.text;
    const name = `${item.position + 1}. ${item.original_id ?? item.kind}`;
    if (!text) continue;
    if (text.plate.read && !blur)
      rows.push([`${name}, plate`, versus(text.plate.read, text.plate.expected, text.plate.match)]);
    if (text.vin.read && !blur)
      rows.push([`${name}, VIN`, versus(text.vin.read, text.vin.expected, text.vin.match)]);
    const odometer = text.odometer && odometerText(text.odometer);
    if (odometer)
      rows.push([
        `${name}, odometer`,
        versus(
          odometer,
          text.odometer?.expected == null
            ? null
            : odometerText({ read: text.odometer.expected, unit: text.odometer.unit }),
          text.odometer?.match ?? null,
        ),
      ]);
  }
  return rows;
}

function damageFacts(item: ReportMedia): [string, string][] {
  const damages = item.analysis.damage?.damages ?? [];
  return damages.map((d, i): [string, string] => [
    `Damage ${i + 1}`,
    `${d.new ? 'new since the previous inspection: ' : ''}${d.part ? `${partWords(d.part)}: ` : ''}${d.type}, ${d.severity}${d.source === 'reviewer' ? ' (reviewer)' : `, confidence ${Math.round(d.confidence * 100)} %`}`,
  ]);
}

function photoFacts(item: ReportMedia, blur: boolean): [string, string][] {
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
  const odometer = text?.odometer && odometerText(text.odometer);
  if (odometer) rows.push(['Odometer read', odometer]);
  return rows;
}

/** The plate, VIN and odometer the client gave (inputMetaData), to set against what the photos read. */
function expectedVehicle(result: InspectionResult): ExpectedVehicle {
  const meta = result.client_metadata.input_metadata ?? {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const odometer = Number(meta['odometer']);
  return {
    plate: text(meta['licensePlate']),
    vin: text(meta['vin']),
    odometer: meta['odometer'] !== undefined && Number.isFinite(odometer) ? odometer : undefined,
  };
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
