// Small copies of a photo made on the phone: a preview for the quality check (so a 12 MP photo is not
// sent twice over a weak link), a thumbnail for the list, and a scaled copy when the persona caps the
// size. The original is otherwise sent as captured.
import { toJpeg } from './camera.js';

export interface Decoded {
  bitmap: ImageBitmap;
  width: number;
  height: number;
}

export async function decode(blob: Blob): Promise<Decoded> {
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  return { bitmap, width: bitmap.width, height: bitmap.height };
}

export function scaled(image: Decoded, longSide: number, quality: number): Promise<Blob> {
  const ratio = Math.min(1, longSide / Math.max(image.width, image.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(image.width * ratio));
  canvas.height = Math.max(1, Math.round(image.height * ratio));
  const context = canvas.getContext('2d')!;
  context.imageSmoothingQuality = 'high';
  context.drawImage(image.bitmap, 0, 0, canvas.width, canvas.height);
  return toJpeg(canvas, quality);
}

/** The long side the server's quality check looks at: a preview of this size loses it nothing. */
export const QUALITY_PREVIEW_SIDE = 1024;
/** JPEG quality of that preview: small on the uplink, and blur or exposure read the same. */
export const QUALITY_PREVIEW_JPEG = 0.75;
export const THUMBNAIL_SIDE = 240;
