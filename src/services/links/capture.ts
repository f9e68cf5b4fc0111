// The capture API behind a link (docs/api.md#capture-api), authorised by the link token alone: who the token
// opens, the flow the capture app shows, and the submit that turns the captured media into an inspection
// through the same pipeline as an API upload.
import { Type, type Static } from '@sinclair/typebox';
import {
  type Db,
  inTransaction,
  type LinkMediaRow,
  type LinkRow,
  type PersonaRow,
} from '../../ports/database.js';
import { captureMetadataFromJson } from '../../domain/capture-metadata.js';
import { AppError } from '../../domain/errors.js';
import { Nullable } from '../../domain/schema.js';
import { stepsFromJson, type Branding, type CaptureStep } from '../../domain/personas.js';
import { BrandingView, captureOptionsView, CaptureOptionsView, StepView } from '../personas/manage.js';
import { recordInspection, type RecordDeps } from '../record-inspection.js';
import { lockOpenLink } from './captured-media.js';
import { emitLinkEvent } from './link-events.js';
import { hashLinkToken, looksLikeLinkToken } from './tokens.js';

export type CaptureDeps = RecordDeps & { db: Db };

export interface OpenLink {
  link: LinkRow;
  persona: PersonaRow;
  steps: CaptureStep[];
}

/** The open link a token stands for; throws 401 (unknown), 410 (expired) or 409 (submitted). */
export async function linkOfToken(
  deps: { db: Db; now: () => number },
  token: string | undefined,
): Promise<OpenLink> {
  if (token === undefined || !looksLikeLinkToken(token)) throw new AppError('CAPTURE_LINK_INVALID');
  const link = await deps.db
    .selectFrom('links')
    .selectAll()
    .where('token_hash', '=', hashLinkToken(token))
    .executeTakeFirst();
  if (!link) throw new AppError('CAPTURE_LINK_INVALID');
  if (link.status === 'submitted') throw new AppError('CAPTURE_LINK_SUBMITTED');
  if (link.status === 'expired' || link.expires_at <= deps.now()) throw new AppError('CAPTURE_LINK_EXPIRED');
  const persona = await deps.db
    .selectFrom('personas')
    .selectAll()
    .where('id', '=', link.persona_id)
    .executeTakeFirstOrThrow();
  return { link, persona, steps: stepsFromJson(persona.steps) };
}

/** Everything the capture app shows: steps, branding, language, what is uploaded, time left. */
/** What `GET /app/api/flow` answers: the link's capture flow and what is uploaded so far. */
export const FlowView = Type.Object({
  link_id: Type.String(),
  case_id: Nullable(Type.String()),
  expires_at: Type.String({ format: 'date-time' }),
  seconds_left: Type.Integer({ minimum: 0 }),
  persona: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]),
    language: Type.String(),
    video_min_seconds: Nullable(Type.Integer()),
    video_max_seconds: Nullable(Type.Integer()),
    branding: BrandingView,
    ...CaptureOptionsView.properties,
    steps: Type.Array(StepView),
  }),
  uploaded: Type.Array(
    Type.Object({
      step_id: Type.String(),
      kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
      mime: Type.String(),
      bytes: Type.Integer(),
      uploaded_at: Type.String({ format: 'date-time' }),
    }),
  ),
  missing_steps: Type.Array(Type.String(), {
    description: 'Required steps still without media; submit is possible when empty.',
  }),
});
export type FlowView = Static<typeof FlowView>;

/** What `POST /app/api/submit` answers: the inspection made of the link's media. */
export const SubmitAnswer = Type.Object({
  status: Type.Literal('success'),
  id: Type.String({ description: "The inspection's id (the link's)." }),
  case_id: Type.String(),
});

/**
 * The flow of the link; the first read marks the link opened and records `link.opened` (once, even
 * when the app reads it from two tabs at the same time).
 */
