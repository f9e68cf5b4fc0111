// The capture app on a phone, through a real service: the full photo flow from a /superappToken link to
// the signed `inspection.completed`, with a blurred shot asking for a retake and the browser closed half
// way; every screen checked by axe-core and saved as a screenshot, in English and in French.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { templateFor } from '../../src/domain/personas.js';
import { cameraFile, expectAccessible, launchPhone, screenshot } from '../helpers/browser.js';
import {
  openLink,
  screenIs,
  shoot,
  shootEveryStep,
  startCaptureService,
  submitWhenReady,
  usePhoto,
  type CaptureService,
} from '../helpers/capture-app.js';

const chromium = inject('chromium');

describe.skipIf(!chromium)('capture app: photo flow', () => {
  let service: CaptureService;
  let dir: string;
  let sharpCamera: string;
  let blurredCamera: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-capture-'));
    [service, sharpCamera, blurredCamera] = await Promise.all([
      startCaptureService(),
      cameraFile(dir, 'sharp'),
      cameraFile(dir, 'blurred'),
    ]);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  it('takes every step of the template, asks to retake a blurred one, and delivers the result', async () => {
    const persona = await service.persona('photo');
    const token = await service.token(persona);
    const profile = path.join(dir, 'profile');

    // A blurred camera first: the app says why and asks for a retake. Then the browser is closed.
    let phone = await launchPhone({ chromium: chromium!, camera: blurredCamera, userDataDir: profile });
    try {
      await openLink(phone.page, service.base, token);
      await expectAccessible(phone.page, 'welcome');
      await screenshot(phone.page, 'capture/en', 'welcome');
      await phone.page.tap('button.primary');
      await screenIs(phone.page, 'step');
      await phone.page.waitForSelector('[data-camera="ready"]');
      await expectAccessible(phone.page, 'photo step');
      await screenshot(phone.page, 'capture/en', 'step');
      expect(await shoot(phone.page)).toBe('problem');
      expect(await phone.page.textContent('.verdict')).toContain('The photo is blurred');
      await expectAccessible(phone.page, 'preview of a blurred photo');
      await screenshot(phone.page, 'capture/en', 'preview-blurred');
    } finally {
      await phone.close();
    }

    // A sharp camera: the link opens where the customer was; every step is taken and sent.
    phone = await launchPhone({ chromium: chromium!, camera: sharpCamera, userDataDir: profile });
    try {
      await openLink(phone.page, service.base, token);
      expect(await phone.page.textContent('button.primary')).toBe('Continue where you left off');
      await phone.page.tap('button.primary');
      expect(await shoot(phone.page)).toBe('good');
      await expectAccessible(phone.page, 'preview of a good photo');
      await screenshot(phone.page, 'capture/en', 'preview-good');
      await usePhoto(phone.page);
      await shootEveryStep(phone.page);
      await expectAccessible(phone.page, 'review');
      await screenshot(phone.page, 'capture/en', 'review');
      await submitWhenReady(phone.page);
      await expectAccessible(phone.page, 'thank-you page');
      await screenshot(phone.page, 'capture/en', 'done');

      // Opening the link again says it was sent.
      await phone.page.reload();
      await phone.page.waitForSelector('[data-problem="submitted"]');
    } finally {
      await phone.close();
    }

    const events = await service.receiver.waitFor(4, 60_000);
    const completed = events.find((e) => e.type === 'inspection.completed');
    expect(completed?.verified).toBe(true);
    const media = (completed!.body.data as { media: { sha256: string; original_id: string }[] }).media;
    expect(media.map((m) => m.original_id)).toEqual([
      'front',
      'front_right',
      'right',
      'rear_right',
      'rear',
      'rear_left',
      'left',
      'front_left',
      'odometer',
      'vin',
      'plate',
    ]);
    // Each hash is the hash of the bytes the service stored for it.
    for (const item of media) {
      const row = await service.t.deps.db
        .selectFrom('media')
        .select('storage_key')
        .where('sha256', '=', item.sha256)
        .executeTakeFirstOrThrow();
      const hash = crypto.createHash('sha256');
      for await (const chunk of await service.t.deps.storage.get(row.storage_key))
        hash.update(chunk as Buffer);
      expect(hash.digest('hex')).toBe(item.sha256);
    }
  }, 180_000);

  it('marks on the review a photo kept despite a warning, and opens a photo when it is tapped', async () => {
    const steps = templateFor('photo').steps.slice(0, 2);
    const token = await service.token(await service.persona('photo', { steps }));
    const phone = await launchPhone({ chromium: chromium!, camera: blurredCamera });
    try {
      await openLink(phone.page, service.base, token);
      await phone.page.tap('button.primary');
      for (let taken = 0; taken < steps.length; taken++) {
        expect(await shoot(phone.page)).toBe('problem');
        await usePhoto(phone.page);
      }
      await screenIs(phone.page, 'review');
      const warnings = await phone.page.evaluate(
        `[...document.querySelectorAll('.item')].map((item) => item.querySelector('.item-warning')?.textContent ?? null)`,
      );
      expect(warnings).toEqual(['Kept despite a warning', 'Kept despite a warning']);
      await screenshot(phone.page, 'capture/en', 'review-kept-warning');

      await phone.page.tap(`button.thumb[aria-label="Open the photo: ${steps[1]!.label}"]`);
      const view = await phone.page.waitForSelector('.photo-view[role="dialog"] img');
      await phone.page.waitForFunction(`document.querySelector('.photo-view img').complete`);
      expect(await view.getAttribute('alt')).toBe(steps[1]!.label);
      expect(
        await phone.page.evaluate(`document.querySelector('.photo-view img').naturalWidth`),
      ).toBeGreaterThan(0);
      await expectAccessible(phone.page, 'a kept photo opened from the review');
      await screenshot(phone.page, 'capture/en', 'review-photo-open');
      await phone.page.keyboard.press('Escape');
      await phone.page.waitForSelector('.photo-view', { state: 'detached' });
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('speaks the persona’s language: every screen in French', async () => {
    const persona = await service.persona('photo', { language: 'fr' });
    const token = await service.token(persona);
    const blurred = await launchPhone({ chromium: chromium!, camera: blurredCamera, locale: 'en-GB' });
    try {
      await openLink(blurred.page, service.base, token);
      await blurred.page.tap('button.primary');
      expect(await shoot(blurred.page)).toBe('problem');
      expect(await blurred.page.textContent('.verdict')).toContain('La photo est floue');
      await expectAccessible(blurred.page, 'photo floue');
      await screenshot(blurred.page, 'capture/fr', 'preview-blurred');
    } finally {
      await blurred.close();
    }
    const phone = await launchPhone({ chromium: chromium!, camera: sharpCamera, locale: 'en-GB' });
    try {
      await openLink(phone.page, service.base, token);
      expect(await phone.page.getAttribute('html', 'lang')).toBe('fr');
      expect(await phone.page.textContent('button.primary')).toBe('Commencer');
      await expectAccessible(phone.page, 'accueil');
      await screenshot(phone.page, 'capture/fr', 'welcome');
      await phone.page.tap('button.primary');
      await phone.page.waitForSelector('[data-camera="ready"]');
      await screenshot(phone.page, 'capture/fr', 'step');
      expect(await shoot(phone.page)).toBe('good');
      expect(await phone.page.textContent('.verdict')).toContain('La photo est bonne');
      await screenshot(phone.page, 'capture/fr', 'preview-good');
      await usePhoto(phone.page);
      await shootEveryStep(phone.page);
      await screenshot(phone.page, 'capture/fr', 'review');
      await expectAccessible(phone.page, 'vérifier et envoyer');
      await submitWhenReady(phone.page);
      expect(await phone.page.textContent('h1')).toBe('Merci !');
      await screenshot(phone.page, 'capture/fr', 'done');
    } finally {
      await phone.close();
    }
  }, 180_000);
});
