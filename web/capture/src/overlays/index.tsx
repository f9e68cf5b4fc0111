/**
 * Framing overlays of the camera screen: line art drawn over the live picture, one per capture step.
 *
 * Stroke-only, in `currentColor` (the app sets the colour) over a darker, wider stroke, so that it reads
 * on a bright sky as well as on asphalt at night. The car angles are named after where the camera stands:
 * at `front_right` it sees the car's front right corner, the front on the viewer's right and the right side
 * running away to the left, as in `right`, where the front points to the viewer's right; `front_left`,
 * `left` and `rear_left` are their mirror images.
 */
import type { JSX } from 'preact';
import { ART, FRAME, MIRRORED, type Art } from './art.js';

/** Every overlay the camera screen may ask for, the car angles in walk-around order; others get a frame. */
/** The eight walk-around angles: outlines of the whole vehicle, drawn for a landscape picture. */
export const CAR_ANGLES: readonly string[] = [
  'front',
  'front_right',
  'right',
  'rear_right',
  'rear',
  'rear_left',
  'left',
  'front_left',
];

export const OVERLAY_NAMES: readonly string[] = [...CAR_ANGLES, 'odometer', 'vin', 'plate', 'walkaround'];

interface Style {
  width: number;
  dash?: string;
  opacity?: number;
}

/** The stroke of each kind of line of an {@link Art}, in drawing order. */
const STYLES: ReadonlyArray<readonly [keyof Art, Style]> = [
  ['f', { width: 2, opacity: 0.8 }],
  ['c', { width: 2, dash: '15 5', opacity: 0.8 }],
  ['d', { width: 2 }],
  ['s', { width: 2.5, dash: '10 8' }],
  ['o', { width: 3 }],
];

/** The contrast stroke drawn under the coloured one: this much wider, in this colour. */
const UNDER = { extra: 2, colour: 'rgba(0,0,0,.45)' };

/** The record's own value at `key` (never one inherited from Object.prototype, such as `toString`). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function strokes(art: Art, colour: string, extra: number): JSX.Element[] {
  const paths: JSX.Element[] = [];
  for (const [kind, style] of STYLES) {
    const d = art[kind];
    if (d)
      paths.push(
        <path
          key={kind}
          d={d}
          stroke={colour}
          stroke-width={style.width + extra}
          stroke-dasharray={style.dash}
          stroke-opacity={style.opacity}
        />,
      );
  }
  return paths;
}

/**
 * The overlay called `name` as an inline SVG, scaled to fit its box and centred (give it a size with CSS,
 * the colour with `color`). A name without art of its own gets corner brackets.
 */
export function Overlay(props: { name: string; class?: string }): JSX.Element {
  const mirrorOf = own(MIRRORED, props.name);
  const art = own(ART, mirrorOf ?? props.name) ?? FRAME;
  return (
    <svg
      class={props.class}
      viewBox="0 0 400 300"
      preserveAspectRatio="xMidYMid meet"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke-linecap="round"
      stroke-linejoin="round"
    >
      <g transform={mirrorOf ? 'matrix(-1 0 0 1 400 0)' : undefined}>
        {strokes(art, UNDER.colour, UNDER.extra)}
        {strokes(art, 'currentColor', 0)}
      </g>
    </svg>
  );
}
