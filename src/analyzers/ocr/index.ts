// Text detection and recognition with PaddleOCR's PP-OCRv4 models (DB detector, SVTR/CTC recogniser)
// on onnxruntime-node: find the boxes, crop each line upright, read the lines.
export { detectText, type DetectTextOptions } from './detect.js';
export { cropLine, type CropLineOptions } from './crop.js';
export { recogniseLines } from './recognise.js';
export { closeOcr } from './models.js';
export type {
  FractionBox,
  Point,
  Quad,
  RecognisedChar,
  RecognisedLine,
  RgbImage,
  TextBoxFound,
} from './types.js';
