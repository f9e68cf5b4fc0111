// The change set of `npm run bench:changes` (bench/changes.ts): pairs of photos of one drawn car
// (plate-render.ts's carDrawing, on its road, before a fixture photo), the "before" and the "after" taken
// from a slightly different place (yaw and pitch up to 6°, roll up to 3°, 12 % nearer or farther, moved
// in the frame), in other light, at another JPEG quality, and before another backdrop on half of them.
// The "after" car carries 0 to 3 new damages, drawn on its body so that they move with it: scratches,
// dents (shading), scuffs and a panel of another colour; a third of the pairs have none. Each damage's
// truth is its box in the "after" photo. A fifth of the pairs (seeded) is held out.
import { createHash } from 'node:crypto';
import { carDrawing, plateDrawing, randomPlate, PLATE_COUNTRIES } from './plate-render.js';
import { between, integer, pickOne, shuffled, streamOf, type Rng } from './reading-random.js';
import { cameraOf, FRAME_HEIGHT, FRAME_WIDTH, project, type Scene, type Shot } from './reading-render.js';
import { drawingLayer, lightOf, LIGHTS, roadLayer, STREETS, type Part } from './reading-set.js';
import type { Box, Drawing } from './svg-draw.js';

const SEED = 0x5eed_c4a9;
/**
 * The pairs, made and held out in batches: a batch added later leaves the earlier ones as they were.
 * Five since stop 47 (three before): 78 held-out damages instead of 45, 20 held-out pairs without
 * change instead of 12, so that one damage or one false region moves the held-out figures less.
 */
const BATCHES = 5;
const PER_BATCH = 60;
const HELD_OUT = 0.2;

export const DAMAGE_KINDS = ['scratch', 'dent', 'scuff', 'panel'] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];

export interface Damage {
  kind: DamageKind;
  /** Where it is in the "after" photo, as fractions of its width and height. */
  box: Box;
}

export interface ChangePair {
  id: string;
  part: Part;
  before: { id: string; source: { scene: Scene } };
  after: { id: string; source: { scene: Scene } };
  damages: Damage[];
  /**
   * The car's box in the "after" photo (fractions): what the vehicle analyzer gives the comparison in
   * the service. Its model does not recognise the drawn cars close up, so the bench passes the truth.
   */
  vehicle: Box;
  /** How the pair was taken, for the failure list. */
  about: string;
  /**
   * The "after" photo without its damages, rendered with the same noise (seed): where a damage changes
   * nothing in the photo (under the plate, white on white paint), nobody can see it. Pairs with damage only.
   */
  undamaged?: { id: string; seed: string; source: { scene: Scene } };
}

/** The car body where damages go (carDrawing's units: 1800 wide, body from y 650 to 1280). */
const BODY = { x0: 90, x1: 1710, y0: 670, y1: 1240 };

