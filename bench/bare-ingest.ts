// The baseline of bench/upload.ts: a bare Node `http` server that pipes every request body, unparsed,
// into one file on disk, fsyncs it (as the service's disk storage does for each media file) and answers
// 200 with a small JSON body. No multipart parsing, no sniffing, no hashing, no database.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const port = Number(process.env.PORT);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bare-ingest-'));

/** Writes the body to a new file and fsyncs it; returns the file and its size. */
async function ingest(req: http.IncomingMessage): Promise<{ file: string; bytes: number }> {
  const file = path.join(dir, crypto.randomUUID());
  const out = fs.createWriteStream(file, { flags: 'wx' });
  try {
    await pipeline(req, out);
    const handle = await fs.promises.open(file, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  return { file, bytes: out.bytesWritten };
}

const server = http.createServer((req, res) => {
  ingest(req).then(
    ({ file, bytes }) => {
      const body = JSON.stringify({ status: 'success', bytes });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      // The service keeps what it stored; here the file only had to be written. It is removed once the
      // answer is out, so that the disk does not fill up over the repetitions.
      res.end(body, () => void fs.promises.rm(file, { force: true }));
    },
    (error: Error) => {
      const body = JSON.stringify({ status: 'error', message: error.message });
      res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
  );
});
// Fastify's default: no overall request timeout (Node's own default is 300 s).
server.requestTimeout = 0;

const stop = () => {
  server.close();
  server.closeAllConnections();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

server.listen(port, '127.0.0.1', () => process.stdout.write('walkaround started\n'));
