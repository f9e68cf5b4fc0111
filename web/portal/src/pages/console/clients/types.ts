// The console's clients and webhooks, as the portal API answers them (src/http/routes/portal-clients.ts
// and portal-webhooks.ts).
import { EVENT_TYPES } from '../../../../../../src/domain/webhooks.js';

export { EVENT_TYPES };

export interface ClientKey {
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface Client {
  id: string;
  name: string;
  webhook_url: string | null;
  webhook_events: string[] | null;
  quota_per_hour: number;
  service_window: string | null;
  timezone: string;
  link_ttl_seconds: number;
  created_at: string;
  updated_at: string;
  keys: ClientKey[];
  webhook_secret: {
    prefix: string;
    previous_prefix: string | null;
    previous_signs_until: string | null;
  };
  may_change_limits: boolean;
}

export interface ClientSummary {
  id: string;
  name: string;
  webhook_url?: string | null;
  live_keys?: number;
  created_at?: string;
}

export interface CreatedClient {
  client: Client;
  api_key: string;
  webhook_secret: string;
}

export interface TestEventAnswer {
  webhook_id: string;
  url: string;
  sent_at: string;
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  outcome: 'delivered' | 'failed' | 'refused';
  signatures: number;
}

export interface ClientDelivery {
  id: string;
  event_type: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: {
    attempt: number;
    at: string;
    url: string;
    status_code: number | null;
    latency_ms: number;
    response_excerpt: string | null;
    error: string | null;
    outcome: string;
  }[];
  next_attempt_at: string | null;
  created_at: string;
  inspection_id: string | null;
  case_id: string | null;
}

export interface ClientDeliveryPage {
  deliveries: ClientDelivery[];
  next_cursor: string | null;
}

/** Offered first: a day to switch over, as the command line's default. */
export const DEFAULT_GRACE = 24 * 3600;

/** When the old keys or secret stop after a rotation, as offered in the console. */
export const GRACE_CHOICES = [
  [0, 'at once'],
  [3600, 'in 1 hour'],
  [24 * 3600, 'in 24 hours'],
  [7 * 24 * 3600, 'in 7 days'],
] as const;
