// Videos (docs/result.md#what-it-holds): facts from ffprobe and keyframes from ffmpeg, both run from the
// binaries that the npm packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe carry (nothing is
// fetched at run time). The pipeline analyses each keyframe as an image; this module only writes the JPEGs.
//
// The tools run without a shell, read only local files (`-protocol_whitelist file`) and open only the
// containers uploads may hold (`-format_whitelist`): an uploaded "video" that is really an HLS playlist
// or a concat script could otherwise make ffmpeg read other files or the network.
import { spawn } from 'node:child_process';
import { access, chmod, constants, mkdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import type { VideoProbe } from '../domain/result/video-pair-parts.js';

export type { VideoProbe };

/** Demuxers for the video extensions uploads accept (mp4, mov, webm, mkv, avi). */
const DEMUXERS = 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi';
const INPUT_GUARD = ['-protocol_whitelist', 'file', '-format_whitelist', DEMUXERS];
const STDERR_TAIL = 8 * 1024;
const PROBE_MAX_OUTPUT = 1024 * 1024;
/** One short CSV line per packet; 16 MB is hours of video. */
const SCAN_MAX_OUTPUT = 16 * 1024 * 1024;

/** Keyframes are scaled down (never up) so that their long side is at most this. */
export const KEYFRAME_LONG_SIDE = 1280;
const SCALE = `scale='min(${KEYFRAME_LONG_SIDE},iw)':'min(${KEYFRAME_LONG_SIDE},ih)':force_original_aspect_ratio=decrease`;
/** Keyframes further apart than this many seconds are reached by seeking (see `extractKeyframes`). */
const SEEK_SPACING = 10;
/** mjpeg quality scale, 2 (best) … 31. */
const JPEG_QSCALE = '3';

/** ffprobe or ffmpeg could not do its job; the message is safe to record (no local paths). */
export class MediaToolError extends Error {
  override name = 'MediaToolError';
  constructor(
    message: string,
    options?: ErrorOptions,
    /** The tools themselves are missing or broken (the machine's fault, not the file's). */
    readonly environment = false,
  ) {
    super(message, options);
  }
}

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

let tools: Promise<MediaTools> | undefined;

/**
 * Paths of the ffmpeg and ffprobe binaries from the installer packages, checked to be executable
 * (the ffprobe package has shipped its binary as mode 0744, so `u+x` is added when missing).
 * Resolved once per process; a failure is not cached.
 */
export function mediaTools(): Promise<MediaTools> {
  tools ??= locateTools().catch((error: unknown) => {
    tools = undefined;
    throw error;
  });
  return tools;
}

async function locateTools(): Promise<MediaTools> {
  const require = createRequire(import.meta.url);
  const [ffmpeg, ffprobe] = await Promise.all([
    ensureExecutable(installedBinary(require, '@ffmpeg-installer/ffmpeg')),
    ensureExecutable(installedBinary(require, '@ffprobe-installer/ffprobe')),
  ]);
  return { ffmpeg, ffprobe };
}

function installedBinary(require: NodeJS.Require, pkg: string): string {
  try {
    const { path } = require(pkg) as { path: unknown };
    if (typeof path === 'string' && path !== '') return path;
    throw new Error('no path exported');
  } catch (error) {
    // The ffmpeg installer throws a bare string, hence String().
    throw new MediaToolError(
      `${pkg} has no binary for this platform: ${String(error)}`,
      { cause: error },
      true,
    );
  }
}

/** The path, made executable by its owner when it is not executable yet. */
export async function ensureExecutable(path: string): Promise<string> {
  try {
    await access(path, constants.X_OK);
    return path;
  } catch {
    // Fall through: try to add the owner's execute bit.
  }
  try {
    const { mode } = await stat(path);
    await chmod(path, (mode & 0o7777) | 0o100);
    await access(path, constants.X_OK);
    return path;
  } catch (error) {
    throw new MediaToolError(
      `${path} is not executable and could not be made so: ${String(error)}`,
      { cause: error },
      true,
    );
  }
}

interface RunOptions {
  signal: AbortSignal;
  /** The input file, replaced by `<input>` in error messages. */
  input: string;
  /** The output folder, replaced by `<output>` in error messages. */
  output?: string;
  maxStdout?: number;
}

/**
 * Runs a binary (no shell) and gives back its stdout. The child is killed (SIGKILL) when the signal
 * aborts or stdout exceeds its bound; the promise settles only once the child is gone. Only the tail
 * of stderr is kept, for the error message.
 */
function run(binary: string, args: string[], options: RunOptions): Promise<Buffer> {
  const { signal, maxStdout = PROBE_MAX_OUTPUT } = options;
  signal.throwIfAborted();
  const tool = basename(binary).replace(/\.exe$/, '');
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: unknown;
    let settled = false;
    const stop = (reason: unknown): void => {
      failure ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => stop(signal.reason);
    const settle = (error: unknown, value?: Buffer): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error === undefined && value) resolve(value);
      else reject(error instanceof Error ? error : new MediaToolError(String(error)));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxStdout) stop(new MediaToolError(`${tool} wrote more than ${maxStdout} bytes`));
      else if (failure === undefined) chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_TAIL);
    });
    child.on('error', (error) => {
      // Spawning failed (no child to wait for) or killing failed; either way report it.
      if (child.pid === undefined)
        settle(new MediaToolError(`${tool} could not start: ${error.message}`, undefined, true));
      else failure ??= error;
    });
    child.on('close', (code, killedBy) => {
      if (failure !== undefined) settle(failure);
      else if (code === 0) settle(undefined, Buffer.concat(chunks));
      else settle(new MediaToolError(`${tool} failed (${code ?? killedBy}): ${explain(stderr, options)}`));
    });
  });
}

