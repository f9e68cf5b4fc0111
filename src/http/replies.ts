// Replies that send files rather than JSON, shared by the routes that serve media, logos and PDFs.
import type { FastifyReply } from 'fastify';
import type { MediaFile, RangeRequest } from '../services/portal/media-files.js';
import type { PdfFile } from '../services/portal/report.js';

/** Sends a stored file, or the part of it a range asked for (206). */
export async function sendFile(reply: FastifyReply, file: MediaFile, cache = 'private, max-age=300') {
  void reply.header('content-type', file.mime).header('cache-control', cache);
  if (file.size !== undefined) void reply.header('accept-ranges', 'bytes');
  if (file.range && file.size !== undefined) {
    const { start, end } = file.range;
    return reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${file.size}`)
      .header('content-length', String(end - start + 1))
      .send(file.body);
  }
  if (file.size !== undefined) void reply.header('content-length', String(file.size));
  return reply.send(file.body);
}

/**
 * The one range of a `Range: bytes=…` header (a video player seeking); undefined for none, or for what
 * this service does not serve as a range (several ranges, other units): those get the whole file.
 */
export function rangeOf(header: string | undefined): RangeRequest | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') return { suffix: Number(match[2]) };
  return { start: Number(match[1]), ...(match[2] !== '' && { end: Number(match[2]) }) };
}

/** Sends a PDF as a download, as it is written; never cached (it may hold personal data). */
export function sendPdf(reply: FastifyReply, file: PdfFile) {
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(file.pdf);
}