/** One damage drawn on the car, and its box in the car's units. */
function damageDrawing(kind: DamageKind, rng: Rng): { svg: string; box: Box } {
  const cx = between(rng, BODY.x0 + 150, BODY.x1 - 150);
  const cy = between(rng, BODY.y0 + 80, BODY.y1 - 80);
  switch (kind) {
    case 'scratch': {
      // A few jagged strokes, bare metal or primer showing.
      const colour = pickOne(rng, ['#f2f2f0', '#d8d8d4', '#3a3a3a']);
      const length = between(rng, 160, 420);
      const angle = between(rng, -0.5, 0.5);
      const points: [number, number][] = [];
      for (let i = 0; i <= 6; i++) {
        const t = i / 6 - 0.5;
        points.push([
          cx + t * length * Math.cos(angle) + between(rng, -6, 6),
          cy + t * length * Math.sin(angle) + between(rng, -6, 6),
        ]);
      }
      const width = between(rng, 4, 9);
      const d = points.map(([x, y], i) => `${i ? 'L' : 'M'} ${x.toFixed(1)} ${y.toFixed(1)}`).join(' ');
      return {
        svg: `<path d="${d}" fill="none" stroke="${colour}" stroke-width="${width.toFixed(1)}" stroke-linecap="round" opacity="0.9"/>`,
        box: boundsOf(points, width),
      };
    }
    case 'dent': {
      // A hollow: dark on the side away from the light, a highlight on the other.
      const rx = between(rng, 70, 150);
      const ry = rx * between(rng, 0.6, 1);
      const id = `dent${Math.floor(rng() * 1e9)}`;
      const svg =
        `<defs><radialGradient id="${id}" cx="0.35" cy="0.35" r="0.75"><stop offset="0" stop-color="#000" stop-opacity="0.55"/>` +
        `<stop offset="0.6" stop-color="#000" stop-opacity="0.2"/><stop offset="0.85" stop-color="#fff" stop-opacity="0.35"/>` +
        `<stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>` +
        `<ellipse cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" rx="${rx.toFixed(1)}" ry="${ry.toFixed(1)}" fill="url(#${id})"/>`;
      return { svg, box: { x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry } };
    }
    case 'scuff': {
      // Many short grey strokes in a patch.
      const w = between(rng, 120, 260);
      const h = between(rng, 60, 140);
      const strokes: string[] = [];
      for (let i = 0; i < 40; i++) {
        const x = cx + between(rng, -w / 2, w / 2);
        const y = cy + between(rng, -h / 2, h / 2);
        const dx = between(rng, 10, 40);
        strokes.push(
          `<line x1="${x.toFixed(1)}" y1="${y.toFixed(1)}" x2="${(x + dx).toFixed(1)}" y2="${(y + between(rng, -6, 6)).toFixed(1)}"/>`,
        );
      }
      const colour = pickOne(rng, ['#9a9a96', '#cfcfca', '#4a4a48']);
      return {
        svg: `<g stroke="${colour}" stroke-width="3" opacity="0.8">${strokes.join('')}</g>`,
        box: { x: cx - w / 2 - 5, y: cy - h / 2 - 9, width: w + 50, height: h + 18 },
      };
    }
    case 'panel': {
      // A replaced or resprayed part in another colour (or one missing: a dark hole).
      const w = between(rng, 300, 600);
      const h = between(rng, 160, 280);
      const x = Math.min(Math.max(cx - w / 2, BODY.x0), BODY.x1 - w);
      const y = Math.min(Math.max(cy - h / 2, BODY.y0), BODY.y1 - h);
      const colour = pickOne(rng, ['#1c1c1c', '#d6d3c4', '#7d1414', '#2a4f8f', '#a7a9ad']);
      return {
        svg: `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" rx="18" fill="${colour}" opacity="0.92"/>`,
        box: { x, y, width: w, height: h },
      };
    }
  }
}

function boundsOf(points: readonly [number, number][], pad: number): Box {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
  return { x: x0, y: y0, width: Math.max(...xs) + pad - x0, height: Math.max(...ys) + pad - y0 };
}

