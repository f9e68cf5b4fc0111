// Where text may be in a photo, found cheaply so that OCR reads only there. Characters are dense
// vertical strokes: a horizontal gradient map, its gaps closed along each row (run-length smoothing),
// gives one blob per word or line; blobs shaped like a line of text are kept, densest first. A plate or
// VIN label is such a blob; a car body, the sky or a grille (horizontal slats) is not. Pure arithmetic
// on the grey preview, at three scales.

/** A rectangle of the preview, in pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextRegionOptions {
  /** Horizontal gradient (0–255) that counts as a stroke edge. */
  edge?: number;
  /** At most this many regions, densest first. */
  maxRegions?: number;
  /** The regions together cover at most this share of the image. */
  maxAreaShare?: number;
}

/** The grey values (0–255) of an RGB preview. */
export function greyOf(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const grey = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < grey.length; i++, p += 3) {
    grey[i] = (rgb[p]! * 77 + rgb[p + 1]! * 150 + rgb[p + 2]! * 29) >> 8;
  }
  return grey;
}

/** The horizontal gradient where it is a stroke edge, 0 elsewhere. */
function strokeEdges(grey: Uint8Array, width: number, height: number, edge: number): Uint8Array {
  const edges = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 1; x < width - 1; x++) {
      const gradient = Math.abs(grey[row + x + 1]! - grey[row + x - 1]!);
      if (gradient >= edge) edges[row + x] = gradient;
    }
  }
  return edges;
}

interface Run {
  y: number;
  x0: number;
  x1: number;
  label: number;
}

/**
 * Blobs of the edge map once each row's gaps up to `gap` are closed: runs of a row joined to the runs
 * they touch in the row above (union-find over runs, cheaper than over pixels).
 */
function blobs(edges: Uint8Array, width: number, height: number, gap: number) {
  const parent: number[] = [];
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]!]!;
    return a;
  };
  const runs: Run[] = [];
  let previous: Run[] = [];
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const current: Run[] = [];
    let x = 0;
    while (x < width) {
      if (!edges[row + x]) {
        x++;
        continue;
      }
      const x0 = x;
      let last = x;
      // Extend over gaps no longer than `gap`.
      for (x++; x < width && x - last <= gap; x++) if (edges[row + x]) last = x;
      const run: Run = { y, x0, x1: last, label: parent.length };
      parent.push(run.label);
      for (const above of previous) {
        if (above.x1 >= x0 && above.x0 <= last) {
          const a = find(above.label);
          const b = find(run.label);
          if (a !== b) parent[b] = a;
        }
      }
      current.push(run);
      runs.push(run);
      x = last + 1;
    }
    previous = current;
  }
  type Box = { x0: number; y0: number; x1: number; y1: number; edges: number; strength: number };
  const boxes = new Map<number, Box>();
  for (const run of runs) {
    const root = find(run.label);
    let strokes = 0;
    let strength = 0;
    for (let x = run.x0; x <= run.x1; x++) {
      const gradient = edges[run.y * width + x]!;
      if (gradient > 0) {
        strokes++;
        strength += gradient;
      }
    }
    const box = boxes.get(root);
    if (!box) boxes.set(root, { x0: run.x0, y0: run.y, x1: run.x1, y1: run.y, edges: strokes, strength });
    else {
      box.x0 = Math.min(box.x0, run.x0);
      box.x1 = Math.max(box.x1, run.x1);
      box.y1 = run.y;
      box.edges += strokes;
      box.strength += strength;
    }
  }
  return [...boxes.values()];
}

/** Half the size: each pixel the mean of a 2×2 block. */
function halve(grey: Uint8Array, width: number, height: number) {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const a = 2 * y * width;
    const b = a + width;
    for (let x = 0; x < w; x++) {
      out[y * w + x] =
        (grey[a + 2 * x]! + grey[a + 2 * x + 1]! + grey[b + 2 * x]! + grey[b + 2 * x + 1]! + 2) >> 2;
    }
  }
  return { grey: out, width: w, height: h };
}

interface Scored extends PixelBox {
  score: number;
  /** Height of the text itself (the box before padding), in preview pixels. */
  textHeight: number;
}

type Blob = ReturnType<typeof blobs>[number];

/**
 * Words of one line joined into the line: blobs side by side (their rows mostly shared) with a gap of
 * at most about one character height. A plate's groups (AB 123 CD) are read as one.
 */
function joinLines(words: Blob[]): Blob[] {
  const lines = words.map((b) => ({ ...b }));
  for (let joined = true; joined;) {
    joined = false;
    lines.sort((a, b) => a.x0 - b.x0);
    for (let i = 0; i < lines.length && !joined; i++) {
      const a = lines[i]!;
      for (let j = i + 1; j < lines.length; j++) {
        const b = lines[j]!;
        const ha = a.y1 - a.y0 + 1;
        const hb = b.y1 - b.y0 + 1;
        if (b.x0 - a.x1 > 1.2 * Math.max(ha, hb)) break;
        const shared = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) + 1;
        if (shared < 0.6 * Math.min(ha, hb) || Math.max(ha, hb) > 1.6 * Math.min(ha, hb)) continue;
        a.x0 = Math.min(a.x0, b.x0);
        a.x1 = Math.max(a.x1, b.x1);
        a.y0 = Math.min(a.y0, b.y0);
        a.y1 = Math.max(a.y1, b.y1);
        a.edges += b.edges;
        a.strength += b.strength;
        lines.splice(j, 1);
        joined = true;
        break;
      }
    }
  }
  return lines;
}

