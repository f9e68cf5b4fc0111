// Deliveries to a local listener the operator registered (`walkaround webhooks listen`, ADR 12): loopback
// addresses only, whatever ALLOW_PRIVATE_NETWORKS says, and no other address at all, public or private, so
// this way out reaches nothing but a program on the worker's own machine. Which messages may take it is
// the delivery's decision (services/webhooks/deliver.ts), from the listener registrations.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { OutboundSettings } from '../../config.js';
import type { ListenerFetch } from '../../ports/outbound-fetch.js';
import { createGuardedFetch, type AddressGuard } from './safe-fetch.js';

/** 127.0.0.0/8 and ::1, and an IPv4-mapped IPv6 form of the former; nothing else. */
export function isLoopbackAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  return ipaddr.process(ip).range() === 'loopback';
}

export const loopbackGuard: AddressGuard = {
  isAllowed: isLoopbackAddress,
  resolve: (hostname) => dnsLookup(hostname, { all: true }),
};

/** The timeouts of the configuration; the URL rules (http(s), no credentials) stay. */
export function createListenerFetch(
  settings: Pick<OutboundSettings, 'connectTimeoutMs' | 'timeoutMs' | 'maxRedirects'>,
): ListenerFetch & { close(): Promise<void> } {
  const fetch = createGuardedFetch(settings, loopbackGuard);
  return { request: (url, init) => fetch(url, init), close: () => fetch.close() };
}
