// Photographs of the reading set: drawings (svg-draw.ts) and fixture photos laid on a plane and seen by a
// phone camera through a real projective warp (a pinhole camera of a phone's field of view, the plane
// turned by yaw, pitch and roll), then lit, blurred and JPEG-compressed into 4000x3000 frames. sharp
// rasterises the SVG, scales the photos, blurs and encodes; the warp (inverse mapping, bilinear, a layer's
// raster sampled through the inverse homography), the light and the noise are done here on raw pixels, as
// sharp has only affine transforms.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { PHOTOS } from '../../test/helpers/media.js';
import { hash32, random } from './reading-random.js';
import { svgDocument, type Box } from './svg-draw.js';

export const FRAME_WIDTH = 4000;
export const FRAME_HEIGHT = 3000;
/** The analyzers see a preview of this long side (src/analyzers/prepare.ts, PREVIEW_MAX_SIDE). */
export const PREVIEW_SIDE = 1024;
const TO_PREVIEW = PREVIEW_SIDE / FRAME_WIDTH;
/** Focal length in pixels: a phone's main camera, about 69° across the 4000 px. */
const FOCAL = FRAME_WIDTH / 2 / Math.tan((69 / 2) * (Math.PI / 180));
/** Largest raster a drawing layer is drawn at (pixels): enough for text, bounded for time and memory. */
const MAX_LAYER_PIXELS = 16_000_000;

/** How the plane is turned to the camera, in degrees. */
export interface View {
  /** About the vertical axis: seen from the side (positive: its right side farther). */
  yaw: number;
  /** About the horizontal axis: seen from above (positive) or below. */
  pitch: number;
  /** In the image: clockwise. */
  roll: number;
}

export interface Light {
  /** Brightness gain (1 as exposed). */
  exposure: number;
  /** Gain of each channel (a colour cast; [1, 1, 1] none). */
  cast: readonly [number, number, number];
  /** A shadow across the frame: darker by `depth` past a soft edge, towards `angle` (degrees, 0 = right). */
  shadow?: { angle: number; edge: number; depth: number };
  /** A bright spot (a reflection of a lamp or the sun): centre and radius as fractions of the width. */
  glare?: { x: number; y: number; radius: number; strength: number };
  /** Reflections on glass in front: soft bright bands of `strength` (0..1), `angle` degrees. */
  veil?: { strength: number; angle: number; period: number };
}

export interface Shot {
  /** Width of the focus (the text to read) in the frame, as a fraction of the frame width. */
  size: number;
  /** Where the focus centre is, as fractions of the frame. */
  centre: { x: number; y: number };
  view: View;
  /** Gaussian blur sigma in preview pixels (what the analyzers see): 1 is about 4 frame pixels. */
  blur: number;
  light: Light;
  /** Gaussian sensor noise, standard deviation in 8-bit levels. */
  noise: number;
  /** JPEG quality. */
  quality: number;
}

/** An unwarped photo behind everything, filling the frame (cover): far away, not on the plane. */
export interface Backdrop {
  photo: string;
  /** The part of the photo used, as fractions of it (absent: all of it). */
  crop?: Box;
  flip: boolean;
}

/** Something on the plane: a drawing or a fixture photo, stretched over `box` (plane units). */
export type Layer = {
  box: Box;
  /** Continued beyond its box by mirroring (covers the frame); otherwise transparent around it. */
  extend: boolean;
  /**
   * On the ground instead: the plane square to the main one along its x axis, `ground` units below the
   * main plane's origin (a road under a car's rear). Its box's x runs along the main plane's x, its y
   * away from the camera (behind the main plane; negative in front of it).
   */
  ground?: number;
} & ({ svg: string; width: number; height: number } | { photo: string; crop?: Box; flip: boolean });

export interface Scene {
  backdrop?: Backdrop;
  /** Bottom first. */
  layers: Layer[];
  /** The text to read, in plane units: what the shot's size and centre refer to. */
  focus: Box;
  shot: Shot;
}

// ---------------------------------------------------------------------------------------------------
// The camera

