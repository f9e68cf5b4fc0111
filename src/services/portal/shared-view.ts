// What a share link shows to someone without an account (docs/portal.md#sharing), built by allow-list:
// each field below is copied from the stored result on purpose, and nothing else is (not the client's
// metadata, the agent, the reviewer, source URLs, storage keys, or links to other inspections; a photo
// with confirmed new damage says only that its "before" can be fetched through the share). With
// `blur`, nothing that names the vehicle or a place is either: no plate or VIN reading, no input
// metadata, no GPS position, no capture location, no file name. The share page, its API and its PDF all
// read this view, so none of them can show more.
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../../domain/errors.js';
import { CapturePart } from '../../domain/result/capture-part.js';
import { DamagePart } from '../../domain/result/damage-part.js';
import { TextPart, VehiclesPart } from '../../domain/result/detection-parts.js';
import { ExifPart, QualityPart } from '../../domain/result/image-parts.js';
import type { InspectionResult } from '../../domain/result/index.js';
import { PHOTO_STEP_IDS } from '../../domain/personas.js';
import { Nullable } from '../../domain/schema.js';
import type { Db, InspectionRow, ShareLinkRow } from '../../ports/database.js';
import type { MediaStorage } from '../../ports/media-storage.js';
import { mediaFile, type MediaFile } from './media-files.js';

type MediaResult = InspectionResult['media'][number];

export const SharedPhoto = Type.Object(
  {
    id: Type.String(),
    position: Type.Integer(),
    kind: Type.Literal('image'),
    original_id: Nullable(
      Type.String({ description: 'The name it was sent with; null on a blurred share.' }),
    ),
    mime: Type.String(),
    bytes: Type.Integer(),
    width: Type.Integer(),
    height: Type.Integer(),
    sha256: Type.Optional(Type.String({ description: 'With `details` only.' })),
    flags: Type.Array(Type.String(), { description: 'Without `details`: only `damage` and `new_damage`.' }),
    errors: Type.Array(Type.Object({ analyzer: Type.String(), message: Type.String() })),
    analysis: Type.Object(
      {
        quality: Type.Optional(QualityPart),
        exif: Type.Optional(ExifPart),
        vehicles: Type.Optional(VehiclesPart),
        damage: Type.Optional(DamagePart),
        text: Type.Optional(TextPart),
      },
      { additionalProperties: false, description: 'On a blurred share: no `text`, and `exif.gps` null.' },
    ),
    capture: Type.Optional(CapturePart),
    has_before: Type.Boolean({
      description:
        'A reviewer confirmed new damage on it: its counterpart in the previous inspection is at `/shared/media/{id}/before`, to show before and after (docs/vehicles.md).',
    }),
  },
  { additionalProperties: false },
);
export type SharedPhoto = Static<typeof SharedPhoto>;

export const SharedView = Type.Object(
  {
    client_name: Type.String(),
    case_id: Type.String(),
    review_decision: Nullable(Type.Union([Type.Literal('accepted'), Type.Literal('rejected')])),
    blur: Type.Boolean({ description: 'Faces and licence plates are blurred in the photos and the PDF.' }),
    details: Type.Boolean({
      description:
        'The sharer included fraud signals, hashes, EXIF, readings and file names; without it the view holds the photos, damages and review.',
    }),
    expires_at: Type.String({ format: 'date-time' }),
    created_at: Type.String({ format: 'date-time' }),
    analysed_at: Type.String({ format: 'date-time' }),
    summary: Type.Object({
      images: Type.Integer(),
      videos: Type.Integer(),
      damages: Type.Integer(),
      flags: Type.Array(Type.String()),
      flag_counts: Type.Record(Type.String(), Type.Integer()),
    }),
    photos: Type.Array(SharedPhoto),
  },
  { additionalProperties: false },
);
export type SharedView = Static<typeof SharedView>;

export interface OpenedShare {
  share: ShareLinkRow;
  inspection: InspectionRow;
}

