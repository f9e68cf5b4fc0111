// Integrators copy docs/examples/embed-events.ts: it must say what the app really sends.
import { expect, it } from 'vitest';
import forIntegrators from '../../../docs/examples/embed-events.ts?raw';
import own from './events.ts?raw';

// The opening comments differ: each says which copy it is.
const body = (text: string) => text.replace(/^(\/\/.*\n)+/, '').trim();

it('gives integrators the same event types as the capture app uses', () => {
  expect(body(forIntegrators)).toBe(body(own));
});