/** The last lines of stderr, in words a client may read, without local paths. */
function explain(stderr: string, { input, output }: RunOptions): string {
  if (stderr.includes('not on whitelist')) return 'not a supported video container (MP4/MOV, WebM/MKV, AVI)';
  const redact = (line: string): string => {
    const text = line.split(input).join('<input>').replaceAll('file:<input>', '<input>');
    return (output ? text.split(output).join('<output>') : text).trim();
  };
  const lines = stderr
    .split(/\r?\n/)
    .map(redact)
    .filter((line) => line !== '');
  return lines.slice(-3).join(' / ').slice(0, 500) || 'no message';
}

const fileInput = (path: string): string => `file:${path}`;

// ffprobe's JSON, as far as it is read here.
interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  side_data_list?: { rotation?: number }[];
}
interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

const PROBE_ENTRIES =
  'format=format_name,duration' +
  ':stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate,duration' +
  ':stream_disposition=attached_pic:stream_side_data=rotation';

/** Container, codec, size, frame rate, rotation, audio and duration of a video file. */
export async function probeVideo(path: string, signal: AbortSignal): Promise<VideoProbe> {
  const { ffprobe } = await mediaTools();
  const args = ['-v', 'error', ...INPUT_GUARD, '-print_format', 'json', '-show_entries', PROBE_ENTRIES];
  const stdout = await run(ffprobe, [...args, fileInput(path)], { signal, input: path });
  let output: ProbeOutput;
  try {
    output = JSON.parse(stdout.toString('utf8')) as ProbeOutput;
  } catch (error) {
    throw new MediaToolError('ffprobe gave output that is not JSON', { cause: error });
  }
  const streams = output.streams ?? [];
  // Cover art in an MP4 is a "video" stream too; the picture stream is the first that is not one.
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  if (!video) throw new MediaToolError('the file has no video stream');
  const duration =
    seconds(output.format?.duration) ??
    seconds(video.duration) ??
    (await scanDuration(ffprobe, path, signal));
  const rotation = video.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation ?? 0;
  return {
    duration: round(duration, 3),
    format: output.format?.format_name ?? 'unknown',
    codec: video.codec_name ?? 'unknown',
    width: video.width ?? 0,
    height: video.height ?? 0,
    frame_rate: rate(video.avg_frame_rate) ?? rate(video.r_frame_rate),
    rotation: ((Math.round(rotation) % 360) + 360) % 360,
    has_audio: streams.some((s) => s.codec_type === 'audio'),
  };
}

/**
 * The end of the last video packet, for files whose header has no duration (a WebM recorded by a
 * browser's MediaRecorder has none). Reads packets only, decodes nothing.
 */
async function scanDuration(ffprobe: string, path: string, signal: AbortSignal): Promise<number> {
  const args = ['-v', 'error', ...INPUT_GUARD, '-select_streams', 'V:0'];
  const entries = ['-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0'];
  const stdout = await run(ffprobe, [...args, ...entries, fileInput(path)], {
    signal,
    input: path,
    maxStdout: SCAN_MAX_OUTPUT,
  });
  let end: number | undefined;
  for (const line of stdout.toString('utf8').split('\n')) {
    const [pts, length] = line.split(',');
    const start = seconds(pts);
    if (start !== undefined) end = Math.max(end ?? 0, start + (seconds(length) ?? 0));
  }
  if (end === undefined) throw new MediaToolError('the video stream holds no frames');
  return end;
}