/** The shared inspection as the share page shows it; PORTAL_NOT_ANALYSED until it has a result. */
export async function sharedView(db: Db, opened: OpenedShare): Promise<SharedView> {
  const { share, inspection } = opened;
  if (inspection.result === null || inspection.status !== 'completed')
    throw new AppError('PORTAL_NOT_ANALYSED');
  const client = await db
    .selectFrom('clients')
    .select('name')
    .where('id', '=', inspection.client_id)
    .executeTakeFirstOrThrow();
  const result = JSON.parse(inspection.result) as InspectionResult;
  const blur = share.blur === 1;
  const details = share.details === 1;
  const shown = (flags: string[]) =>
    details ? flags : flags.filter((flag) => OUTSIDER_FLAGS.includes(flag));
  const summaryFlags = shown(result.summary.flags);
  return {
    client_name: client.name,
    case_id: inspection.case_id,
    review_decision: inspection.review_decision,
    blur,
    details,
    expires_at: new Date(share.expires_at).toISOString(),
    created_at: result.created_at,
    analysed_at: result.analysed_at,
    summary: {
      images: result.summary.images,
      videos: result.summary.videos,
      damages: result.summary.damages,
      flags: summaryFlags,
      flag_counts: Object.fromEntries(
        summaryFlags.map((flag) => [flag, result.summary.flag_counts[flag] ?? 0]),
      ),
    },
    photos: result.media
      .filter((m) => m.kind === 'image' && m.width > 0)
      .map((m) => (details ? sharedPhoto(m, blur) : outsiderPhoto(m))),
  };
}

const isStepId = (id: string | null) => id !== null && (PHOTO_STEP_IDS as readonly string[]).includes(id);

/** Flags an outsider is shown: what was found on the vehicle, not the fraud signals. */
const OUTSIDER_FLAGS = ['damage', 'new_damage'];

/**
 * A photo as an outsider sees it by default: the photo, its vehicles and damages, its capture step's
 * name (never a file name); no fraud flag, hash, EXIF, reading or capture fact.
 */
function outsiderPhoto(item: MediaResult): SharedPhoto {
  const { vehicles, damage } = item.analysis;
  return {
    id: item.id,
    position: item.position,
    kind: 'image',
    // A capture step's id (`front_left`) says which view it is; any other name may say more.
    original_id: isStepId(item.original_id) ? item.original_id : null,
    mime: item.mime,
    bytes: item.bytes,
    width: item.width,
    height: item.height,
    flags: item.flags.filter((flag) => OUTSIDER_FLAGS.includes(flag)),
    errors: [],
    analysis: { ...(vehicles && { vehicles: { ...vehicles, people: [] } }), ...(damage && { damage }) },
    has_before: previousPhotoOf(item) !== null,
  };
}

function sharedPhoto(item: MediaResult, blur: boolean): SharedPhoto {
  const { quality, exif, vehicles, damage, text } = item.analysis;
  return {
    id: item.id,
    position: item.position,
    kind: 'image',
    original_id: blur ? null : item.original_id,
    mime: item.mime,
    bytes: item.bytes,
    width: item.width,
    height: item.height,
    sha256: item.sha256,
    flags: item.flags,
    errors: item.errors.map((e) => ({ analyzer: e.analyzer, message: e.message })),
    analysis: {
      ...(quality && { quality }),
      ...(exif && { exif: blur ? { ...exif, gps: null } : exif }),
      ...(vehicles && { vehicles }),
      ...(damage && { damage }),
      ...(text && !blur && { text }),
    },
    ...(item.capture && {
      capture: blur ? { ...item.capture, location: null, distance_from_others_m: null } : item.capture,
    }),
    has_before: previousPhotoOf(item) !== null,
  };
}

/**
 * The earlier photo a share shows beside this one: only where a reviewer confirmed new damage, and only
 * the counterpart the comparison paired it with (so a share opens no other photo of another inspection).
 */
export function previousPhotoOf(item: MediaResult): { inspectionId: string; mediaId: string } | null {
  const changes = item.analysis.changes;
  const confirmed = item.analysis.damage?.damages.some((d) => d.new) ?? false;
  if (!confirmed || changes?.status !== 'compared' || !changes.previous_media_id) return null;
  return { inspectionId: changes.previous_inspection_id, mediaId: changes.previous_media_id };
}

/** The "before" photo of a shared photo with confirmed new damage (blurred like the share), or NOT_FOUND. */
export async function sharedBeforePhoto(
  deps: { db: Db; storage: MediaStorage },
  opened: OpenedShare,
  mediaId: string,
): Promise<MediaFile> {
  const { share, inspection } = opened;
  const result = inspection.result === null ? null : (JSON.parse(inspection.result) as InspectionResult);
  const item = result?.media.find((m) => m.id === mediaId);
  const before = item ? previousPhotoOf(item) : null;
  if (!before) throw new AppError('NOT_FOUND');
  const previous = await deps.db
    .selectFrom('inspections')
    .selectAll()
    .where('id', '=', before.inspectionId)
    .where('client_id', '=', inspection.client_id)
    .executeTakeFirst();
  if (!previous) throw new AppError('NOT_FOUND');
  return mediaFile(deps, previous, before.mediaId, 'original', { blur: share.blur === 1 });
}
