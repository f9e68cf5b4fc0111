// The capture app against a real service: a listening server with its worker, a client with a webhook
// receiver, personas and link tokens, and the moves a customer makes on a phone.
import { CLI_ACTOR } from '../../src/services/audit.js';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createPersona, updatePersona, type PersonaSettings } from '../../src/services/personas/manage.js';
import { startWorker, type RunningWorker } from '../../src/workers/run.js';
import { startTestApp, type TestApp } from './app.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

export interface CaptureService {
  t: TestApp;
  base: string;
  receiver: Receiver;
  client: { id: string; apiKey: string; webhookSecret: string };
  /** A persona of the client: the photo or video template with `settings` changed. */
  persona(kind: 'photo' | 'video', settings?: PersonaSettings & Record<string, unknown>): Promise<number>;
  /** A link token for the persona. */
  token(personaId: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * `settings`: service settings beyond the test defaults, e.g. EMBED_ORIGINS. `analyse: false`: no worker
 * runs, so a sent inspection waits for its analysis (for tests of the screens only: the analysis of many
 * photos would take the CPU from the browser).
 */
export async function startCaptureService(
  settings: Record<string, string> = {},
  options: { analyse?: boolean } = {},
): Promise<CaptureService> {
  const t = await startTestApp('sqlite', settings);
  let worker: RunningWorker | undefined;
  try {
    if (options.analyse !== false) worker = await startWorker(t.deps);
    const base = await t.listen();
    const secret = { value: '' };
    const receiver = await startReceiver(() => secret.value);
    const client = await t.newClient({ webhookUrl: `http://media.test:${receiver.port}/hooks` });
    secret.value = client.webhookSecret;
    return {
      t,
      base,
      receiver,
      client,
      async persona(kind, settings = {}) {
        const created = await createPersona(t.deps, { clientId: client.id, kind });
        if (Object.keys(settings).length > 0)
          await updatePersona(t.deps, { id: created.id, clientId: client.id }, settings, CLI_ACTOR);
        return created.id;
      },
      async token(personaId) {
        const response = await fetch(`${base}/superappToken`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: client.apiKey, personaId, caseId: `APP-${personaId}` }),
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { token: string }).token;
      },
      async close() {
        await worker?.stop();
        await receiver.close();
        await t.close();
      },
    };
  } catch (error) {
    await worker?.stop();
    await t.close();
    throw error;
  }
}

/** A required photo step named `id` (its overlay too), for personas made in tests. */
export const step = (id: string) => ({
  id,
  label: id,
  instructions: `Photograph the ${id}.`,
  required: true,
  overlay: id,
});

/** The screen the app shows (`data-screen` of its root). */
export const screenIs = (page: Page, name: string, timeout = 20_000) =>
  page.waitForSelector(`[data-screen="${name}"]`, { timeout });

/** Opens the link and waits for the welcome screen. */
export async function openLink(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/app/#${token}`);
  await screenIs(page, 'welcome');
}

/** On a step screen with a working camera: takes the photo and waits for the quality verdict. */
export async function shoot(page: Page): Promise<'good' | 'problem' | 'unchecked'> {
  await page.waitForSelector('[data-camera="ready"] button.shutter:not([disabled])', { timeout: 20_000 });
  await page.tap('button.shutter');
  const verdict = await page.waitForSelector('.preview[data-verdict]:not([data-verdict="checking"])', {
    timeout: 20_000,
  });
  return (await verdict.getAttribute('data-verdict')) as 'good' | 'problem' | 'unchecked';
}

/** On the preview: uses the photo (or keeps it anyway), and waits for the next screen. */
export async function usePhoto(page: Page): Promise<void> {
  const step = await page.getAttribute('[data-step]', 'data-step');
  await page.tap('.preview .actions button:last-child');
  await page.waitForSelector(`[data-step]:not([data-step="${step}"]), [data-screen="review"]`);
}

/** Takes and uses a photo for every step left, ending on the review. */
export async function shootEveryStep(page: Page): Promise<void> {
  while (await page.$('[data-screen="step"]')) {
    await shoot(page);
    await usePhoto(page);
  }
  await screenIs(page, 'review');
}

/** Sends the inspection once every upload is held by the server; waits for the thank-you screen. */
export async function submitWhenReady(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForSelector('.review .actions button.primary:not([disabled])', { timeout });
  await page.tap('.review .actions button.primary');
  await screenIs(page, 'done');
}
