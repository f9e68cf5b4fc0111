// The bodies of the persona routes, the API's (routes/personas.ts) and the portal's
// (routes/portal/personas.ts): one schema for each, and the settings the services take from them.
import { Type, type Static } from '@sinclair/typebox';
import { PHOTO_DIMENSION_MAX, PHOTO_DIMENSION_MIN, SUPPORTED_LANGUAGES } from '../../domain/personas.js';
import { StepInput, type PersonaSettings } from '../../services/personas/manage.js';

const Branding = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    colour: Type.Optional(Type.String({ description: '`#rrggbb`' })),
    logoUrl: Type.Optional(Type.String({ maxLength: 2000, description: 'An https:// URL.' })),
  },
  { additionalProperties: false },
);

const Settings = {
  name: Type.Optional(Type.String({ maxLength: 200 })),
  language: Type.Optional(Type.Union(SUPPORTED_LANGUAGES.map((code) => Type.Literal(code)))),
  steps: Type.Optional(Type.Array(StepInput, { minItems: 1, maxItems: 50 })),
  video_min_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  video_max_seconds: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  branding: Type.Optional(Branding),
  allow_gallery: Type.Optional(
    Type.Boolean({
      description: "The customer may pick photos or videos from the phone's gallery (default false).",
    }),
  ),
  ask_location: Type.Optional(
    Type.Boolean({
      description:
        "The capture app asks for the customer's location and sends it with each capture (default false).",
    }),
  ),
  // Any number: the persona rules check that it is whole and in range, with a message naming the field.
  max_photo_dimension: Type.Optional(
    Type.Union([Type.Number(), Type.Null()], {
      description: `Photo personas: the capture app scales photos whose long side is larger (${PHOTO_DIMENSION_MIN} to ${PHOTO_DIMENSION_MAX} px); null sends them as captured (default).`,
    }),
  ),
};
export const CreateBody = Type.Object(
  { kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]), ...Settings },
  { additionalProperties: false },
);
export const UpdateBody = Type.Object(Settings, { additionalProperties: false });
// Path parameters arrive as text (no type coercion anywhere in the app).
export const IdParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });

export const settingsOf = (body: Static<typeof UpdateBody>): PersonaSettings => ({
  ...(body.name !== undefined && { name: body.name }),
  ...(body.language !== undefined && { language: body.language }),
  ...(body.steps !== undefined && { steps: body.steps }),
  ...(body.video_min_seconds !== undefined && { videoMinSeconds: body.video_min_seconds }),
  ...(body.video_max_seconds !== undefined && { videoMaxSeconds: body.video_max_seconds }),
  ...(body.branding !== undefined && { branding: body.branding }),
  ...(body.allow_gallery !== undefined && { allowGallery: body.allow_gallery }),
  ...(body.ask_location !== undefined && { askLocation: body.ask_location }),
  ...(body.max_photo_dimension !== undefined && { maxPhotoDimension: body.max_photo_dimension }),
});
