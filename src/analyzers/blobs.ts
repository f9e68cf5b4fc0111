// The connected regions of a mask, found by flood fill: a dot-matrix display's dots (./dot-matrix.ts),
// an Abu Dhabi plate's red code box and the code in it (./plate-code-box.ts).

export interface Blob {
  /** Its pixels, as `y * width + x` in the mask. */
  members: number[];
  /** Its bounds in the mask, right and bottom exclusive. */
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const FOUR: readonly (readonly [number, number])[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];
const EIGHT: readonly (readonly [number, number])[] = [...FOUR, [-1, -1], [1, -1], [-1, 1], [1, 1]];

/** The regions of the mask's set pixels joined through `neighbours` (4: sides; 8: corners too). */
export function* blobs(mask: Uint8Array, width: number, height: number, neighbours: 4 | 8): Generator<Blob> {
  const steps = neighbours === 4 ? FOUR : EIGHT;
  const seen = new Uint8Array(mask.length);
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const blob: Blob = { members: [], left: width, top: height, right: 0, bottom: 0 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      blob.members.push(p);
      blob.left = Math.min(blob.left, x);
      blob.right = Math.max(blob.right, x + 1);
      blob.top = Math.min(blob.top, y);
      blob.bottom = Math.max(blob.bottom, y + 1);
      for (const [dx, dy] of steps) {
        const [nx, ny] = [x + dx, y + dy];
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const q = ny * width + nx;
        if (mask[q] && !seen[q]) {
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    yield blob;
  }
}