/** Text-line blobs of one scale, 6–48 px high there, in the preview's pixels. */
function linesAtScale(
  grey: Uint8Array,
  width: number,
  height: number,
  factor: number,
  edge: number,
): Scored[] {
  const edges = strokeEdges(grey, width, height, edge);
  const words = blobs(edges, width, height, 3).filter((b) => b.y1 - b.y0 >= 4 && b.edges >= 8);
  return (
    joinLines(words)
      .map((b) => ({ ...b, w: b.x1 - b.x0 + 1, h: b.y1 - b.y0 + 1 }))
      // A line of text at this scale: wider than high, not the whole width.
      .filter((b) => b.h >= 6 && b.h <= 48 && b.w >= 1.5 * b.h && b.w <= 0.9 * width)
      .map((b) => ({ ...b, density: b.edges / (b.w * b.h) }))
      // Strokes fill a good part of a line's box; a lone edge or a sparse texture much less.
      .filter((b) => b.density >= 0.1)
      .map((b) => ({
        x: b.x0 * factor,
        y: b.y0 * factor,
        width: b.w * factor,
        height: b.h * factor,
        textHeight: b.h * factor,
        // Dense, contrasted and large first: printed text is dark on light, foliage is not as sharp.
        score: b.density * (b.strength / b.edges) * Math.sqrt(b.w * b.h),
      }))
  );
}

const overlap = (a: PixelBox, b: PixelBox) => {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? (w * h) / Math.min(a.width * a.height, b.width * b.height) : 0;
};

function union(a: TextRegion, b: TextRegion): TextRegion {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
    textHeight: Math.max(a.textHeight, b.textHeight),
  };
}

/** A region padded so OCR sees the characters whole, clamped to the image. */
function padded(box: Scored, width: number, height: number): Scored {
  const padX = Math.round(box.textHeight * 0.5) + 4;
  const padY = Math.round(box.textHeight * 0.35) + 3;
  const x = Math.max(0, box.x - padX);
  const y = Math.max(0, box.y - padY);
  return {
    ...box,
    x,
    y,
    width: Math.min(width, box.x + box.width + padX) - x,
    height: Math.min(height, box.y + box.height + padY) - y,
  };
}

/** A region of the preview that may hold a line of text, and how high that text is. */
export interface TextRegion extends PixelBox {
  textHeight: number;
}

/**
 * Regions that may hold a line of text, best first, padded. Small text is found on the preview, larger
 * text on its halves and quarters (where a large letter's strokes close up into one blob, as small
 * letters do at full size). Empty when the photo has no text-like structure at all.
 */
export function textRegions(
  grey: Uint8Array,
  width: number,
  height: number,
  options: TextRegionOptions = {},
): TextRegion[] {
  const { edge = 40, maxRegions = 8, maxAreaShare = 0.3 } = options;
  const found: Scored[] = [];
  let level = { grey, width, height };
  for (let factor = 1; factor <= 4 && level.width >= 64; factor *= 2) {
    found.push(...linesAtScale(level.grey, level.width, level.height, factor, edge));
    level = halve(level.grey, level.width, level.height);
  }
  found.sort((a, b) => b.score - a.score);
  const regions: TextRegion[] = [];
  let area = 0;
  for (const candidate of found) {
    if (regions.length >= maxRegions) break;
    const box = padded(candidate, width, height);
    // The same text found at two scales, or a line and one of its words: one region around both.
    const same = regions.find((taken) => overlap(taken, box) > 0.5);
    if (same) {
      area -= same.width * same.height;
      Object.assign(same, union(same, box));
      area += same.width * same.height;
      continue;
    }
    // The best one always, however large (a close-up of a plate or a label is all text).
    if (regions.length > 0 && area + box.width * box.height > maxAreaShare * width * height) continue;
    area += box.width * box.height;
    regions.push({ x: box.x, y: box.y, width: box.width, height: box.height, textHeight: box.textHeight });
  }
  return regions;
}

/** Angles tried by `skewOf`, in degrees: a photo's text is seldom more than 12° off level. */
const SKEW_ANGLES = Array.from({ length: 13 }, (_, i) => -12 + 2 * i);

/**
 * The angle (degrees, clockwise positive, as sharp's rotate() takes it to undo) at which a region's
 * text lies: the shear that stacks its stroke edges into the fewest, fullest rows. Tesseract reads
 * lines that are level; a plate seen 6° off is otherwise split across lines and misread.
 */
export function skewOf(grey: Uint8Array, width: number, region: PixelBox, edge = 40): number {
  const points: [number, number][] = [];
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = Math.max(1, region.x); x < Math.min(width - 1, region.x + region.width); x++) {
      if (Math.abs(grey[y * width + x + 1]! - grey[y * width + x - 1]!) >= edge)
        points.push([x - region.x, y - region.y]);
    }
  }
  if (points.length < 20) return 0;
  let best = { angle: 0, score: -1 };
  for (const angle of SKEW_ANGLES) {
    const slope = Math.tan((angle * Math.PI) / 180);
    const rows = new Map<number, number>();
    for (const [x, y] of points) {
      const row = Math.round(y - x * slope);
      rows.set(row, (rows.get(row) ?? 0) + 1);
    }
    let score = 0;
    for (const count of rows.values()) score += count * count;
    // Level wins a tie: most text is level, and a needless rotation blurs it.
    if (score > best.score * (angle === 0 ? 0.98 : 1.02)) best = { angle, score };
  }
  return -best.angle;
}