/** The car box `box` (car units, the plane's) as fractions of a photo taken with `camera`. */
function inPhoto(box: Box, scene: Scene): Box {
  const camera = cameraOf(scene.focus, scene.shot);
  const corners = [
    project(camera, box.x, box.y),
    project(camera, box.x + box.width, box.y),
    project(camera, box.x + box.width, box.y + box.height),
    project(camera, box.x, box.y + box.height),
  ];
  const xs = corners.map(([x]) => x / FRAME_WIDTH);
  const ys = corners.map(([, y]) => y / FRAME_HEIGHT);
  const [x0, y0] = [Math.max(0, Math.min(...xs)), Math.max(0, Math.min(...ys))];
  const [x1, y1] = [Math.min(1, Math.max(...xs)), Math.min(1, Math.max(...ys))];
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

const withDamages = (car: Drawing, svg: string): Drawing => ({ ...car, body: car.body + svg });

function pair(index: number): Omit<ChangePair, 'part'> {
  const id = `pair-${String(index + 1).padStart(2, '0')}`;
  const rng = streamOf(SEED, id);
  const country = pickOne(rng, PLATE_COUNTRIES);
  const car = carDrawing(plateDrawing(randomPlate(country, rng), rng), rng, rng() < 0.5 ? 'rear' : 'front');
  // A third without change; the rest 1 to 3 damages.
  const count = index % 3 === 0 ? 0 : integer(rng, 1, 3);
  const drawn = Array.from({ length: count }, () => {
    const kind = pickOne(rng, DAMAGE_KINDS);
    return { kind, ...damageDrawing(kind, rng) };
  });
  const road = roadLayer(car, rng);
  // The plate's width as a share of the frame: the car fills 55–85 % of the photo's width.
  const plateShare = car.focus.width / car.width;
  const size = between(rng, 0.55, 0.85) * plateShare;
  const yaw = between(rng, -25, 25);
  const pitch = between(rng, 0, 15);
  const shot = (light: Shot['light'], scale: number, dx: number, dy: number, view: Shot['view']): Shot => ({
    size: size * scale,
    centre: { x: 0.5 + dx, y: 0.62 + dy },
    view,
    blur: between(rng, 0, 0.6),
    light,
    noise: between(rng, 1.5, 3.5),
    quality: pickOne(rng, [70, 80, 92]),
  });
  const beforeShot = shot(lightOf(pickOne(rng, LIGHTS), rng), 1, 0, 0, {
    yaw,
    pitch,
    roll: between(rng, -3, 3),
  });
  const afterShot = shot(
    lightOf(pickOne(rng, LIGHTS), rng),
    between(rng, 0.88, 1.12),
    between(rng, -0.04, 0.04),
    between(rng, -0.04, 0.04),
    { yaw: yaw + between(rng, -6, 6), pitch: pitch + between(rng, -4, 4), roll: between(rng, -3, 3) },
  );
  const backdrop = pickOne(rng, STREETS);
  const otherBackdrop =
    rng() < 0.5
      ? pickOne(
          rng,
          STREETS.filter((b) => b !== backdrop),
        )
      : backdrop;
  const before: Scene = {
    backdrop,
    layers: [road, drawingLayer(car, false)],
    focus: car.focus,
    shot: beforeShot,
  };
  const afterCar = withDamages(car, drawn.map((d) => d.svg).join(''));
  const after: Scene = {
    backdrop: otherBackdrop,
    layers: [road, drawingLayer(afterCar, false)],
    focus: car.focus,
    shot: afterShot,
  };
  const damages = drawn.map((d) => ({ kind: d.kind, box: inPhoto(d.box, after) }));
  const about =
    `${count === 0 ? 'no change' : drawn.map((d) => d.kind).join(', ')}; ` +
    `yaw ${yaw.toFixed(0)}°→${afterShot.view.yaw.toFixed(0)}°, pitch ${pitch.toFixed(0)}°→${afterShot.view.pitch.toFixed(0)}°, ` +
    `scale ×${(afterShot.size / size).toFixed(2)}${otherBackdrop === backdrop ? '' : ', another backdrop'}`;
  return {
    id,
    before: { id: `${id}-before`, source: { scene: before } },
    after: { id: `${id}-after`, source: { scene: after } },
    damages,
    vehicle: inPhoto({ x: 0, y: 0, width: car.width, height: car.height }, after),
    about,
    ...(count > 0 && {
      undamaged: {
        id: `${id}-after-undamaged`,
        seed: `${id}-after`,
        source: { scene: { ...after, layers: [road, drawingLayer(car, false)] } },
      },
    }),
  };
}

/**
 * The pairs in a fixed order; of each batch, a seeded fifth of those with damage and of those without
 * held out.
 */
export function changeSet(): ChangePair[] {
  const pairs = Array.from({ length: BATCHES * PER_BATCH }, (_, i) => pair(i));
  const held = new Set(
    Array.from({ length: BATCHES }, (_, b) => pairs.slice(b * PER_BATCH, (b + 1) * PER_BATCH)).flatMap(
      (batch, b) =>
        [true, false].flatMap((damaged) => {
          const ids = batch.filter((p) => p.damages.length > 0 === damaged).map((p) => p.id);
          // The first batch's stream is named as it was before there were batches.
          const stream = streamOf(SEED, `held-out:${damaged}${b === 0 ? '' : `:${b}`}`);
          return shuffled(stream, ids).slice(0, Math.round(ids.length * HELD_OUT));
        }),
    ),
  );
  return pairs.map((p) => ({ ...p, part: held.has(p.id) ? 'held-out' : 'tuning' }));
}

/** A digest of the whole set, to tell that two runs measured the same pairs. */
export const changeSetDigest = (pairs: readonly ChangePair[]): string =>
  createHash('sha256').update(JSON.stringify(pairs)).digest('hex').slice(0, 12);

/** The area the two boxes have in common. */
function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w <= 0 || h <= 0 ? 0 : w * h;
}
const area = (box: Box) => box.width * box.height;
/**
 * A region covers a damage when their boxes have a quarter of the smaller in common, and the damage is
 * not lost in it: what they have in common is a twentieth of the region at least. A region around the
 * whole vehicle shows a reviewer nothing, and covers no damage.
 */
export const covers = (region: { box: Box }, damage: Damage) => {
  const common = intersection(region.box, damage.box);
  return common >= 0.25 * Math.min(area(region.box), area(damage.box)) && common >= area(region.box) / 20;
};
