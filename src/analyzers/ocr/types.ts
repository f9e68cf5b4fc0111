// The shapes the PP-OCRv4 detector and recogniser take and give back.

/** A decoded image: raw 8-bit RGB, 3 channels, row-major (a Buffer is a Uint8Array too). */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A point in an image's pixel coordinates: pixel (i, j) covers [i, i + 1) × [j, j + 1). */
export type Point = readonly [x: number, y: number];

/** Four corners, clockwise from the text's top-left: top-left, top-right, bottom-right, bottom-left. */
export type Quad = readonly [Point, Point, Point, Point];

/** A box as fractions (0..1) of the image's width and height, from its top-left corner. */
export interface FractionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TextBoxFound {
  /** The axis-aligned bounds of `quad`, as fractions of the image, clamped to it. */
  box: FractionBox;
  /**
   * The oriented box, unclipped as DB does, in the input image's pixels. It may reach a few pixels past
   * the image's edges (the unclip margin); the crop replicates the border there.
   */
  quad: Quad;
  /** Slope of the top edge (top-left → top-right) in degrees, in [-45, 45]; positive descends to the right. */
  angle: number;
  /** Mean text probability over the detected region, 0..1. */
  score: number;
}

export interface RecognisedChar {
  char: string;
  /** The character's probability at the step it was read, 0..1. */
  confidence: number;
  /** Where along the line it was read: the centre of its step, as a fraction of the line's width. */
  x: number;
  /**
   * The character the recogniser found next likeliest at that step, when it is a character (not the
   * blank), with its probability: what a doubt about `char` is between.
   */
  rival?: Rival;
}

export interface Rival {
  char: string;
  confidence: number;
}

export interface RecognisedLine {
  text: string;
  /** Mean of the kept characters' confidences; 0 when nothing was read. */
  confidence: number;
  /** One per character of `text`, in order. */
  chars: RecognisedChar[];
}
