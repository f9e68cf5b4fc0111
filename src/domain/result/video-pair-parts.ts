// The video and image-pair parts of the inspection result (docs/result.md#what-it-holds): what ffprobe says
// about a video plus the keyframes taken from it, and how much two photos of a before/after pair differ and
// where. Pure shapes, snake_case keys, one source for validation, types and the published result schema.
import { Type, type Static } from '@sinclair/typebox';

const Unit = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const VideoProbe = Type.Object(
  {
    duration: Type.Number({ minimum: 0, description: 'Length in seconds.' }),
    format: Type.String({ description: 'Container as ffprobe names it, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.' }),
    codec: Type.String({ description: 'Codec of the video stream, e.g. `h264`, `hevc`, `vp8`.' }),
    width: Type.Integer({ minimum: 0, description: 'Stored frame width in pixels (before rotation).' }),
    height: Type.Integer({ minimum: 0, description: 'Stored frame height in pixels (before rotation).' }),
    frame_rate: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
      description: 'Average frames per second; null when the container does not say.',
    }),
    rotation: Type.Integer({
      minimum: 0,
      maximum: 359,
      description:
        'Degrees the frames are turned counter-clockwise for display (display matrix), 0 when none. ' +
        'Keyframes are already shown upright.',
    }),
    has_audio: Type.Boolean({ description: 'Whether the file holds an audio stream.' }),
  },
  { additionalProperties: false },
);
export type VideoProbe = Static<typeof VideoProbe>;

export const VideoKeyframe = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'Position in the list, from 0.' }),
    time: Type.Number({ minimum: 0, description: 'Seconds from the start of the video.' }),
    analysis: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "The image analysis of this frame, shaped like an image media item's parts.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type VideoKeyframe = Static<typeof VideoKeyframe>;

export const VideoPart = Type.Object(
  {
    ...VideoProbe.properties,
    keyframes: Type.Array(VideoKeyframe, {
      description: 'About one frame per second, evenly spread over long videos, in time order.',
    }),
  },
  { additionalProperties: false, description: 'Facts about a video and the frames analysed from it.' },
);
export type VideoPart = Static<typeof VideoPart>;

export const ChangedRegion = Type.Object(
  {
    x: Unit('Left edge, as a fraction of the image width.'),
    y: Unit('Top edge, as a fraction of the image height.'),
    width: Unit('Width, as a fraction of the image width.'),
    height: Unit('Height, as a fraction of the image height.'),
    ssim: Unit('Mean structural similarity of the blocks inside the region (1 = unchanged).'),
  },
  { additionalProperties: false },
);
export type ChangedRegion = Static<typeof ChangedRegion>;

export const PairPart = Type.Object(
  {
    similarity: Unit('Mean block SSIM of the two photos: 1 identical, near 0 unrelated.'),
    changed_regions: Type.Array(ChangedRegion, {
      description: 'Boxes around the areas that differ, most changed first. Assumes aligned shots.',
    }),
  },
  { additionalProperties: false, description: 'How the two photos of a before/after pair differ.' },
);
export type PairPart = Static<typeof PairPart>;
