// The persona editor in Chromium against a real service: a client admin opens the capture flows, moves a
// step, switches the flow to French, uploads a logo and saves, with the live preview following; then a
// test link, opened on a phone, shows the capture app with the logo, in French, in the new order.
// axe-core on every page; screenshots in test-output/screenshots/portal/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { templateFor } from '../../src/domain/personas.js';
import { expectAccessible, launchDesktop, launchPhone, screenshot, type Phone } from '../helpers/browser.js';
import { screenIs, startCaptureService, type CaptureService } from '../helpers/capture-app.js';
import { PASSWORD, portalUser } from '../helpers/portal.js';

const chromium = inject('chromium');
const french = templateFor('photo', 'fr');
/** The preview's shadow root (strings: the page's DOM is not in this file's types). */
const PREVIEW_ROOT = "document.querySelector('.capture-preview .phone')?.shadowRoot";

describe.skipIf(!chromium)('persona editor in a browser', () => {
  let service: CaptureService;
  let desk: Phone;
  let personaId: number;
  let email: string;
  let testLink: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-personas-'));
  const logo = path.join(dir, 'logo.png');

  beforeAll(async () => {
    service = await startCaptureService();
    personaId = await service.persona('photo', { name: 'Claims walk-around' });
    email = await portalUser(service.t.deps, 'client_admin', service.client.id);
    await sharp({ create: { width: 480, height: 120, channels: 4, background: '#00000000' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="480" height="120"><rect x="4" y="4" width="112" height="112" rx="24" fill="#b4232a"/>' +
              '<text x="140" y="82" font-family="sans-serif" font-size="60" font-weight="700" fill="#14171a">ACME</text></svg>',
          ),
        },
      ])
      .png()
      .toFile(logo);
    desk = await launchDesktop({ chromium: chromium! });
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Text in the preview (Playwright's CSS selectors reach into its open shadow root). */
  const previewText = (selector: string) => desk.page.locator(`.capture-preview .phone ${selector}`).first();

  it('lists the capture flows, and opens one with the preview of its first step', async () => {
    const { page } = desk;
    await page.goto(`${service.base}/portal/`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('button[type="submit"]');
    await page.click('nav.sections a:has-text("Capture flows")');
    await page.waitForSelector('table.personas-table');
    expect(await page.textContent('table.personas-table')).toContain('Claims walk-around');
    await expectAccessible(page, 'capture flows');
    await screenshot(page, 'portal', 'personas', { fullPage: true });

    await page.click('table.personas-table a:has-text("Claims walk-around")');
    await page.waitForSelector('.capture-preview .phone[data-preview="front"]');
    await page.waitForFunction(`${PREVIEW_ROOT}?.querySelector('h1')?.textContent === 'Front'`);
    expect(await previewText('.progress-text').textContent()).toBe('Step 1 of 11');
    await expectAccessible(page, 'persona editor');
    await screenshot(page, 'portal', 'persona-editor');
  }, 120_000);

  it('moves a step, switches to French, uploads a logo and saves; the preview follows', async () => {
    const { page } = desk;
    await page.click('button[aria-label="Move “Front” down"]');
    // The preview still shows "Front" after the move; it is drawn after the editor's paint, so its
    // counter, not the step's id, says when it has followed.
    await page.waitForFunction(
      `${PREVIEW_ROOT}?.querySelector('.progress-text')?.textContent === 'Step 2 of 11'`,
    );
    expect(await previewText('h1').textContent()).toBe('Front');
    expect(await page.textContent('ol.steps > li:first-child .step-title')).toBe('Front right');

    await page.selectOption('#p-language', 'fr');
    await page.waitForFunction(`${PREVIEW_ROOT}?.querySelector('h1')?.textContent === 'Avant'`);
    expect(await previewText('.progress-text').textContent()).toBe('Étape 2 sur 11');
    expect(await page.inputValue('#s-1-label')).toBe(french.steps[0]!.label);

    await page.setInputFiles('.logo-field input[type="file"]', logo);
    await page.waitForSelector('.logo-box img');
    await page.waitForSelector('text=Logo uploaded.');
    await page.click('.preview-tabs button:has-text("Welcome screen")');
    await page.waitForSelector('.capture-preview .phone[data-preview="welcome"]');
    await page.waitForFunction(`${PREVIEW_ROOT}?.querySelector('img.logo')?.naturalWidth === 480`);
    expect(await previewText('h1').textContent()).toContain('a besoin de 11 photos');
    await screenshot(page, 'portal', 'persona-editor-welcome');

    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('text=Saved. New links open the flow as it is now.');
    const saved = await service.t.app.inject({
      method: 'GET',
      url: `/api/personas/${personaId}`,
      headers: { 'x-api-key': service.client.apiKey },
    });
    const persona = saved.json<{ language: string; steps: { id: string; label: string }[] }>();
    expect(persona.language).toBe('fr');
    expect(persona.steps.slice(0, 3).map((s) => s.id)).toEqual(['front_right', 'front', 'right']);
    expect(persona.steps[0]!.label).toBe(french.steps[1]!.label);
    await expectAccessible(page, 'persona editor after saving');
    await screenshot(page, 'portal', 'persona-editor-saved', { fullPage: true });
  }, 120_000);

  it('says what must change at its field, in plain words, before saving', async () => {
    const { page } = desk;
    // A new step left without a title: said at that step's title, the step open, before anything is sent.
    await page.click('button:has-text("Add a step")');
    await page.click('button:has-text("Save changes")');
    const title = page.locator('#s-11-label ~ .field-error');
    await title.waitFor();
    expect(await title.locator('p').first().textContent()).toBe(
      'Give this step a title, of at most 100 characters.',
    );
    expect(await page.getAttribute('#s-11-label', 'aria-invalid')).toBe('true');
    // The field is far below the button: it is brought into view, the cursor in it.
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('s-11-label');
    expect(await page.locator('#s-11-label').isVisible()).toBe(true);
    await expectAccessible(page, 'persona editor, a step refused');
    await screenshot(page, 'portal', 'persona-editor-step-refused');
    await page.click('button:has-text("Discard changes")');

    // No name: said at the name.
    await page.fill('#p-name', '');
    await page.click('button:has-text("Save changes")');
    const name = page.locator('#p-name ~ .field-error');
    await name.waitFor();
    expect(await name.locator('p').first().textContent()).toBe('Give the capture flow a name.');
    await page.click('button:has-text("Discard changes")');
  }, 60_000);

  it('makes a test link with a QR code', async () => {
    const { page } = desk;
    await page.click('button:has-text("Send me a test link")');
    await page.waitForSelector('.test-link img.qr');
    testLink = await page.inputValue('#test-link-url');
    expect(testLink).toMatch(/\/app\/#[A-Za-z0-9_-]{43}$/);
    await page.waitForFunction("document.querySelector('.test-link img.qr')?.naturalWidth > 0");
    await page.locator('.test-link').scrollIntoViewIfNeeded();
    await expectAccessible(page, 'persona editor with a test link');
    await screenshot(page, 'portal', 'persona-test-link');
  }, 60_000);

  it('opens the test link on a phone: the logo, French, and the new order', async () => {
    const phone = await launchPhone({ chromium: chromium! });
    try {
      const { page } = phone;
      await page.goto(testLink.replace(/^https?:\/\/[^/]+/, service.base));
      await screenIs(page, 'welcome');
      await page.waitForFunction("document.querySelector('img.logo')?.naturalWidth === 480");
      expect(await page.textContent('h1')).toContain('a besoin de 11 photos');
      expect(await page.getAttribute('html', 'lang')).toBe('fr');
      await screenshot(page, 'portal', 'test-link-phone-welcome');
      await page.tap('.welcome .actions button.primary');
      await page.waitForSelector('[data-step="front_right"]');
      expect(await page.textContent('[data-step] h1')).toBe(french.steps[1]!.label);
      expect(await page.textContent('.progress-text')).toContain('Étape 1 sur 11');
      await screenshot(page, 'portal', 'test-link-phone-step');
    } finally {
      await phone.close();
    }
  }, 60_000);
});
