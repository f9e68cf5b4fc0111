// Bodies that are not JSON (photos, videos, PDFs, tus chunks), described for the OpenAPI document.
import { Type } from '@sinclair/typebox';
import { errorResponses } from './errors.js';

const Binary = Type.String({ format: 'binary' });

/** A request or response body of one of these media types, as raw bytes. */
export const binaryBody = (mediaTypes: readonly string[]) => ({
  content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: Binary }])),
});

/** A response with no body (204, or the headers-only answers of tus). */
export const NoBody = Type.Null({ description: 'No body.' });

/** A PDF report, or 409 while the inspection has no result to report. */
export const PDF_RESPONSES = { 200: binaryBody(['application/pdf']), ...errorResponses('plain', 409) };
