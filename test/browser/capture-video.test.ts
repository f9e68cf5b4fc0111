// The video flow of the capture app on a phone with a fake camera: stopping before the minimum keeps
// recording and says why; the recording stops by itself at the maximum; the video is sent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessible, launchPhone, movingCameraFile, screenshot } from '../helpers/browser.js';
import {
  openLink,
  screenIs,
  startCaptureService,
  submitWhenReady,
  type CaptureService,
} from '../helpers/capture-app.js';

const chromium = inject('chromium');

describe.skipIf(!chromium)('capture app: video flow', () => {
  let service: CaptureService;
  let dir: string;
  let camera: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-video-'));
    [service, camera] = await Promise.all([startCaptureService(), movingCameraFile(dir)]);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  /** What the screens say, in each language the test runs in. */
  const WORDS = {
    en: {
      bounds: '3 to 6 seconds',
      tooShort: 'at least 3 seconds',
      stopped: 'stopped at the maximum length',
    },
    fr: {
      bounds: 'de 3 à 6 secondes',
      tooShort: 'au moins 3 secondes',
      stopped: 's’est arrêté à la durée maximale',
    },
  };

  it.each(['en', 'fr'] as const)(
    'warns when stopped too early, stops at the maximum, and sends the video (%s)',
    async (language) => {
      const words = WORDS[language];
      const persona = await service.persona('video', { videoMinSeconds: 3, videoMaxSeconds: 6, language });
      const token = await service.token(persona);
      const phone = await launchPhone({ chromium: chromium!, camera });
      try {
        const { page } = phone;
        await openLink(page, service.base, token);
        expect(await page.textContent('.lead')).toContain(words.bounds);
        await page.tap('button.primary');
        await page.waitForSelector('[data-camera="ready"] button.shutter:not([disabled])');
        await expectAccessible(page, 'video step');
        await screenshot(page, `capture/${language}`, 'video-step');

        await page.tap('button.shutter');
        await page.waitForSelector('.timer');
        await page.tap('button.shutter'); // at about 0 s: too early
        expect(await page.textContent('[role="alert"]')).toContain(words.tooShort);
        await screenshot(page, `capture/${language}`, 'video-too-short');
        expect(await page.getAttribute('button.shutter', 'aria-pressed')).toBe('true'); // still recording

        // Nobody taps again: the recording stops by itself at 6 s.
        await page.waitForSelector('.preview video', { timeout: 20_000 });
        expect(await page.textContent('.preview')).toContain(words.stopped);
        await expectAccessible(page, 'video preview');
        await screenshot(page, `capture/${language}`, 'video-preview');
        await page.tap('.preview .actions button.primary');
        await screenIs(page, 'review');
        await submitWhenReady(page);
      } finally {
        await phone.close();
      }

      const inspection = await service.t.deps.db
        .selectFrom('media')
        .innerJoin('inspections', 'inspections.id', 'media.inspection_id')
        .select(['media.kind', 'media.bytes', 'media.mime'])
        .where('inspections.case_id', '=', `APP-${persona}`)
        .execute();
      expect(inspection).toHaveLength(1);
      expect(inspection[0]).toMatchObject({ kind: 'video' });
      expect(inspection[0]!.bytes).toBeGreaterThan(1024 * 1024);
    },
    120_000,
  );
});
