// The capture app's other pages and options: a link that is unknown, expired, already sent or out of
// reach gets its own page in the customer's language; the gallery only where the persona allows it,
// with its metadata in the result; the camera refused; a narrow phone and landscape.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
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
  startCaptureService,
  step,
  submitWhenReady,
  usePhoto,
  type CaptureService,
} from '../helpers/capture-app.js';

const chromium = inject('chromium');

describe.skipIf(!chromium)('capture app: link pages and options', () => {
  let service: CaptureService;
  let dir: string;
  let camera: string;
  let oldPhoto: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-links-'));
    oldPhoto = path.join(dir, 'from-gallery.jpg');
    [service, camera] = await Promise.all([startCaptureService(), cameraFile(dir, 'sharp')]);
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#6a7b8c' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="1600" height="1200"><rect x="200" y="300" width="1200" height="500" fill="#223"/></svg>',
          ),
        },
      ])
      .jpeg()
      .toFile(oldPhoto);
    // Taken a week ago, as a photo picked from a gallery would be.
    const weekAgo = new Date(Date.now() - 7 * 24 * 3600_000);
    fs.utimesSync(oldPhoto, weekAgo, weekAgo);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const linkIdOf = async (token: string) => {
    const flow = await fetch(`${service.base}/app/api/flow`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return ((await flow.json()) as { link_id: string }).link_id;
  };

  it.each(['en-GB', 'fr-FR'])(
    'shows its own page for an unknown, expired or sent link (%s)',
    async (locale) => {
      const language = locale.slice(0, 2);
      const persona = await service.persona('photo', { steps: [step('front')], language });
      const expired = await service.token(persona);
      const sent = await service.token(persona);
      await service.t.deps.db
        .updateTable('links')
        .set({ expires_at: Date.now() - 1000 })
        .where('id', '=', await linkIdOf(expired))
        .execute();
      await service.t.deps.db
        .updateTable('links')
        .set({ status: 'submitted', submitted_at: Date.now() })
        .where('id', '=', await linkIdOf(sent))
        .execute();

      const phone = await launchPhone({ chromium: chromium!, camera, locale });
      try {
        const { page } = phone;
        await controlOnlineHint(page);
        // The language's catalogue arrives late: the problem page waits for it rather than flash English.
        if (language !== 'en')
          await page.route(`**/${language}-*.js`, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 700));
            await route.continue();
          });
        const pages: [string, string][] = [
          ['unknown', `${service.base}/app/#${'x'.repeat(43)}`],
          ['expired', `${service.base}/app/#${expired}`],
          ['submitted', `${service.base}/app/#${sent}`],
        ];
        for (const [problem, url] of pages) {
          await page.goto(url);
          await page.waitForSelector(`[data-problem="${problem}"]`);
          expect(await page.getAttribute('html', 'lang')).toBe(language);
          await expectAccessible(page, `${problem} link`);
          await screenshot(page, `capture/${language}`, `link-${problem}`);
        }
        // A link without its token is unknown too, without asking the server.
        await page.goto(`${service.base}/app/`);
        await page.waitForSelector('[data-problem="unknown"]');

        // No connection: the app says so and tries again on request.
        await page.route('**/app/api/flow', (route) => route.abort('internetdisconnected'));
        await page.goto(`${service.base}/app/#${await service.token(persona)}`);
        await page.waitForSelector('[data-problem="network"]');
        await screenshot(page, `capture/${language}`, 'link-network');
        await page.unroute('**/app/api/flow');
        await page.tap('button.primary');
        await screenIs(page, 'welcome');

        // The signal goes: a banner says what happens to the photos.
        await setNetwork(page, false);
        await page.waitForSelector('.offline');
        await expectAccessible(page, 'offline banner');
        await screenshot(page, `capture/${language}`, 'offline');
        await setNetwork(page, true);
      } finally {
        await phone.close();
      }
    },
    120_000,
  );

  it('offers the gallery only where the persona allows it; the pick and the place reach the result', async () => {
    const closed = await service.persona('photo', { steps: [step('front')] });
    let phone = await launchPhone({ chromium: chromium!, camera });
    try {
      await openLink(phone.page, service.base, await service.token(closed));
      await phone.page.tap('button.primary');
      await phone.page.waitForSelector('[data-camera="ready"]');
      expect(await phone.page.$$('[aria-label="Choose from gallery"]')).toHaveLength(0);
    } finally {
      await phone.close();
    }

    const open = await service.persona('photo', {
      steps: [step('front'), step('rear')],
      allowGallery: true,
      askLocation: true,
    });
    const token = await service.token(open);
    phone = await launchPhone({ chromium: chromium!, camera });
    try {
      const { page, context } = phone;
      await context.grantPermissions(['geolocation'], { origin: service.base });
      await context.setGeolocation({ latitude: 48.8566, longitude: 2.3522, accuracy: 12 });
      await openLink(page, service.base, token);
      expect(await page.textContent('.welcome')).toContain('ask for your location');
      await page.tap('button.primary');
      await page.waitForSelector('[data-camera="ready"]');
      await screenshot(page, 'capture/en', 'step-with-gallery');
      await page.setInputFiles('[data-step] input[type="file"]:not([capture])', oldPhoto);
      await page.waitForSelector('.preview[data-verdict]:not([data-verdict="checking"])');
      await usePhoto(page);
      await shoot(page);
      await usePhoto(page);
      await screenIs(page, 'review');
      await submitWhenReady(page);
    } finally {
      await phone.close();
    }

    const events = await service.receiver.waitFor(1, 60_000);
    const completed = await until(() =>
      service.receiver.received.find(
        (e) => e.type === 'inspection.completed' && JSON.stringify(e.body).includes(`APP-${open}`),
      ),
    );
    expect(events.length).toBeGreaterThan(0);
    const media = (completed.body.data as { media: MediaItem[] }).media;
    expect(media[0]!.capture).toMatchObject({ source: 'gallery' });
    expect(media[0]!.flags).toContain('picked_from_gallery');
    expect(media[1]!.capture).toMatchObject({
      source: 'camera',
      location: { latitude: 48.8566, longitude: 2.3522 },
    });
    expect(media[1]!.flags).not.toContain('picked_from_gallery');
  }, 120_000);

  it('falls back to the phone’s own camera when the camera is refused', async () => {
    const persona = await service.persona('photo', { steps: [step('front')] });
    const phone = await launchPhone({ chromium: chromium! }); // no fake camera: permission denied
    try {
      const { page } = phone;
      await openLink(page, service.base, await service.token(persona));
      await page.tap('button.primary');
      await page.waitForSelector('[data-camera="unavailable"]');
      expect(await page.$$('input[type="file"][capture="environment"][accept="image/*"]')).toHaveLength(1);
      // How to allow it again, for this browser (Chromium: Chrome's words).
      expect(await page.getAttribute('.allow-camera p', 'data-browser')).toBe('chrome');
      expect(await page.textContent('.allow-camera')).toContain('Permissions › Camera › Allow');
      await expectAccessible(page, 'camera refused');
      await screenshot(page, 'capture/en', 'step-camera-refused');
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('works on a 320 px phone and in landscape', async () => {
    const persona = await service.persona('photo', { steps: [step('front'), step('rear')] });
    for (const layout of [{ narrow: true }, { landscape: true }]) {
      const name = layout.narrow ? 'narrow' : 'landscape';
      const phone = await launchPhone({ chromium: chromium!, camera, ...layout });
      try {
        const { page } = phone;
        await openLink(page, service.base, await service.token(persona));
        await expectAccessible(page, `welcome, ${name}`);
        await screenshot(page, 'capture/en', `welcome-${name}`);
        await page.tap('button.primary');
        await page.waitForSelector('[data-camera="ready"]');
        // The shutter is on screen without scrolling.
        const box = await page.locator('button.shutter').boundingBox();
        const viewport = page.viewportSize()!;
        expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        await expectAccessible(page, `step, ${name}`);
        await screenshot(page, 'capture/en', `step-${name}`);
        expect(await shoot(page)).toBe('good');
        await screenshot(page, 'capture/en', `preview-${name}`);
      } finally {
        await phone.close();
      }
    }
  }, 120_000);
});

interface MediaItem {
  capture?: Record<string, unknown> | null;
  flags?: string[];
}

async function until<T>(find: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