function seconds(text: string | undefined): number | undefined {
  const value = Number(text);
  return text !== undefined && text !== '' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function rate(text: string | undefined): number | null {
  const [num, den] = (text ?? '').split('/').map(Number);
  if (num === undefined || den === undefined || !(num > 0) || !(den > 0)) return null;
  return round(num / den, 3);
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

export interface KeyframeOptions {
  /** Wanted spacing of keyframes in seconds (default 1). */
  everySeconds?: number;
  /** At most this many keyframes (default 60); longer videos get them evenly spread. */
  max?: number;
  /** The video's duration when already known (from `probeVideo`); probed otherwise. */
  duration?: number;
}

export interface Keyframe {
  /** Seconds from the start of the video: the frame is the first at or after this time. */
  time: number;
  /** The JPEG file in `outDir`. */
  path: string;
}

/**
 * When to take keyframes: the middle of each of `n` equal slices of the video, where `n` is about one
 * per `everySeconds`, at least 1 and at most `max`.
 */
export function keyframeTimes(duration: number, everySeconds = 1, max = 60): number[] {
  if (!(everySeconds > 0) || !Number.isFinite(everySeconds)) throw new RangeError('everySeconds must be > 0');
  if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be an integer ≥ 1');
  if (!(duration >= 0) || !Number.isFinite(duration)) throw new RangeError('duration must be ≥ 0');
  const count = Math.min(max, Math.max(1, Math.round(duration / everySeconds)));
  const slice = duration / count;
  return Array.from({ length: count }, (_, i) => round((i + 0.5) * slice, 3));
}

const keyframeName = (index: number): string => `keyframe-${String(index + 1).padStart(3, '0')}.jpg`;

/**
 * Writes keyframes of the video as JPEGs (`keyframe-001.jpg`, … in `outDir`, upright, long side
 * ≤ 1280 px) and lists them in time order.
 *
 * Frames come from one decoding pass through ffmpeg's select filter, unless they are more than
 * `SEEK_SPACING` seconds apart (a long video hitting `max`): then from one seek per frame, which decodes
 * a group of pictures per frame instead of the whole video. Measured on 2 busy cores, 60 s of 1080p
 * H.264: 30 frames in one pass 4.4–7.5 s; 20 frames by seeks 1.8–2.8 s with a keyframe every second
 * (phones), but 7.9–11.8 s with one every 8 s. Hence seeks only when frames are far apart.
 */
export async function extractKeyframes(
  path: string,
  outDir: string,
  options: KeyframeOptions,
  signal: AbortSignal,
): Promise<Keyframe[]> {
  const { everySeconds = 1, max = 60 } = options;
  const duration = options.duration ?? (await probeVideo(path, signal)).duration;
  const times = keyframeTimes(duration, everySeconds, max);
  const { ffmpeg } = await mediaTools();
  await mkdir(outDir, { recursive: true });
  // Stale files from an earlier run must not pass for this run's frames.
  await Promise.all(times.map((_, i) => rm(join(outDir, keyframeName(i)), { force: true })));
  const common = ['-nostdin', '-v', 'error', ...INPUT_GUARD];
  const encode = ['-q:v', JPEG_QSCALE, '-y'];
  const slice = duration / times.length;
  if (times.length > 1 && slice <= SEEK_SPACING) {
    // -ss before -i restarts timestamps at the first slice's middle; select then takes the first frame
    // at or after each later middle (`selected_n` counts the frames taken). The fps filter is not used:
    // it keeps the last frame of each interval, half a slice late.
    const every = `${slice.toFixed(6)}*selected_n-0.001`;
    const pick = `select='gte(t,${every})',${SCALE}`;
    const pattern = join(outDir, 'keyframe-%03d.jpg');
    const select = ['-map', '0:V:0', '-vf', pick, '-vsync', 'vfr', '-frames:v', String(times.length)];
    const input = ['-ss', String(times[0]), '-i', fileInput(path)];
    await run(ffmpeg, [...common, ...input, ...select, ...encode, pattern], {
      signal,
      input: path,
      output: outDir,
    });
  } else {
    for (const [i, time] of times.entries()) {
      const input = ['-ss', String(time), '-i', fileInput(path)];
      const select = ['-map', '0:V:0', '-vf', SCALE, '-frames:v', '1'];
      const target = join(outDir, keyframeName(i));
      await run(ffmpeg, [...common, ...input, ...select, ...encode, target], {
        signal,
        input: path,
        output: outDir,
      });
    }
  }
  const frames: Keyframe[] = [];
  for (const [i, time] of times.entries()) {
    const target = join(outDir, keyframeName(i));
    // A pass may end a frame short; a seek may land past the last frame.
    if (await exists(target)) frames.push({ time, path: target });
  }
  if (frames.length === 0) throw new MediaToolError('ffmpeg extracted no frame from the video');
  return frames;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}