export type Mat3 = readonly [number, number, number, number, number, number, number, number, number];

const multiply = (a: Mat3, b: Mat3): Mat3 => {
  const m = (r: number, c: number) =>
    a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!;
  return [m(0, 0), m(0, 1), m(0, 2), m(1, 0), m(1, 1), m(1, 2), m(2, 0), m(2, 1), m(2, 2)];
};

export function invert(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-12) throw new Error('singular homography');
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}

/** A point through a homography. */
export function project(m: Mat3, x: number, y: number): [number, number] {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The plane's axes in camera coordinates (x right, y down, z forward): roll · pitch · yaw. */
function rotation(view: View): Mat3 {
  const [cy, sy] = [Math.cos(radians(view.yaw)), Math.sin(radians(view.yaw))];
  const [cp, sp] = [Math.cos(radians(view.pitch)), Math.sin(radians(view.pitch))];
  const [cr, sr] = [Math.cos(radians(view.roll)), Math.sin(radians(view.roll))];
  const yaw: Mat3 = [cy, 0, sy, 0, 1, 0, -sy, 0, cy];
  const pitch: Mat3 = [1, 0, 0, 0, cp, -sp, 0, sp, cp];
  const roll: Mat3 = [cr, -sr, 0, sr, cr, 0, 0, 0, 1];
  return multiply(roll, multiply(pitch, yaw));
}

/** Where the plane is before the camera: its axes, the focus centre's position, the focus centre. */
interface Pose {
  R: Mat3;
  C: readonly [number, number, number];
  fx: number;
  fy: number;
}

const K: Mat3 = [FOCAL, 0, FRAME_WIDTH / 2, 0, FOCAL, FRAME_HEIGHT / 2, 0, 0, 1];

/** The homography of the pose's plane (its units) to frame pixels. */
const planeHomography = ({ R, C, fx, fy }: Pose): Mat3 =>
  multiply(multiply(K, [R[0], R[1], C[0], R[3], R[4], C[1], R[6], R[7], C[2]]), [
    1,
    0,
    -fx,
    0,
    1,
    -fy,
    0,
    0,
    1,
  ]);

/**
 * The homography of the ground `below` units under the plane's origin (x along the plane's x, y away
 * from the camera) to frame pixels: a point (x, y) is at (x - fx, below - fy, y) in the plane's frame.
 */
function groundHomography({ R, C, fx, fy }: Pose, below: number): Mat3 {
  const t = [0, 1, 2].map((i) => C[i]! - fx * R[i * 3]! + (below - fy) * R[i * 3 + 1]!);
  return multiply(K, [R[0], R[2], t[0]!, R[3], R[5], t[1]!, R[6], R[8], t[2]!]);
}

/**
 * The plane's pose: the focus centre on the ray through the shot's centre, at the distance that makes
 * the focus as wide as the shot's size (measured between the projections of its left and right edge
 * midpoints, so foreshortening included).
 */
function poseOf(focus: Box, shot: Shot): Pose {
  const R = rotation(shot.view);
  const [fx, fy] = [focus.x + focus.width / 2, focus.y + focus.height / 2];
  const rx = (shot.centre.x * FRAME_WIDTH - FRAME_WIDTH / 2) / FOCAL;
  const ry = (shot.centre.y * FRAME_HEIGHT - FRAME_HEIGHT / 2) / FOCAL;
  const norm = Math.hypot(rx, ry, 1);
  const at = (distance: number): Pose => ({
    R,
    C: [(rx / norm) * distance, (ry / norm) * distance, distance / norm],
    fx,
    fy,
  });
  const target = shot.size * FRAME_WIDTH;
  let distance = (FOCAL * focus.width) / target;
  let pose = at(distance);
  for (let i = 0; i < 4; i++) {
    const camera = planeHomography(pose);
    const [lx, ly] = project(camera, focus.x, fy);
    const [rx2, ry2] = project(camera, focus.x + focus.width, fy);
    distance *= Math.hypot(rx2 - lx, ry2 - ly) / target;
    pose = at(distance);
  }
  return pose;
}

/** The homography from the plane (its units) to frame pixels, the shot's camera (poseOf). */
export const cameraOf = (focus: Box, shot: Shot): Mat3 => planeHomography(poseOf(focus, shot));

/**
 * How many preview pixels a plane unit covers at (x, y), across and up: the local scale of the
 * homography along the plane's axes, for judging whether text there is legible.
 */
export function previewScale(camera: Mat3, x: number, y: number): { across: number; up: number } {
  const [px, py] = project(camera, x, y);
  const [ax, ay] = project(camera, x + 1, y);
  const [bx, by] = project(camera, x, y + 1);
  return {
    across: Math.hypot(ax - px, ay - py) * TO_PREVIEW,
    up: Math.hypot(bx - px, by - py) * TO_PREVIEW,
  };
}

// ---------------------------------------------------------------------------------------------------
// Rasters and sampling

interface Raster {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** A fixture photo (or a part of it, mirrored), oriented, as raw RGB; scaled to `size` when given (cover). */
async function photoRaster(
  file: string,
  crop: Box | undefined,
  flip: boolean,
  size?: { width: number; height: number },
): Promise<Raster> {
  const source = path.join(PHOTOS, file);
  let image = sharp(await readFile(source)).rotate();
  if (crop) {
    const { autoOrient } = await sharp(source).metadata();
    image = image.extract({
      left: Math.round(crop.x * autoOrient.width),
      top: Math.round(crop.y * autoOrient.height),
      width: Math.round(crop.width * autoOrient.width),
      height: Math.round(crop.height * autoOrient.height),
    });
  }
  if (flip) image = image.flop();
  if (size) image = image.resize(size.width, size.height, { fit: 'cover', kernel: 'linear' });
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** The part `view` (its own units) of a drawing layer, rasterised `pixelWidth` pixels wide, as RGBA. */
async function svgRaster(
  layer: { svg: string; width: number; height: number },
  view: Box,
  pixelWidth: number,
) {
  const drawing = { body: layer.svg, width: layer.width, height: layer.height, focus: view };
  const document = svgDocument(drawing, view, pixelWidth);
  const { data, info } = await sharp(Buffer.from(document), { limitInputPixels: false })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 as const };
}

/** A coordinate mirrored into 0..size-1 (a photo continued beyond its edges). */
function mirror(value: number, size: number): number {
  if (size <= 1) return 0;
  const period = 2 * (size - 1);
  let v = Math.abs(value) % period;
  if (v > size - 1) v = period - v;
  return v;
}

/**
 * Draws `raster` into the frame `out` (RGB, `frameWidth` wide) through `toRaster` (frame pixel → raster
 * pixel), over the frame rows and columns of `region`: bilinear, alpha-blended, mirrored beyond its
 * edges when `extend`, transparent beyond them otherwise.
 */
function sampleInto(
  out: Uint8ClampedArray,
  frameWidth: number,
  raster: Raster,
  toRaster: Mat3,
  region: { x0: number; y0: number; x1: number; y1: number },
  extend: boolean,
) {
  const { data, width, height, channels } = raster;
  const m = toRaster;
  const maxU = width - 1;
  const maxV = height - 1;
  for (let y = region.y0; y < region.y1; y++) {
    let hx = m[0] * (region.x0 + 0.5) + m[1] * (y + 0.5) + m[2];
    let hy = m[3] * (region.x0 + 0.5) + m[4] * (y + 0.5) + m[5];
    let hw = m[6] * (region.x0 + 0.5) + m[7] * (y + 0.5) + m[8];
    for (let x = region.x0; x < region.x1; x++, hx += m[0], hy += m[3], hw += m[6]) {
      if (hw <= 1e-9) continue;
      let u = hx / hw - 0.5;
      let v = hy / hw - 0.5;
      if (extend) {
        if (u < 0 || u > maxU) u = mirror(u, width);
        if (v < 0 || v > maxV) v = mirror(v, height);
      } else if (u <= -1 || v <= -1 || u >= width || v >= height) continue;
      const i0 = Math.floor(u);
      const j0 = Math.floor(v);
      const fu = u - i0;
      const fv = v - j0;
      // The four texels, each with its weight; outside the raster a texel is transparent.
      const inI0 = i0 >= 0;
      const inI1 = i0 + 1 <= maxU;
      const inJ0 = j0 >= 0;
      const inJ1 = j0 + 1 <= maxV;
      const row0 = j0 * width;
      const row1 = row0 + width;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      if (inJ0 && inI0) {
        const at = (row0 + i0) * channels;
        const w = (1 - fu) * (1 - fv) * (channels === 4 ? data[at + 3]! / 255 : 1);
        r += data[at]! * w;
        g += data[at + 1]! * w;
        b += data[at + 2]! * w;
        a += w;
      }
      if (inJ0 && inI1 && fu > 0) {
        const at = (row0 + i0 + 1) * channels;
        const w = fu * (1 - fv) * (channels === 4 ? data[at + 3]! / 255 : 1);
        r += data[at]! * w;
        g += data[at + 1]! * w;
        b += data[at + 2]! * w;
        a += w;
      }
      if (inJ1 && inI0 && fv > 0) {
        const at = (row1 + i0) * channels;
        const w = (1 - fu) * fv * (channels === 4 ? data[at + 3]! / 255 : 1);
        r += data[at]! * w;
        g += data[at + 1]! * w;
        b += data[at + 2]! * w;
        a += w;
      }
      if (inJ1 && inI1 && fu > 0 && fv > 0) {
        const at = (row1 + i0 + 1) * channels;
        const w = fu * fv * (channels === 4 ? data[at + 3]! / 255 : 1);
        r += data[at]! * w;
        g += data[at + 1]! * w;
        b += data[at + 2]! * w;
        a += w;
      }
      if (a <= 0) continue;
      const o = (y * frameWidth + x) * 3;
      if (a >= 0.999) {
        out[o] = r;
        out[o + 1] = g;
        out[o + 2] = b;
      } else {
        const keep = 1 - a;
        out[o] = out[o]! * keep + r;
        out[o + 1] = out[o + 1]! * keep + g;
        out[o + 2] = out[o + 2]! * keep + b;
      }
    }
  }
}

/** The frame pixels the plane box covers (its projected corners' bounds, clipped to the frame). */
function regionOf(camera: Mat3, box: Box) {
  const corners = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ] as const;
  // A box reaching behind the camera projects through infinity: take the whole frame then.
  const behind = corners.some(([x, y]) => camera[6] * x + camera[7] * y + camera[8] <= 0);
  if (behind) return { x0: 0, y0: 0, x1: FRAME_WIDTH, y1: FRAME_HEIGHT };
  const points = corners.map(([x, y]) => project(camera, x, y));
  const clip = (v: number, max: number) => Math.min(max, Math.max(0, v));
  return {
    x0: clip(Math.floor(Math.min(...points.map((p) => p[0]))) - 2, FRAME_WIDTH),
    y0: clip(Math.floor(Math.min(...points.map((p) => p[1]))) - 2, FRAME_HEIGHT),
    x1: clip(Math.ceil(Math.max(...points.map((p) => p[0]))) + 2, FRAME_WIDTH),
    y1: clip(Math.ceil(Math.max(...points.map((p) => p[1]))) + 2, FRAME_HEIGHT),
  };
}

/**
 * The part of a layer's box the frame shows (plane units, a margin around it), or the whole box when
 * the frame reaches the plane's horizon.
 */
function visiblePart(toPlane: Mat3, box: Box): Box {
  const corners = [
    [0, 0],
    [FRAME_WIDTH, 0],
    [0, FRAME_HEIGHT],
    [FRAME_WIDTH, FRAME_HEIGHT],
  ] as const;
  if (corners.some(([x, y]) => toPlane[6] * x + toPlane[7] * y + toPlane[8] <= 0)) return box;
  const points = corners.map(([x, y]) => project(toPlane, x, y));
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const margin = 0.02 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const x0 = Math.max(box.x, Math.min(...xs) - margin);
  const y0 = Math.max(box.y, Math.min(...ys) - margin);
  const x1 = Math.min(box.x + box.width, Math.max(...xs) + margin);
  const y1 = Math.min(box.y + box.height, Math.max(...ys) + margin);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : box;
}

/** Raster pixels per plane unit a drawing layer needs: a little more than the frame shows at the focus. */
function layerScale(camera: Mat3, focus: Box, part: Box, maxPixels: number): number {
  const scale = previewScale(camera, focus.x + focus.width / 2, focus.y + focus.height / 2);
  const needed = (Math.max(scale.across, scale.up) / TO_PREVIEW) * 1.2;
  const cap = Math.sqrt(maxPixels / (part.width * part.height));
  return Math.min(needed, cap);
}

// ---------------------------------------------------------------------------------------------------
// Light, noise, blur, JPEG

/** Gaussian-like values (sum of three uniforms), a table of them indexed along the frame. */
const NOISE_SIZE = 1 << 20;

function applyLight(out: Uint8ClampedArray, shot: Shot, seed: string) {
  const { exposure, cast, shadow, glare, veil } = shot.light;
  const rng = random(hash32(`noise:${seed}`));
  const noise = new Float32Array(shot.noise > 0 ? NOISE_SIZE : 0);
  for (let i = 0; i < noise.length; i++) noise[i] = (rng() + rng() + rng() - 1.5) * 2 * shot.noise;
  const [sc, ss] = shadow ? [Math.cos(radians(shadow.angle)), Math.sin(radians(shadow.angle))] : [0, 0];
  // The veil: bright bands along `angle`, a smooth profile looked up by phase.
  const bands = new Float32Array(1024);
  if (veil)
    for (let i = 0; i < bands.length; i++)
      bands[i] = veil.strength * 255 * (0.25 + 0.75 * Math.sin((Math.PI * i) / bands.length) ** 6);
  const [vc, vs] = veil ? [Math.cos(radians(veil.angle)), Math.sin(radians(veil.angle))] : [0, 0];
  const period = (veil?.period ?? 1) * FRAME_WIDTH;
  const glareX = (glare?.x ?? 0) * FRAME_WIDTH;
  const glareY = (glare?.y ?? 0) * FRAME_HEIGHT;
  const glareRadius = (glare?.radius ?? 0) * FRAME_WIDTH;
  const [cr, cg, cb] = [cast[0] * exposure, cast[1] * exposure, cast[2] * exposure];
  for (let y = 0; y < FRAME_HEIGHT; y++) {
    const noiseRow = (Math.floor(rng() * NOISE_SIZE) & ~1023) | 0;
    const glareRow = glare && Math.abs(y - glareY) < glareRadius * 3.5;
    for (let x = 0; x < FRAME_WIDTH; x++) {
      let gain = 1;
      if (shadow) {
        // Where the pixel lies across the frame along the shadow's direction (0..1); a soft edge.
        const t = (x / FRAME_WIDTH - 0.5) * sc + (y / FRAME_HEIGHT - 0.5) * ss + 0.5;
        const e = (t - shadow.edge) / 0.18 + 0.5;
        const k = e <= 0 ? 0 : e >= 1 ? 1 : e * e * (3 - 2 * e);
        gain = 1 - shadow.depth * k;
      }
      let add = 0;
      if (glareRow && glare && Math.abs(x - glareX) < glareRadius * 3.5)
        add +=
          glare.strength * 255 * Math.exp(-((x - glareX) ** 2 + (y - glareY) ** 2) / (2 * glareRadius ** 2));
      if (veil) {
        const phase = (x * vc + y * vs) / period;
        add += bands[Math.floor((phase - Math.floor(phase)) * 1024)]!;
      }
      if (noise.length > 0) add += noise[(noiseRow + x) & (NOISE_SIZE - 1)]!;
      const o = (y * FRAME_WIDTH + x) * 3;
      out[o] = out[o]! * gain * cr + add;
      out[o + 1] = out[o + 1]! * gain * cg + add;
      out[o + 2] = out[o + 2]! * gain * cb + add;
    }
  }
}

const RAW = { width: FRAME_WIDTH, height: FRAME_HEIGHT, channels: 3 } as const;

/** Renders `scene` into the JPEG `file`; `seed` makes its noise. */
export async function renderScene(scene: Scene, file: string, seed: string): Promise<void> {
  const out = new Uint8ClampedArray(FRAME_WIDTH * FRAME_HEIGHT * 3);
  if (scene.backdrop) {
    const { photo, crop, flip } = scene.backdrop;
    out.set((await photoRaster(photo, crop, flip, { width: FRAME_WIDTH, height: FRAME_HEIGHT })).data);
  }
  const pose = poseOf(scene.focus, scene.shot);
  const main = planeHomography(pose);
  for (const [index, layer] of scene.layers.entries()) {
    const { box } = layer;
    const camera = layer.ground === undefined ? main : groundHomography(pose, layer.ground);
    const toPlane = invert(camera);
    if ('photo' in layer) {
      // A fixture photo has far fewer pixels than the frame: warped at a quarter of the frame's size
      // and scaled up, it looks the same and takes a sixteenth of the time.
      const raster = await photoRaster(layer.photo, layer.crop, layer.flip);
      const [sx, sy] = [raster.width / box.width, raster.height / box.height];
      const toRaster = multiply(
        multiply([sx, 0, -box.x * sx, 0, sy, -box.y * sy, 0, 0, 1], toPlane),
        [4, 0, 0, 0, 4, 0, 0, 0, 1],
      );
      const [qw, qh] = [FRAME_WIDTH / 4, FRAME_HEIGHT / 4];
      const quarter = new Uint8ClampedArray(qw * qh * 3);
      if (index > 0 || !layer.extend) throw new Error('a photo layer must be the bottom one and extended');
      sampleInto(quarter, qw, raster, toRaster, { x0: 0, y0: 0, x1: qw, y1: qh }, true);
      const scaled = await sharp(Buffer.from(quarter.buffer), { raw: { width: qw, height: qh, channels: 3 } })
        .resize(FRAME_WIDTH, FRAME_HEIGHT, { kernel: 'linear' })
        .raw()
        .toBuffer();
      out.set(scaled);
      continue;
    }
    // Only the part the frame shows is rasterised (a close-up shows a little of its scene); beyond the
    // layer's box, an extended layer is mirrored at the box's own edges, which that part then reaches.
    const part = visiblePart(toPlane, box);
    // The ground is a backdrop: a coarser raster does.
    const maxPixels = layer.ground === undefined ? MAX_LAYER_PIXELS : MAX_LAYER_PIXELS / 4;
    // The part in the drawing's own units (the box may be elsewhere on the plane, or scaled).
    const [kx, ky] = [layer.width / box.width, layer.height / box.height];
    const view = {
      x: (part.x - box.x) * kx,
      y: (part.y - box.y) * ky,
      width: part.width * kx,
      height: part.height * ky,
    };
    const raster = await svgRaster(layer, view, part.width * layerScale(main, scene.focus, part, maxPixels));
    const [sx, sy] = [raster.width / part.width, raster.height / part.height];
    const toRaster = multiply([sx, 0, -part.x * sx, 0, sy, -part.y * sy, 0, 0, 1], toPlane);
    const region = layer.extend
      ? { x0: 0, y0: 0, x1: FRAME_WIDTH, y1: FRAME_HEIGHT }
      : regionOf(camera, part);
    sampleInto(out, FRAME_WIDTH, raster, toRaster, region, layer.extend);
  }
  applyLight(out, scene.shot, seed);
  let image = sharp(Buffer.from(out.buffer, out.byteOffset, out.byteLength), { raw: RAW });
  const sigma = scene.shot.blur / TO_PREVIEW;
  if (sigma >= 0.3) image = sharp(await image.blur(sigma).raw().toBuffer(), { raw: RAW });
  await image.jpeg({ quality: scene.shot.quality }).toFile(file);
}
