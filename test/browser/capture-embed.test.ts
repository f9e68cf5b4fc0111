// The capture flow inside an integrator's page (docs/embedding.md): the example page of docs/examples,
// served from an origin of its own that the service's EMBED_ORIGINS lists, opens a link through the
// service's embed script and receives every event of a real flow, in order, with Chromium's fake camera;
// a message from anything but the app's frame is not taken for one; a link that does not work says so.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { templateFor } from '../../src/domain/personas.js';
import { cameraFile, expectAccessible, launchPhone, screenshot } from '../helpers/browser.js';
import { startCaptureService, type CaptureService } from '../helpers/capture-app.js';

const chromium = inject('chromium');
const EXAMPLE = path.resolve(import.meta.dirname, '../../docs/examples/embed.html');

/** The integrator's site: the example page at /, nothing else. */
async function startHost(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(fs.readFileSync(EXAMPLE));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // localhost: another origin than the service's 127.0.0.1, and a secure context for the camera.
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const events = (page: Page) => page.evaluate<{ type: string }[]>('window.walkaroundEvents');

/** The capture app's frame in the page, once it has loaded. */
async function appFrame(page: Page): Promise<Frame> {
  const element = await page.waitForSelector('#frame iframe');
  const frame = await element.contentFrame();
  expect(frame).not.toBeNull();
  return frame!;
}

/** On a step in the frame: takes the photo, waits for the verdict, keeps it. */
async function takeStep(frame: Frame): Promise<void> {
  const step = await frame.getAttribute('[data-step]', 'data-step');
  await frame.waitForSelector('[data-camera="ready"] button.shutter:not([disabled])', { timeout: 20_000 });
  await frame.tap('button.shutter');
  // The app gives up a quality check after 15 s, counted from the preview; on a loaded machine the
  // photo takes seconds more to reach it (a full run went past 20 s).
  await frame
    .waitForSelector('.preview[data-verdict]:not([data-verdict="checking"])', { timeout: 40_000 })
    .catch(async (error: Error) => {
      // Where the flow stood: no preview yet (the photo never taken), or one still checking.
      const state = await frame.evaluate<string>(
        `JSON.stringify({ preview: document.querySelector('.preview')?.getAttribute('data-verdict') ?? null, ` +
          `shutter: document.querySelector('button.shutter')?.outerHTML ?? null, ` +
          `screen: document.querySelector('[data-screen]')?.getAttribute('data-screen') ?? null })`,
      );
      throw new Error(`${error.message}\nthe frame: ${state}`, { cause: error });
    });
  await frame.tap('.preview .actions button:last-child');
  await frame.waitForSelector(`[data-step]:not([data-step="${step}"]), [data-screen="review"]`);
}

describe.skipIf(!chromium)('capture app embedded in another site', () => {
  let host: Awaited<ReturnType<typeof startHost>>;
  let service: CaptureService;
  let dir: string;
  let camera: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-embed-'));
    host = await startHost();
    [service, camera] = await Promise.all([
      startCaptureService({ EMBED_ORIGINS: host.origin }),
      cameraFile(dir, 'sharp'),
    ]);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await host?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it('hands the page every event of a flow, in order, and only the frame’s', async () => {
    // Two steps: the second step's shutter works in a cross-origin frame too.
    const steps = templateFor('photo').steps.slice(0, 2);
    const token = await service.token(await service.persona('photo', { steps }));
    const link = `${service.base}/app/#${token}`;
    const phone = await launchPhone({ chromium: chromium!, camera });
    try {
      await phone.page.goto(`${host.origin}/?link=${encodeURIComponent(link)}`);
      const frame = await appFrame(phone.page);
      expect(await frame.evaluate('location.origin')).toBe(new URL(service.base).origin);
      expect(await phone.page.getAttribute('#frame iframe', 'allow')).toContain('camera');
      await frame.waitForSelector('[data-screen="welcome"]');
      await expectAccessible(phone.page, 'embedding page');
      await screenshot(phone.page, 'capture/embed', 'welcome');

      // Another window of the page posting a look-alike is not taken for the app.
      await phone.page.evaluate(
        `window.postMessage({ source: 'walkaround', version: 1, event: { type: 'submitted' } }, '*')`,
      );

      await frame.tap('button.primary');
      await screenshot(phone.page, 'capture/embed', 'step');
      await takeStep(frame);
      await takeStep(frame);
      await frame.waitForSelector('[data-screen="review"]');
      await frame.waitForSelector('.review .actions button.primary:not([disabled])', { timeout: 60_000 });
      await frame.tap('.review .actions button.primary');
      await frame.waitForSelector('[data-screen="done"]');
      await phone.page.waitForFunction('window.walkaroundEvents.some((e) => e.type === "submitted")');
      await screenshot(phone.page, 'capture/embed', 'done');

      const seen = await events(phone.page);
      expect(seen[0]).toEqual({ type: 'started', kind: 'photo', steps: 2 });
      expect(seen.at(-1)).toEqual({ type: 'submitted' });
      expect(seen.filter((e) => e.type === 'submitted')).toHaveLength(1);
      const at = (event: object) => seen.findIndex((e) => JSON.stringify(e) === JSON.stringify(event));
      // Each step is taken, then uploaded, before the inspection is sent.
      const [first, second] = steps.map((step, index) => at({ type: 'step_taken', step: step.id, index }));
      expect(first).toBe(1);
      expect(second).toBeGreaterThan(first!);
      for (const [index, step] of steps.entries())
        expect(at({ type: 'uploaded', step: step.id })).toBeGreaterThan([first, second][index]!);
      expect(seen).toHaveLength(6);
    } finally {
      await phone.close();
    }
  }, 180_000);

  it('says when the link does not work', async () => {
    const phone = await launchPhone({ chromium: chromium!, camera });
    try {
      const link = `${service.base}/app/#${'x'.repeat(43)}`;
      await phone.page.goto(`${host.origin}/?link=${encodeURIComponent(link)}`);
      await phone.page.waitForFunction('window.walkaroundEvents.length > 0');
      expect(await events(phone.page)).toEqual([{ type: 'error', code: 'link_unknown' }]);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
