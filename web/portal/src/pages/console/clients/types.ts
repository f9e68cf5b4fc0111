// The console's clients and webhooks, as the portal API answers them: the types of its OpenAPI document
// (docs/examples/api.d.ts).
import { EVENT_TYPES } from '../../../../../../src/domain/webhooks.js';
import type { Answer } from '../../../api.js';

export { EVENT_TYPES };

export type Client = Answer<'/portal/api/clients/{id}'>;
export type ClientDelivery = Answer<'/portal/api/clients/{id}/deliveries'>['deliveries'][number];

/** Offered first: a day to switch over, as the command line's default. */
export const DEFAULT_GRACE = 24 * 3600;

/** When the old keys or secret stop after a rotation, as offered in the console. */
export const GRACE_CHOICES = [
  [0, 'at once'],
  [3600, 'in 1 hour'],
  [24 * 3600, 'in 24 hours'],
  [7 * 24 * 3600, 'in 7 days'],
] as const;