export async function readFlow(deps: CaptureDeps, open: OpenLink): Promise<FlowView> {
  const { link, persona, steps } = open;
  if (link.opened_at === null) {
    await inTransaction(deps.db, async (trx) => {
      const openedAt = deps.now();
      const updated = await trx
        .updateTable('links')
        .set({ opened_at: openedAt })
        .where('id', '=', link.id)
        .where('opened_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1)
        await emitLinkEvent(trx, deps, 'link.opened', { ...link, opened_at: openedAt });
    });
  }
  const media = await capturedMedia(deps.db, link.id);
  return {
    link_id: link.id,
    case_id: link.case_id,
    expires_at: new Date(link.expires_at).toISOString(),
    seconds_left: Math.max(0, Math.floor((link.expires_at - deps.now()) / 1000)),
    persona: {
      id: persona.id,
      name: persona.name,
      kind: persona.kind,
      language: persona.language,
      video_min_seconds: persona.video_min_seconds,
      video_max_seconds: persona.video_max_seconds,
      branding: JSON.parse(persona.branding) as Branding,
      ...captureOptionsView(persona),
      steps,
    },
    uploaded: media.map((m) => ({
      step_id: m.step_id,
      kind: m.kind,
      mime: m.mime,
      bytes: m.bytes,
      uploaded_at: new Date(m.created_at).toISOString(),
    })),
    missing_steps: missingSteps(steps, media),
  };
}

/**
 * Turns the captured media into an inspection (its id is the link's) exactly like an API upload: same
 * rows, same analysis job, same `inspection.received` event; records `link.submitted`; spends the token.
 */
export async function submitLink(deps: CaptureDeps, open: OpenLink): Promise<Static<typeof SubmitAnswer>> {
  const { link, steps } = open;
  const caseId = link.case_id ?? '';
  await inTransaction(deps.db, async (trx) => {
    // Holds the link: a capture finishing now lands before this reads the media, or is refused.
    await lockOpenLink(trx, link.id, deps.now());
    const media = await capturedMedia(trx, link.id);
    if (media.length === 0) throw new AppError('CAPTURE_NOTHING_CAPTURED');
    const missing = missingSteps(steps, media);
    if (missing.length > 0)
      throw new AppError('CAPTURE_STEPS_MISSING', { params: { steps: missing.join(', ') } });
    const order = new Map(steps.map((step, index) => [step.id, index]));
    media.sort((a, b) => (order.get(a.step_id) ?? 0) - (order.get(b.step_id) ?? 0));

    const now = deps.now();
    await trx
      .updateTable('links')
      .set({ status: 'submitted', submitted_at: now })
      .where('id', '=', link.id)
      .execute();
    const client = await trx
      .selectFrom('clients')
      .selectAll()
      .where('id', '=', link.client_id)
      .executeTakeFirstOrThrow();
    await recordInspection(trx, deps, {
      client,
      source: 'link',
      fields: {
        session: link.id,
        case_id: caseId,
        compare_with: link.compare_with ?? undefined,
        inputMetaData:
          link.input_metadata === null
            ? undefined
            : (JSON.parse(link.input_metadata) as Record<string, unknown>),
      },
      media: media.map((m, position) => ({
        position,
        kind: m.kind,
        mime: m.mime,
        storageKey: m.storage_key,
        sha256: m.sha256,
        bytes: m.bytes,
        // Which capture step the media answers, as `original_Id` does for an API upload.
        originalId: m.step_id,
        captureMetadata: captureMetadataFromJson(m.capture_metadata),
      })),
    });
    await emitLinkEvent(trx, deps, 'link.submitted', { ...link, status: 'submitted', submitted_at: now });
  });
  return { status: 'success', id: link.id, case_id: caseId };
}

const capturedMedia = (db: Db, linkId: string) =>
  db.selectFrom('link_media').selectAll().where('link_id', '=', linkId).orderBy('created_at').execute();

function missingSteps(steps: CaptureStep[], media: LinkMediaRow[]): string[] {
  const done = new Set(media.map((m) => m.step_id));
  return steps.filter((step) => step.required && !done.has(step.id)).map((step) => step.id);
}
