// The capture app in every language it speaks, through a real service: each screen of a short flow
// (welcome, a step, the preview, the review, the thank-you page) in the persona's language, checked by
// axe-core; and Arabic mirrored, right to left, with the step's words and the camera's buttons placed
// from the right. Screenshots of Arabic, Hindi and Japanese in test-output/screenshots/capture/<code>/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { templateFor, type PersonaLanguage } from '../../src/domain/personas.js';
import { CATALOGUES } from '../../web/capture/src/i18n/all.js';
import { direction, LANGUAGES } from '../../web/capture/src/i18n/index.js';
import { cameraFile, expectAccessible, launchPhone, screenshot } from '../helpers/browser.js';
import {
  openLink,
  screenIs,
  shoot,
  startCaptureService,
  submitWhenReady,
  usePhoto,
  type CaptureService,
} from '../helpers/capture-app.js';

const chromium = inject('chromium');
const PICTURED: readonly string[] = ['ar', 'hi', 'ja'];

/** Where an element sits on the page: its left and right edges, in CSS pixels. */
const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  expect(found, selector).not.toBeNull();
  return { left: found!.x, right: found!.x + found!.width, centre: found!.x + found!.width / 2 };
};

describe.skipIf(!chromium)('capture app: languages', () => {
  let service: CaptureService;
  let dir: string;
  let camera: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-languages-'));
    [service, camera] = await Promise.all([
      startCaptureService({}, { analyse: false }),
      cameraFile(dir, 'sharp'),
    ]);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  /** A two-step photo flow in `language`: the template's first two steps, in its words. */
  const twoSteps = async (language: PersonaLanguage) => {
    const steps = templateFor('photo', language).steps.slice(0, 2);
    return service.token(await service.persona('photo', { language, steps }));
  };

  it('shows every screen in each language, with no serious accessibility problem', async () => {
    // The browser says English: the words come from the persona's language, fetched when the link opens.
    const phone = await launchPhone({ chromium: chromium!, camera, locale: 'en-GB' });
    try {
      for (const language of LANGUAGES.filter((l) => l !== 'en')) {
        const words = CATALOGUES[language];
        const shot = (name: string) =>
          PICTURED.includes(language) ? screenshot(phone.page, `capture/${language}`, name) : undefined;
        await openLink(phone.page, service.base, await twoSteps(language));
        expect(await phone.page.getAttribute('html', 'lang')).toBe(language);
        expect(await phone.page.getAttribute('html', 'dir')).toBe(direction(language));
        expect(await phone.page.textContent('button.primary')).toBe(words['welcome.start']);
        await expectAccessible(phone.page, `${language}: welcome`);
        await shot('welcome');

        await phone.page.tap('button.primary');
        await phone.page.waitForSelector('[data-camera="ready"]');
        expect(await phone.page.textContent('h1')).toBe(templateFor('photo', language).steps[0]!.label);
        await expectAccessible(phone.page, `${language}: step`);
        await shot('step');

        expect(await shoot(phone.page)).toBe('good');
        expect(await phone.page.textContent('.verdict')).toContain(words['preview.good']);
        await expectAccessible(phone.page, `${language}: preview`);
        await shot('preview');
        await usePhoto(phone.page);
        await shoot(phone.page);
        await usePhoto(phone.page);

        await screenIs(phone.page, 'review');
        expect(await phone.page.textContent('h1')).toBe(words['review.title']);
        await expectAccessible(phone.page, `${language}: review`);
        await shot('review');
        await submitWhenReady(phone.page);
        expect(await phone.page.textContent('h1')).toBe(words['done.title']);
        await expectAccessible(phone.page, `${language}: done`);
        await shot('done');
      }
    } finally {
      await phone.close();
    }
  }, 600_000);

  it('mirrors Arabic: the page reads right to left, the step’s words and the camera’s buttons from the right', async () => {
    // An Arabic browser: even a link that does not work is answered in Arabic, mirrored.
    const phone = await launchPhone({ chromium: chromium!, camera, locale: 'ar-EG' });
    try {
      const width = phone.page.viewportSize()!.width;
      await phone.page.goto(`${service.base}/app/#not-a-link`);
      await phone.page.waitForSelector('[data-problem="unknown"]');
      await phone.page.waitForFunction("document.documentElement.dir === 'rtl'");
      expect(await phone.page.textContent('h1')).toBe(CATALOGUES.ar['state.unknown.title']);
      await expectAccessible(phone.page, 'ar: link that does not work');
      await screenshot(phone.page, 'capture/ar', 'problem');

      await openLink(phone.page, service.base, await twoSteps('ar'));
      await phone.page.tap('button.primary');
      await phone.page.waitForSelector('[data-camera="ready"]');
      expect(await phone.page.evaluate('getComputedStyle(document.body).direction')).toBe('rtl');
      expect(
        await phone.page.evaluate("getComputedStyle(document.querySelector('.step h1')).direction"),
      ).toBe('rtl');

      // The step's words start at the right: their right edge is near the screen's, the back button
      // (first in reading order) is to the right of the title.
      const title = await box(phone.page, '.step h1');
      const back = await box(phone.page, '.step .back');
      expect(title.right).toBeGreaterThan(width - 90);
      expect(back.left).toBeGreaterThan(title.right - 1);
      // The camera's buttons: the first one in reading order is to the right of the shutter.
      const shutter = await box(phone.page, '.controls .shutter');
      const first = await box(phone.page, '.controls > :first-child');
      expect(first.centre).toBeGreaterThan(shutter.centre);
      expect(Math.abs(shutter.centre - width / 2)).toBeLessThan(40);
    } finally {
      await phone.close();
    }
  }, 120_000);
});
