// Browser tests in Debian's Chromium driven by playwright-core: a phone (viewport, touch, a fake rear
// camera playing a file), accessibility checks with axe-core, and screenshots saved for people to look
// at (test-output/screenshots/, not committed).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import sharp from 'sharp';
import { expect } from 'vitest';
import { PHOTOS } from './media.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** The flags Chromium needs here: headless as root, and no calls home on this closed network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-output/screenshots');

export interface Phone {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface PhoneOptions {
  chromium: string;
  /** The file the fake rear camera plays (Y4M or MJPEG); none: the camera is refused. */
  camera?: string | undefined;
  /** Kept between launches, so IndexedDB survives a browser that was closed or killed. */
  userDataDir?: string;
  /** The browser's language (navigator.languages). */
  locale?: string;
  /** Landscape instead of portrait. */
  landscape?: boolean;
  /** Narrowest phones: 320 px wide. */
  narrow?: boolean;
  /**
   * Keep the app's content security policy in force, as a real phone does. By default the tests bypass
   * it, since axe-core is injected as a script; so no accessibility check runs under it.
   */
  enforceSecurityPolicy?: boolean;
}

/** A mid-range phone: 390 × 844 CSS pixels, touch, the rear camera a fake device playing `camera`. */
export async function launchPhone(options: PhoneOptions): Promise<Phone> {
  const cameraFlags = options.camera
    ? [
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${options.camera}`,
      ]
    : ['--deny-permission-prompts'];
  const width = options.narrow ? 320 : 390;
  const height = options.narrow ? 640 : 844;
  const viewport = options.landscape ? { width: height, height: width } : { width, height };
  return launch(options.chromium, options.userDataDir, {
    args: [...FLAGS, ...cameraFlags],
    viewport,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: options.locale ?? 'en-GB',
    bypassCSP: !options.enforceSecurityPolicy,
  });
}

/** A desktop browser (1366 × 900), as a claims handler at a desk uses the portal. */
export async function launchDesktop(options: { chromium: string }): Promise<Phone> {
  return launch(options.chromium, undefined, {
    args: FLAGS,
    viewport: { width: 1366, height: 900 },
    locale: 'en-GB',
    acceptDownloads: true,
  });
}

/**
 * Debian's Chromium in a persistent context: in `userDataDir` when given (kept after close), else in a
 * fresh folder removed at close.
 */
async function launch(
  executablePath: string,
  userDataDir: string | undefined,
  contextOptions: Parameters<typeof chromium.launchPersistentContext>[1],
): Promise<Phone> {
  const dir = userDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-browser-'));
  const context = await chromium.launchPersistentContext(dir, {
    // axe-core is injected as a script, which the app's content security policy would refuse.
    bypassCSP: true,
    ...contextOptions,
    executablePath,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      if (!userDataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Lets the test say what `navigator.onLine` answers, from the page's first script on. The browser's own
 * answer depends on the machine: Chromium says false, and fires no event, where the only interface is
 * loopback. Install before the page loads; `setNetwork` then moves it.
 */
export async function controlOnlineHint(page: Page): Promise<void> {
  await page.addInitScript({
    content: `(() => {
      let online = true;
      Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => online });
      window.__setOnline = (value) => {
        if (value === online) return;
        online = value;
        dispatchEvent(new Event(value ? 'online' : 'offline'));
      };
    })()`,
  });
}

const networkSessions = new WeakMap<Page, CDPSession>();

/**
 * The phone loses (or finds) its signal: requests fail (through CDP) and the browser says so
 * (`navigator.onLine` and its event, as installed by `controlOnlineHint`).
 */
export async function setNetwork(page: Page, online: boolean): Promise<void> {
  let cdp = networkSessions.get(page);
  if (!cdp) {
    // One session per page: the conditions a session set are its own, and go with it.
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    networkSessions.set(page, cdp);
  }
  await cdp.send('Network.emulateNetworkConditions', {
    offline: !online,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.evaluate(`window.__setOnline(${online})`);
}

/** Runs axe-core on the page: no serious or critical violation may remain. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations, `accessibility of ${screen}`).toEqual([]);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Saves a screenshot as test-output/screenshots/<app>/<name>.png and returns its path. */
export async function screenshot(
  page: Page,
  app: string,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  const file = path.join(SCREENSHOTS, app, `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, ...options });
  return file;
}

/**
 * A Y4M file for the fake camera, made from a real photo with the bundled ffmpeg: `sharp` is the photo
 * scaled to 1280 × 960 (its quality passes), `blurred` the same photo out of focus (it fails for blur),
 * `dark` the same photo at a tenth of its light (it fails for exposure).
 */
export async function cameraFile(dir: string, kind: 'sharp' | 'blurred' | 'dark'): Promise<string> {
  const still = path.join(dir, `${kind}.png`);
  let image = sharp(path.join(PHOTOS, 'scenetext01.jpg')).resize(1280, 960, { kernel: 'lanczos3' });
  if (kind === 'blurred') image = image.blur(6);
  if (kind === 'dark') image = image.linear(0.1, 0);
  await image.png().toFile(still);
  const file = path.join(dir, `${kind}.y4m`);
  await run(
    ffmpeg.path,
    ['-y', '-loglevel', 'error', '-loop', '1', '-i', still, '-frames:v', '3', '-r', '10'].concat([
      '-pix_fmt',
      'yuv420p',
      file,
    ]),
  );
  return file;
}

/** A moving, noisy Y4M for recording videos: noise does not compress, so seconds make megabytes. */
export async function movingCameraFile(dir: string): Promise<string> {
  const file = path.join(dir, 'moving.y4m');
  await run(ffmpeg.path, [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x480:rate=15,noise=alls=40:allf=t',
    '-frames:v',
    '30',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}
