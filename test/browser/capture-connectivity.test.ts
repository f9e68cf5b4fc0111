// `navigator.onLine` is only a hint. Chromium says false on a machine whose only interface is loopback,
// and captive portals and some Android WebViews are wrong both ways: the capture app must send its
// photos whenever the server answers, and its offline notice must never cover or push the shutter.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  cameraFile,
  controlOnlineHint,
  expectAccessible,
  launchPhone,
  screenshot,
  setNetwork,
} from '../helpers/browser.js';
import {
  openLink,
  screenIs,
  shoot,
  shootEveryStep,
  startCaptureService,
  step,
  submitWhenReady,
  type CaptureService,
} from '../helpers/capture-app.js';

const chromium = inject('chromium');

/** Whether the shutter lies wholly inside the viewport and a tap at its centre reaches it. */
async function shutterReachable(page: Page): Promise<boolean> {
  const box = await page.locator('button.shutter').boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  const inside =
    box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
  const hit = await page.evaluate(
    ([x, y]) => {
      const found = (
        globalThis as unknown as {
          document: { elementFromPoint(x: number, y: number): { closest(s: string): unknown } | null };
        }
      ).document.elementFromPoint(x, y);
      return found?.closest('button.shutter') != null;
    },
    [box.x + box.width / 2, box.y + box.height / 2] as const,
  );
  return inside && hit;
}

/** The `inspection.completed` webhook of a case, once it arrived. */
async function completion(service: CaptureService, caseId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const found = service.receiver.received.find(
      (event) => event.type === 'inspection.completed' && event.body.data.case_id === caseId,
    );
    if (found) return found.body;
    if (Date.now() > deadline) throw new Error(`no inspection.completed for ${caseId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!chromium)('capture app: connectivity', () => {
  let service: CaptureService;
  let dir: string;
  let camera: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-connectivity-'));
    [service, camera] = await Promise.all([startCaptureService(), cameraFile(dir, 'sharp')]);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends every photo while the browser wrongly says it is offline', async () => {
    const persona = await service.persona('photo', { steps: [step('front'), step('rear')] });
    const token = await service.token(persona);
    const phone = await launchPhone({ chromium: chromium!, camera, narrow: true });
    try {
      const { page } = phone;
      // The browser's hint says offline from the first line of the page on, and never changes.
      await page.addInitScript({
        content:
          "Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false });",
      });
      await openLink(page, service.base, token);
      expect(await page.evaluate('navigator.onLine')).toBe(false);
      // The server answered the link: the phone is not offline, whatever the browser says.
      expect(await page.$('.offline')).toBeNull();
      await page.tap('button.primary');
      await screenIs(page, 'step');
      await page.waitForSelector('[data-camera="ready"]');
      expect(await shutterReachable(page)).toBe(true);
      await shootEveryStep(page);
      expect(await page.textContent('.review')).not.toContain('Waiting for the network');
      await submitWhenReady(page);
      // The thank-you page: the case's reference, and what happens next.
      expect(await page.textContent('main')).toContain(`Your reference: APP-${persona}`);
      expect(await page.textContent('main')).toContain('What happens next');
      await expectAccessible(page, 'thank-you page with its reference');
      await screenshot(page, 'capture/en', 'done-reference-320');
      const completed = await completion(service, `APP-${persona}`);
      expect(completed.data.media).toHaveLength(2);
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('gives up a quality check that never answers: the photo can be kept, unchecked', async () => {
    const persona = await service.persona('photo', { steps: [step('front')] });
    const token = await service.token(persona);
    const phone = await launchPhone({ chromium: chromium!, camera });
    try {
      const { page } = phone;
      // The server holds the check and never answers (a stalled uplink looks the same to the app).
      await page.route('**/app/api/quality*', () => undefined);
      await openLink(page, service.base, token);
      await page.tap('button.primary');
      expect(await shoot(page)).toBe('unchecked');
      expect(await page.textContent('.verdict')).toContain('could not be checked');
      expect(await page.isEnabled('.preview .actions button:last-child')).toBe(true);
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('shows offline as a pill over the screen, leaving the shutter where it was, on a 320 × 640 phone', async () => {
    const persona = await service.persona('photo', { steps: [step('front')] });
    const token = await service.token(persona);
    const phone = await launchPhone({ chromium: chromium!, camera, narrow: true });
    try {
      const { page } = phone;
      await controlOnlineHint(page);
      await openLink(page, service.base, token);
      await page.tap('button.primary');
      await page.waitForSelector('[data-camera="ready"]');
      const before = await page.locator('button.shutter').boundingBox();

      await setNetwork(page, false);
      await page.waitForSelector('.offline');
      expect(await page.locator('button.shutter').boundingBox()).toEqual(before);
      expect(await shutterReachable(page)).toBe(true);
      // The pill covers none of the step's words.
      const pill = (await page.locator('.offline').boundingBox())!;
      for (const words of ['.progress-text', '.step h1']) {
        const box = (await page.locator(words).boundingBox())!;
        expect(pill.y + pill.height, `the pill's bottom above ${words}`).toBeLessThanOrEqual(box.y);
      }
      await expectAccessible(page, 'offline pill on the photo step');
      await screenshot(page, 'capture/en', 'step-offline-320');

      // A photo taken offline cannot be checked: said so, and not in the green of a good photo.
      expect(await shoot(page)).toBe('unchecked');
      expect(await page.textContent('.verdict')).toContain('could not be checked');
      const look = await page.evaluate<{ classes: string; background: string }>(`(() => {
        const verdict = document.querySelector('.verdict');
        return { classes: verdict.className, background: getComputedStyle(verdict).backgroundColor };
      })()`);
      expect(look.classes).not.toContain('good');
      expect(look.background).not.toBe('rgb(17, 77, 39)');
      await expectAccessible(page, 'an unchecked photo, offline');
      await screenshot(page, 'capture/en', 'preview-unchecked-320');
      await page.tap('.preview .actions button.secondary');
      await page.waitForSelector('[data-camera="ready"]');

      await setNetwork(page, true);
      await page.waitForSelector('.offline', { state: 'detached' });
    } finally {
      await phone.close();
    }
  }, 120_000);
});
