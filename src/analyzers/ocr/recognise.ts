// Text recognition with PP-OCRv4's SVTR model and CTC: each line 48 pixels high, normalised as
// PaddleOCR's rec does ((x / 255 − 0.5) / 0.5), padded with grey (0 once normalised) to a multiple of
// 8 pixels wide, run alone and decoded greedily (./ctc.ts).
import { Tensor } from 'onnxruntime-node';
import { decodeCtc, foldClasses, type Folding } from './ctc.js';
import { getRecogniser } from './models.js';
import { assertRgb, scaled } from './sampling.js';
import type { RecognisedLine, RgbImage } from './types.js';

/** The recogniser's input height. */
export const LINE_HEIGHT = 48;
/** The model's horizontal stride: one CTC step per 8 input columns. */
const WIDTH_STEP = 8;
/**
 * Lines narrower than this are padded to it: PaddleOCR pads every line to at least 320 pixels
 * (its rec_image_shape 3 × 48 × 320), the width the model was trained on.
 */
const MIN_WIDTH = 320;
/** Lines are squeezed to at most this width, bounding the work per line. */
const MAX_WIDTH = 1280;
const OUTPUT = 'softmax_11.tmp_0';

/** A line as the recogniser takes it: 48 pixels high, normalised planes, grey padding to the right. */
export function recogniserInput(line: RgbImage): {
  planes: Float32Array;
  width: number;
  contentWidth: number;
} {
  const scale = LINE_HEIGHT / line.height;
  const contentWidth = Math.max(1, Math.min(MAX_WIDTH, Math.round(line.width * scale)));
  const resized =
    line.height === LINE_HEIGHT && contentWidth === line.width
      ? line
      : scaled(line, scale, contentWidth, LINE_HEIGHT);
  const width = Math.max(MIN_WIDTH, Math.ceil(contentWidth / WIDTH_STEP) * WIDTH_STEP);
  const planes = new Float32Array(3 * LINE_HEIGHT * width); // 0 = grey once normalised
  for (let c = 0; c < 3; c++) {
    const plane = c * LINE_HEIGHT * width;
    for (let y = 0; y < LINE_HEIGHT; y++) {
      for (let x = 0; x < contentWidth; x++) {
        planes[plane + y * width + x] = resized.data[(y * contentWidth + x) * 3 + c]! / 127.5 - 1;
      }
    }
  }
  return { planes, width, contentWidth };
}

export interface RecogniseOptions {
  /** Stops the work between lines. */
  signal?: AbortSignal;
  /**
   * The characters the reader wants: each dictionary character mapped to the one it is read as, or
   * undefined to leave it out (./ctc.ts foldClasses). A folding is built once per function.
   */
  fold?: (char: string) => string | undefined;
}

const foldings = new WeakMap<(char: string) => string | undefined, Folding>();

function foldingFor(characters: readonly string[], fold: (char: string) => string | undefined): Folding {
  let folding = foldings.get(fold);
  if (!folding) foldings.set(fold, (folding = foldClasses(characters, fold)));
  return folding;
}

/**
 * The text of each line (crops from ./crop.ts, or any upright line image). Lines run one at a time:
 * padded into a batch, a line's result would depend on its neighbours' widths. `signal` stops the work
 * between lines.
 */
export async function recogniseLines(
  lines: readonly RgbImage[],
  options: RecogniseOptions = {},
): Promise<RecognisedLine[]> {
  const { signal, fold } = options;
  lines.forEach((line, i) => assertRgb(line, `recogniseLines: line ${i}`));
  if (lines.length === 0) return [];
  const { session, characters } = await getRecogniser();
  const folding = fold && foldingFor(characters, fold);
  const results: RecognisedLine[] = [];
  for (const line of lines) {
    signal?.throwIfAborted();
    const { planes, width, contentWidth } = recogniserInput(line);
    const outputs = await session.run({ x: new Tensor('float32', planes, [1, 3, LINE_HEIGHT, width]) });
    try {
      const output = outputs[OUTPUT];
      if (!output || !(output.data instanceof Float32Array))
        throw new Error(`OCR recogniser: no ${OUTPUT} output`);
      const [, steps, classes] = output.dims;
      if (classes !== characters.length || !steps) {
        throw new Error(`OCR recogniser: output ${output.dims.join('×')}, expected N×T×${characters.length}`);
      }
      // Step t reads input columns [8t, 8t + 8); the line's own pixels are the first contentWidth.
      const stepX = (t: number) => Math.min(1, (t * WIDTH_STEP + WIDTH_STEP / 2) / contentWidth);
      results.push(decodeCtc(output.data, steps, classes, characters, { stepX, folding }));
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
    }
  }
  return results;
}
