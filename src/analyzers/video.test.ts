// Runs the real ffprobe and ffmpeg from the npm installer packages on videos made here with that ffmpeg.
import { execFile, spawn } from 'node:child_process';
import {
  access,
  chmod,
  constants,
  mkdtemp,
  open,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoPart, VideoProbe } from '../domain/result/video-pair-parts.js';
import {
  ensureExecutable,
  extractKeyframes,
  keyframeTimes,
  MediaToolError,
  mediaTools,
  probeVideo,
} from './video.js';

const exec = promisify(execFile);
const PHOTO = decodeURIComponent(new URL('../../test/fixtures/photos/home.jpg', import.meta.url).pathname);
const never = new AbortController().signal;

let dir: string;
let ffmpeg: string;
let encoder: 'libx264' | 'mpeg4';
let clip: string;

/** Makes a test video with ffmpeg's test pattern; `extra` comes before the output path. */
async function makeVideo(name: string, source: string, extra: string[] = []): Promise<string> {
  const path = join(dir, name);
  const codec = ['-c:v', encoder, ...(encoder === 'libx264' ? ['-preset', 'ultrafast'] : [])];
  await exec(ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    source,
    ...codec,
    '-pix_fmt',
    'yuv420p',
    ...extra,
    path,
  ]);
  return path;
}

/** Pids of processes whose command line mentions `text` (Linux /proc). */
async function processesMentioning(text: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) pids.push(Number(entry));
  }
  return pids;
}

