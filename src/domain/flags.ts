// Every flag of a result, in the words a claims handler reads (the portal, its PDF report and
// docs/result.md#what-it-holds say the same). Pure: the portal's web app imports it too.

export interface FlagText {
  /** A few words, for a badge. */
  label: string;
  /** What it means and what to do about it. */
  explanation: string;
}

export const FLAG_TEXT: Record<string, FlagText> = {
  blurry: {
    label: 'Blurred',
    explanation: 'The photo is not sharp enough to judge details such as scratches or the plate.',
  },
  dark: { label: 'Too dark', explanation: 'Most of the photo is too dark to see the vehicle clearly.' },
  overexposed: {
    label: 'Over-exposed',
    explanation: 'Most of the photo is washed out by light, hiding details.',
  },
  low_resolution: {
    label: 'Low resolution',
    explanation: 'The photo has too few pixels for a close look at damage.',
  },
  edited: {
    label: 'Edited',
    explanation:
      'The file says it went through editing software, or was changed after it was taken. It may have been altered.',
  },
  reused: {
    label: 'Reused',
    explanation:
      "The same photo (or a near copy) was sent twice in this inspection, or before in another of this client's inspections.",
  },
  plate_mismatch: {
    label: 'Plate mismatch',
    explanation: 'The licence plate read on the photo is not the one given for this inspection.',
  },
  vin_mismatch: {
    label: 'VIN mismatch',
    explanation: 'The VIN read on the photo is not the one given for this inspection.',
  },
  odometer_mismatch: {
    label: 'Odometer mismatch',
    explanation:
      'The odometer read on the photo differs from the one given for this inspection by more than 500 (or 2 %).',
  },
  no_vehicle: {
    label: 'No vehicle',
    explanation: 'No car, truck, bus or motorcycle was found on the photo.',
  },
  damage: { label: 'Damage', explanation: 'Damage was found (by the damage model or a reviewer).' },
  possible_new_damage: {
    label: 'Possible new damage',
    explanation:
      "Something changed on the vehicle since its previous inspection's photo of the same view. A person confirms or dismisses each candidate in the compare view; nothing is charged until then.",
  },
  new_damage: {
    label: 'New damage',
    explanation: 'A reviewer confirmed damage that was not there at the previous inspection.',
  },
  odometer_rollback: {
    label: 'Odometer rollback',
    explanation:
      'The odometer reads less than at the previous inspection of the vehicle: wound back, misread, or another vehicle.',
  },
  picked_from_gallery: {
    label: 'From gallery',
    explanation:
      "The customer picked this photo from the phone's gallery instead of taking it in the app: it may be old.",
  },
  captured_far_from_others: {
    label: 'Taken elsewhere',
    explanation: 'This photo was taken far from where the other photos of the inspection were taken.',
  },
  undecodable: {
    label: 'Unreadable file',
    explanation: 'The file could not be decoded (cut short, damaged or too large), so it was not analysed.',
  },
};

/** The flag's words, or the flag itself for one this table does not know yet. */
export const flagText = (flag: string): FlagText =>
  FLAG_TEXT[flag] ?? { label: flag.replaceAll('_', ' '), explanation: flag.replaceAll('_', ' ') };
