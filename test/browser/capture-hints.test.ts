// Live hints while aiming, from the viewfinder's own frames: a dark camera is told it is too dark, a
// blurred one that it is blurred, a sharp one nothing; each before any photo is taken.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cameraFile, expectAccessible, launchPhone, screenshot } from '../helpers/browser.js';
import { openLink, startCaptureService, step, type CaptureService } from '../helpers/capture-app.js';

const chromium = inject('chromium');

/** Run in the page first: counts the track processors made, or takes the browser's away. */
const FRAMES = {
  track: `(() => {
    const Processor = window.MediaStreamTrackProcessor;
    window.__processors = 0;
    window.MediaStreamTrackProcessor = function (init) {
      window.__processors++;
      return new Processor(init);
    };
  })()`,
  canvas: 'delete window.MediaStreamTrackProcessor',
};

describe.skipIf(!chromium)('capture app: live hints', () => {
  let service: CaptureService;
  let dir: string;
  let token: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-hints-'));
    service = await startCaptureService();
    // A close-up step: a whole-vehicle one would first ask an upright phone to turn (no hint under that).
    token = await service.token(await service.persona('photo', { steps: [step('vin')] }));
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The live hint a phone with the camera playing `kind` shows within `wait` ms (null: none). The hints
   * read the camera's frames where the browser hands them out (Chrome's MediaStreamTrackProcessor);
   * `canvas`: a browser that does not (Safari, Firefox), where they draw the video into a canvas.
   */
  async function hintFor(
    kind: 'sharp' | 'blurred' | 'dark',
    wait: number,
    frames: 'track' | 'canvas' = 'track',
    { enforceSecurityPolicy = false } = {},
  ) {
    const phone = await launchPhone({
      chromium: chromium!,
      camera: await cameraFile(dir, kind),
      enforceSecurityPolicy,
    });
    try {
      const { page } = phone;
      await page.addInitScript({ content: FRAMES[frames] });
      await openLink(page, service.base, token);
      await page.tap('button.primary');
      await page.waitForSelector('[data-camera="ready"] button.shutter:not([disabled])');
      const shown = await page.waitForSelector('.live-hint[data-hint]', { timeout: wait }).catch(() => null);
      expect(await page.evaluate('window.__processors'), 'frames read from the track').toBe(
        frames === 'track' ? 1 : undefined,
      );
      // Frames from the track are measured by the hint worker, off the page's thread.
      const measuredByWorker = await page.evaluate<number>(
        "performance.getEntriesByName('walkaround:live-hint-worker', 'measure').length",
      );
      if (frames === 'track') expect(measuredByWorker, 'frames measured by the worker').toBeGreaterThan(0);
      else expect(measuredByWorker).toBe(0);
      if (!shown) return null;
      const hint = { kind: await shown.getAttribute('data-hint'), text: await shown.textContent() };
      // axe-core cannot be injected under the app's policy: the other tests check these screens.
      if (!enforceSecurityPolicy) await expectAccessible(page, `a live hint (${kind})`);
      await screenshot(page, 'capture/en', `step-hint-${kind}`);
      return hint;
    } finally {
      await phone.close();
    }
  }

  it('tells a dark camera it is too dark, under the app’s own content security policy', async () => {
    // The checks run in WebAssembly, which the policy must allow ('wasm-unsafe-eval').
    expect(await hintFor('dark', 5000, 'track', { enforceSecurityPolicy: true })).toEqual({
      kind: 'dark',
      text: 'Too dark: move to better light.',
    });
  }, 60_000);

  it('tells a blurred camera it is blurred where the browser keeps the camera’s frames to itself', async () => {
    expect(await hintFor('blurred', 5000, 'canvas')).toMatchObject({ kind: 'blur' });
  }, 60_000);

  it('tells a blurred camera it is blurred', async () => {
    expect(await hintFor('blurred', 5000)).toEqual({
      kind: 'blur',
      text: 'Blurred: hold still and wait for the picture to sharpen.',
    });
  }, 60_000);

  it('says nothing to a sharp, well-lit camera', async () => {
    expect(await hintFor('sharp', 2500)).toBeNull();
  }, 60_000);
});