async function waitForProcess(text: string): Promise<number[]> {
  for (let tries = 0; tries < 500; tries++) {
    const pids = await processesMentioning(text);
    if (pids.length > 0) return pids;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no process mentioning ${text} appeared`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'walkaround-video-'));
  ({ ffmpeg } = await mediaTools());
  const { stdout } = await exec(ffmpeg, ['-hide_banner', '-encoders']);
  encoder = / libx264 /.test(stdout) ? 'libx264' : 'mpeg4';
  clip = await makeVideo('clip.mp4', 'testsrc=duration=5:size=640x480:rate=25');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mediaTools', () => {
  it('finds both binaries in the installer packages and they are executable', async () => {
    const tools = await mediaTools();
    expect(tools.ffmpeg).toContain('@ffmpeg-installer');
    expect(tools.ffprobe).toContain('@ffprobe-installer');
    await access(tools.ffmpeg, constants.X_OK);
    await access(tools.ffprobe, constants.X_OK);
  });

  it('adds the owner execute bit to a binary that arrives without it (mode 0644)', async () => {
    const file = join(dir, 'tool');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o644);
    await expect(ensureExecutable(file)).resolves.toBe(file);
    expect((await stat(file)).mode & 0o777).toBe(0o744);
  });
});

describe('keyframeTimes', () => {
  it('takes the middle of each one-second slice', () => {
    expect(keyframeTimes(5)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5]);
    expect(keyframeTimes(0.2)).toEqual([0.1]);
    expect(keyframeTimes(0)).toEqual([0]);
  });

  it('spreads at most `max` frames evenly over a long video', () => {
    const times = keyframeTimes(300, 1, 60);
    expect(times).toHaveLength(60);
    expect(times[0]).toBe(2.5);
    expect(times[59]).toBe(297.5);
    expect(keyframeTimes(5, 1, 3)).toEqual([0.833, 2.5, 4.167]);
  });

  it('refuses nonsense options', () => {
    expect(() => keyframeTimes(5, 0)).toThrow(RangeError);
    expect(() => keyframeTimes(5, 1, 0)).toThrow(RangeError);
    expect(() => keyframeTimes(Number.NaN)).toThrow(RangeError);
  });
});

describe('probeVideo', () => {
  it('reads duration, container, codec, size and frame rate of an MP4', async () => {
    const probe = await probeVideo(clip, never);
    expect(Value.Check(VideoProbe, probe)).toBe(true);
    expect(probe.duration).toBeCloseTo(5, 1);
    expect(probe.format).toContain('mp4');
    expect(probe.codec).toBe(encoder === 'libx264' ? 'h264' : 'mpeg4');
    expect(probe).toMatchObject({ width: 640, height: 480, frame_rate: 25, rotation: 0, has_audio: false });
  });

  it('reports rotation and audio, and keyframes come out upright', async () => {
    const rotated = join(dir, 'rotated.mp4');
    await exec(ffmpeg, [
      ...['-v', 'error', '-i', clip, '-f', 'lavfi', '-i', 'sine=duration=5'],
      ...[
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-c:v',
        'copy',
        '-c:a',
        'aac',
        '-metadata:s:v:0',
        'rotate=90',
        rotated,
      ],
    ]);
    const probe = await probeVideo(rotated, never);
    expect(probe).toMatchObject({ width: 640, height: 480, rotation: 90, has_audio: true });
    const [frame] = await extractKeyframes(rotated, join(dir, 'rotated'), { max: 1 }, never);
    expect(await sharp(frame?.path).metadata()).toMatchObject({ width: 480, height: 640 });
  });

  it('finds the duration of a WebM whose header has none (as a browser records it)', async () => {
    const webm = join(dir, 'recorded.webm');
    const file = await open(webm, 'w');
    // Written to a pipe, the muxer cannot go back to write the duration.
    const args = ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=4:size=320x240:rate=25'];
    const child = spawn(ffmpeg, [...args, '-c:v', 'libvpx', '-b:v', '200k', '-f', 'webm', 'pipe:1'], {
      stdio: ['ignore', file.fd, 'inherit'],
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    await file.close();
    expect(code).toBe(0);
    const { stdout } = await exec((await mediaTools()).ffprobe, ['-v', 'error', '-show_format', webm]);
    expect(stdout).toContain('duration=N/A');

    const probe = await probeVideo(webm, never);
    expect(probe).toMatchObject({ format: 'matroska,webm', codec: 'vp8', width: 320, height: 240 });
    expect(probe.duration).toBeCloseTo(4, 1);
  });

  it('says clearly that a file is not a video, without the local path', async () => {
    const text = join(dir, 'notes.mp4');
    await writeFile(text, 'this is not a video\n'.repeat(100));
    const error = await probeVideo(text, never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaToolError);
    expect((error as Error).message).toMatch(/^ffprobe failed \(1\): .*Invalid data found/);
    expect((error as Error).message).not.toContain(dir);

    await expect(probeVideo(PHOTO, never)).rejects.toThrow(/not a supported video container/);
    await expect(extractKeyframes(text, join(dir, 'none'), {}, never)).rejects.toThrow(MediaToolError);
  });
});

describe('extractKeyframes', () => {
  it('writes about one JPEG per second, in time order, that decode', async () => {
    const out = join(dir, 'frames');
    const frames = await extractKeyframes(clip, out, {}, never);
    expect(frames.map((f) => f.time)).toEqual([0.5, 1.5, 2.5, 3.5, 4.5]);
    const pixels: Buffer[] = [];
    for (const frame of frames) {
      const { data, info } = await sharp(frame.path).raw().toBuffer({ resolveWithObject: true });
      expect(info).toMatchObject({ width: 640, height: 480 });
      expect((await sharp(frame.path).metadata()).format).toBe('jpeg');
      pixels.push(data);
    }
    // The test pattern moves: frames from different times differ.
    expect(pixels[0]?.equals(pixels[4] ?? Buffer.alloc(0))).toBe(false);

    const part = {
      ...(await probeVideo(clip, never)),
      keyframes: frames.map((f, index) => ({ index, time: f.time, analysis: { quality: { blur: 1 } } })),
    };
    expect(Value.Check(VideoPart, part)).toBe(true);
  });

  it('caps the count at `max`, spread over the whole video', async () => {
    const three = await extractKeyframes(clip, join(dir, 'three'), { max: 3, duration: 5 }, never);
    expect(three.map((f) => f.time)).toEqual([0.833, 2.5, 4.167]);
    for (const frame of three) {
      expect(await sharp(frame.path).metadata()).toMatchObject({ format: 'jpeg', width: 640 });
    }
    expect(await readdir(join(dir, 'three'))).toHaveLength(3);
  });

  it('seeks to frames far apart and takes the same frame a single pass takes', async () => {
    const long = await makeVideo('long.mp4', 'testsrc=duration=24:size=320x240:rate=25');
    // 12 s apart: one seek per frame.
    const sought = await extractKeyframes(long, join(dir, 'sought'), { max: 2 }, never);
    expect(sought.map((f) => f.time)).toEqual([6, 18]);
    // 8 s apart: one pass; its middle frame is at 12 s, like the single frame of max 1 (a seek).
    const passed = await extractKeyframes(long, join(dir, 'passed'), { max: 3 }, never);
    expect(passed.map((f) => f.time)).toEqual([4, 12, 20]);
    const [middle] = await extractKeyframes(long, join(dir, 'middle'), { max: 1 }, never);
    expect(middle?.time).toBe(12);
    const pixels = (path = '') => sharp(path).raw().toBuffer();
    expect((await pixels(middle?.path)).equals(await pixels(passed[1]?.path))).toBe(true);
    expect((await pixels(sought[0]?.path)).equals(await pixels(passed[0]?.path))).toBe(false);
  });

  it('scales large frames so the long side is 1280', async () => {
    const big = await makeVideo('big.mp4', 'testsrc=duration=1:size=1920x1080:rate=25');
    const [frame] = await extractKeyframes(big, join(dir, 'big'), {}, never);
    expect(await sharp(frame?.path).metadata()).toMatchObject({ width: 1280, height: 720 });
  });

  it.skipIf(process.platform !== 'linux')('kills ffmpeg and ffprobe when the signal aborts', async () => {
    // Opening a FIFO nobody writes to blocks forever: the tools hang until killed.
    const fifo = join(dir, 'stuck.mp4');
    await exec('mkfifo', [fifo]);

    const extracting = new AbortController();
    const extraction = extractKeyframes(fifo, join(dir, 'stuck'), { duration: 5 }, extracting.signal);
    const [pid] = await waitForProcess(fifo);
    expect(await readFile(`/proc/${pid}/cmdline`, 'utf8')).toContain('ffmpeg');
    extracting.abort();
    await expect(extraction).rejects.toMatchObject({ name: 'AbortError' });
    expect(await processesMentioning(fifo)).toEqual([]);

    const probing = new AbortController();
    const probe = probeVideo(fifo, probing.signal);
    await waitForProcess(fifo);
    probing.abort(new Error('analyzer timed out'));
    await expect(probe).rejects.toThrow('analyzer timed out');
    expect(await processesMentioning(fifo)).toEqual([]);

    await expect(probeVideo(clip, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
