// Personas (docs/api.md#personas): the capture flow a link opens. The built-in templates give a sensible flow
// without any set-up; clients may later customise steps, language and branding.
export type PersonaKind = 'photo' | 'video';

export interface CaptureStep {
  id: string;
  label: string;
  instructions: string;
  required: boolean;
  /** Name of the framing overlay the capture app draws. */
  overlay: string;
}

export interface Branding {
  name?: string;
  colour?: string;
  logoUrl?: string;
}

export interface PersonaTemplate {
  name: string;
  kind: PersonaKind;
  steps: CaptureStep[];
  videoMinSeconds: number | null;
  videoMaxSeconds: number | null;
}

const angle = (id: string, label: string, instructions: string): CaptureStep => ({
  id,
  label,
  instructions,
  required: true,
  overlay: id,
});

export const PHOTO_TEMPLATE: PersonaTemplate = {
  name: 'Eight-angle walk-around',
  kind: 'photo',
  videoMinSeconds: null,
  videoMaxSeconds: null,
  steps: [
    angle('front', 'Front', 'Stand 3 m in front of the car; fit the whole front in the frame.'),
    angle('front_right', 'Front right', 'Stand at the front right corner, at 45°.'),
    angle('right', 'Right side', 'Stand 3 m from the right side; fit the whole side in the frame.'),
    angle('rear_right', 'Rear right', 'Stand at the rear right corner, at 45°.'),
    angle('rear', 'Rear', 'Stand 3 m behind the car; fit the whole rear in the frame.'),
    angle('rear_left', 'Rear left', 'Stand at the rear left corner, at 45°.'),
    angle('left', 'Left side', 'Stand 3 m from the left side; fit the whole side in the frame.'),
    angle('front_left', 'Front left', 'Stand at the front left corner, at 45°.'),
    angle('odometer', 'Odometer', 'Switch the ignition on and photograph the mileage, sharp and readable.'),
    angle(
      'vin',
      'VIN',
      'Photograph the chassis number (windscreen base or door pillar), sharp and readable.',
    ),
    angle('plate', 'Number plate', 'Photograph the rear number plate straight on, sharp and readable.'),
  ],
};

export const VIDEO_TEMPLATE: PersonaTemplate = {
  name: 'Video walk-around',
  kind: 'video',
  videoMinSeconds: 30,
  videoMaxSeconds: 120,
  steps: [
    {
      id: 'walkaround',
      label: 'Walk-around video',
      instructions:
        'Start at the front, walk slowly around the whole car at about 2 m, then film the odometer and the VIN.',
      required: true,
      overlay: 'walkaround',
    },
  ],
};

export const templateFor = (kind: PersonaKind): PersonaTemplate =>
  kind === 'photo' ? PHOTO_TEMPLATE : VIDEO_TEMPLATE;

export const SUPPORTED_LANGUAGES = ['en', 'fr', 'de', 'es'] as const;
