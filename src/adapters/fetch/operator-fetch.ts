// Requests to endpoints the operator configured (the KServe model server, the SMS provider): trusted, so
// a model server on `http://triton:8000` or `http://127.0.0.1:8000` is reached whatever
// ALLOW_PRIVATE_NETWORKS says, and that setting keeps guarding only what tenants supply.
//
// Kept apart from the tenant fetch on purpose: an OperatorFetch is an object, not a function, so it can
// never be passed where a SafeFetch is expected (media URLs, webhooks), and it lives among the adapters,
// which services and routes may not import (docs/architecture.md). Only deps.ts and the analysis thread
// build one, from the configuration.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { OutboundSettings } from '../../config.js';
import type { SafeFetchInit, SafeResponse } from '../../ports/outbound-fetch.js';
import { createGuardedFetch, type AddressGuard } from './safe-fetch.js';

export interface OperatorFetch {
  /** Same answers and OutboundErrors as the tenant fetch; no address is refused. */
  request(url: string, init?: SafeFetchInit): Promise<SafeResponse>;
  close(): Promise<void>;
}

/** Every address allowed, real DNS: the operator's own network is where these endpoints live. */
export const operatorGuard: AddressGuard = {
  isAllowed: () => true,
  resolve: (hostname) => dnsLookup(hostname, { all: true }),
};

/** The timeouts and redirect cap of the configuration; the URL rules (http(s), no credentials) stay. */
export function createOperatorFetch(
  settings: Pick<OutboundSettings, 'connectTimeoutMs' | 'timeoutMs' | 'maxRedirects'>,
): OperatorFetch {
  const fetch = createGuardedFetch(settings, operatorGuard);
  return { request: (url, init) => fetch(url, init), close: () => fetch.close() };
}
