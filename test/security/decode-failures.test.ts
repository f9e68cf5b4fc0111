// Files that pass the upload's type sniff but do not decode: each is reported in its own item (an
// `errors` entry, the `undecodable` flag), the good photos beside it are analysed, and the inspection
// completes on its first attempt, with no retries for a failure that would only repeat
// (docs/result.md, docs/security.md#request-bodies-and-uploads).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectionResult } from '../../src/domain/result/index.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { photo } from '../helpers/media.js';
import { uploadClient } from '../helpers/upload-client.js';
import { makeMp4 } from '../helpers/video.js';

/** A valid PNG header that declares 40,000 × 40,000 pixels (over sharp's limit), with one empty block. */
function pngOverThePixelLimit(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(40_000, 0);
  header.writeUInt32BE(40_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('undecodable files among good ones', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let api: ReturnType<typeof uploadClient>;
  let baseUrl: string;
  let client: { id: string; apiKey: string };
  let scratch: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite', { JOB_LEASE: '5s' });
    worker = await startWorker(t.deps);
    baseUrl = await t.listen();
    api = uploadClient(baseUrl);
    client = await t.newClient({ webhookUrl: 'https://hooks.example.com/x' });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-decode-'));
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Waits for the inspection to leave `pending`/`processing`; fails on `failed` or after a minute. */
  async function finished(session: string): Promise<{ status: string; result: InspectionResult }> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await fetch(`${baseUrl}/api/inspections/${session}`, {
        headers: { 'x-api-key': client.apiKey },
      });
      const body = (await res.json()) as { status: string; result: InspectionResult };
      if (body.status === 'completed' || body.status === 'failed') return body;
      if (Date.now() > deadline) throw new Error(`still ${body.status} after a minute`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function upload(files: { name: string; content: Buffer }[]): Promise<string> {
    const c = await api.credentials(client.apiKey);
    const res = await api.files(
      c.refresh_token,
      { type: 'file', session: c.session, case_id: 'decode' },
      files,
    );
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 200, message: '' });
    return c.session;
  }

  /** The inspection completed on its first attempt, with `bad` flagged undecodable and `good` analysed. */
  async function expectReported(session: string, bad: string[], good: string[]) {
    const { status, result } = await finished(session);
    expect(status).toBe('completed');
    const item = (name: string) => result.media.find((m) => m.original_id === name)!;
    for (const name of bad) {
      const media = item(name);
      expect(media.flags, name).toEqual(['undecodable']);
      expect(media.errors, name).toEqual([{ analyzer: 'decode', message: expect.any(String) as string }]);
      expect(media.errors[0]!.message, name).not.toContain(os.tmpdir());
      expect({ width: media.width, height: media.height, analysis: media.analysis }, name).toEqual({
        width: 0,
        height: 0,
        analysis: {},
      });
    }
    for (const name of good) {
      const media = item(name);
      expect(media.flags, name).not.toContain('undecodable');
      expect(media.errors, name).toEqual([]);
    }
    expect(result.summary.flag_counts.undecodable).toBe(bad.length);
    // The result is stored inside the task; the job is marked done just after it returns.
    const key = `analyse-inspection:${session}`;
    let job = await t.deps.queue.state(key);
    for (const deadline = Date.now() + 10_000; job?.status === 'running' && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = await t.deps.queue.state(key);
    }
    expect(job === undefined || (job.status === 'completed' && job.attempts === 1), JSON.stringify(job)).toBe(
      true,
    );
    return item;
  }

  it('flags a truncated JPEG and a PNG over the pixel limit, and analyses the photos beside them', async () => {
    const session = await upload([
      { name: 'home.jpg', content: photo('home.jpg') },
      { name: 'truncated.jpg', content: photo('scenetext01.jpg').subarray(0, 3000) },
      { name: 'huge.png', content: pngOverThePixelLimit() },
      { name: 'exif.jpg', content: photo('exif.jpg') },
    ]);
    const item = await expectReported(session, ['truncated.jpg', 'huge.png'], ['home.jpg', 'exif.jpg']);
    expect(item('home.jpg').analysis.quality).toBeDefined();
  });

  it('flags an MP4 without its index, and analyses the video beside it', async () => {
    const video = await makeMp4(scratch, 'walkaround.mp4', 4);
    const whole = fs.readFileSync(video);
    const session = await upload([
      { name: 'no-moov.mp4', content: whole.subarray(0, Math.floor(whole.length * 0.9)) },
      { name: 'walkaround.mp4', content: whole },
    ]);
    const item = await expectReported(session, ['no-moov.mp4'], ['walkaround.mp4']);
    expect(item('walkaround.mp4').analysis.video).toBeDefined();
  });
});
