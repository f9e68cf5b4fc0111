// Real MP4 files for tests, made with the ffmpeg binary that ships in an npm package.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

const run = promisify(execFile);

/** A test-pattern MP4 of `seconds` seconds; `bitrate` (e.g. '4M') makes it big enough for the upload limits. */
export async function makeMp4(
  dir: string,
  name: string,
  seconds: number,
  bitrate = '4M',
  /** `mpeg4` (quick to encode) or `libx264` (H.264, as phones record, and what browsers play). */
  codec: 'mpeg4' | 'libx264' = 'mpeg4',
): Promise<string> {
  const file = path.join(dir, name);
  await run(ffmpeg.path, [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=duration=${seconds}:size=1280x720:rate=25`,
    '-c:v',
    codec,
    '-b:v',
    bitrate,
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}
