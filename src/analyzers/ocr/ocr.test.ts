// End to end on a real photo: text rendered with the system's DejaVu fonts, slightly rotated,
// composited at known places onto a fixture photo, then found, cropped and read.
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeOcr,
  cropLine,
  detectText,
  recogniseLines,
  type Quad,
  type RgbImage,
  type TextBoxFound,
} from './index.js';

const PHOTOS = fileURLToPath(new URL('../../../test/fixtures/photos/', import.meta.url));

interface Label {
  text: string;
  font: string;
  size: number;
  bold?: boolean;
  ink: string;
  paper: string;
  /** Degrees, clockwise on screen (sharp's rotate). */
  angle: number;
  /** Where the rotated label's top-left corner goes on the photo. */
  left: number;
  top: number;
}

const LABELS: Label[] = [
  {
    text: 'AB-123-CD',
    font: 'DejaVu Sans',
    size: 44,
    bold: true,
    ink: '#111',
    paper: '#fff',
    angle: -5,
    left: 80,
    top: 90,
  },
  {
    text: 'WVWZZZ1JZXW000001',
    font: 'DejaVu Sans Condensed',
    size: 30,
    ink: '#222',
    paper: '#e8e8e8',
    angle: 4,
    left: 60,
    top: 610,
  },
  {
    text: '0184263',
    font: 'DejaVu Sans Mono',
    size: 40,
    bold: true,
    ink: '#f0f0f0',
    paper: '#151515',
    angle: 6,
    left: 640,
    top: 330,
  },
  {
    text: 'Service due soon',
    font: 'DejaVu Serif',
    size: 30,
    ink: '#202020',
    paper: '#f6f0dc',
    angle: -3,
    left: 600,
    top: 560,
  },
];

/** The label's SVG: the text on a plain card with a margin of about half its size. */
function labelSvg(label: Label) {
  const width = Math.round(label.size * label.text.length * 0.68 + label.size);
  const height = Math.round(label.size * 1.8);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="${label.paper}"/>` +
    `<text x="${width / 2}" y="${height / 2 + label.size * 0.36}" font-family="${label.font}" font-size="${label.size}" ` +
    `font-weight="${label.bold ? 'bold' : 'normal'}" text-anchor="middle" fill="${label.ink}">${label.text}</text></svg>`;
  return { svg: Buffer.from(svg), width, height };
}

/** Bounds of the pixels that differ from the top-left one (the paper): where the ink is. */
async function inkBounds(svg: Buffer) {
  const { data, info } = await sharp(svg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const p = (y * info.width + x) * 3;
      if (
        Math.abs(data[p]! - data[0]!) +
          Math.abs(data[p + 1]! - data[1]!) +
          Math.abs(data[p + 2]! - data[2]!) >
        120
      ) {
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x + 1), Math.max(y1, y + 1)];
      }
    }
  }
  return { x0, y0, x1, y1 };
}

interface Placed {
  label: Label;
  /** The ink's rectangle, rotated and placed as on the photo. */
  ink: Quad;
}

/** The photo, scaled to the analyzers' 1024-px preview, with the labels composited onto it. */
async function scene(photo: string, labels: Label[]): Promise<{ image: RgbImage; placed: Placed[] }> {
  const overlays: OverlayOptions[] = [];
  const placed: Placed[] = [];
  for (const label of labels) {
    const { svg, width, height } = labelSvg(label);
    const ink = await inkBounds(svg);
    const rotated = await sharp(svg)
      .rotate(label.angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer({ resolveWithObject: true });
    overlays.push({ input: rotated.data, left: label.left, top: label.top });
    // sharp turns the card about its centre onto a canvas just large enough: centres coincide.
    const [cos, sin] = [Math.cos((label.angle * Math.PI) / 180), Math.sin((label.angle * Math.PI) / 180)];
    const place = (x: number, y: number): [number, number] => {
      const [dx, dy] = [x - width / 2, y - height / 2];
      return [
        label.left + rotated.info.width / 2 + dx * cos - dy * sin,
        label.top + rotated.info.height / 2 + dx * sin + dy * cos,
      ];
    };
    placed.push({
      label,
      ink: [place(ink.x0, ink.y0), place(ink.x1, ink.y0), place(ink.x1, ink.y1), place(ink.x0, ink.y1)],
    });
  }
  const { data, info } = await sharp(PHOTOS + photo)
    .resize(1024, 768, { fit: 'inside' })
    .composite(overlays)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { image: { data, width: info.width, height: info.height }, placed };
}

const boundsOf = (quad: Quad) => {
  const xs = quad.map(([x]) => x);
  const ys = quad.map(([, y]) => y);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
};

/** Intersection over union of two quads' axis-aligned bounds. */
function iou(a: Quad, b: Quad) {
  const [p, q] = [boundsOf(a), boundsOf(b)];
  const w = Math.max(0, Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0));
  const h = Math.max(0, Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0));
  const area = (r: typeof p) => (r.x1 - r.x0) * (r.y1 - r.y0);
  return (w * h) / (area(p) + area(q) - w * h);
}

/** Uppercase without spaces or hyphens: the parts a font's rendering can leave ambiguous. */
const normalised = (text: string) => text.toUpperCase().replace(/[\s-]/g, '');

afterAll(closeOcr);

describe('detectText, cropLine and recogniseLines on a photo', () => {
  let image: RgbImage;
  let placed: Placed[];
  let boxes: TextBoxFound[];
  let texts: string[];

  beforeAll(async () => {
    ({ image, placed } = await scene('home.jpg', LABELS));
    boxes = await detectText(image, { maxSide: 640 });
    const lines = await recogniseLines(boxes.map((box) => cropLine(image, box.quad)));
    texts = lines.map((line) => line.text);
  });

  it.each(LABELS.map((label) => [label.text, label] as const))('finds and reads %s', (_, label) => {
    const { ink } = placed.find((p) => p.label === label)!;
    const best = boxes.map((box, i) => ({ i, iou: iou(box.quad, ink) })).sort((a, b) => b.iou - a.iou)[0]!;
    expect(best.iou).toBeGreaterThan(0.5);
    expect(Math.abs(boxes[best.i]!.angle - label.angle)).toBeLessThan(2);
    expect(normalised(texts[best.i]!)).toBe(normalised(label.text));
  });

  it('finds nothing else on the photo', () => {
    expect(boxes).toHaveLength(LABELS.length);
  });

  it('cuts a line out widened when asked, its height the same', () => {
    const plain = cropLine(image, boxes[0]!.quad);
    const wide = cropLine(image, boxes[0]!.quad, { stretch: 1.5 });
    expect(wide.height).toBe(plain.height);
    expect(Math.abs(wide.width - 1.5 * plain.width)).toBeLessThanOrEqual(1);
  });

  it('gives the same boxes and texts when run again', async () => {
    const again = await detectText(image, { maxSide: 640 });
    expect(again).toEqual(boxes);
    const read = await recogniseLines(again.map((box) => cropLine(image, box.quad)));
    expect(read.map((line) => line.text)).toEqual(texts);
  });
});
