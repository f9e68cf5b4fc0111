// The way out to the network for URLs that tenants supply (media URLs, callback and webhook URLs): every
// such request is an SSRF risk, so only http(s), no credentials in URLs, and no private, loopback or
// link-local target unless the operator allows it. Addresses are checked when the socket connects (the
// resolved addresses are the ones dialled), so DNS rebinding between a check and the connect cannot slip
// past. Endpoints the operator configured go through ./operator-fetch.ts instead.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, type Dispatcher } from 'undici';
import type { OutboundSettings } from '../../config.js';
import {
  OutboundError,
  type OutboundReason,
  type SafeFetch,
  type SafeFetchInit,
  type SafeResponse,
} from '../../ports/outbound-fetch.js';

/** Where requests may go: the policy on every resolved address, and the resolver producing them. */
export interface AddressGuard {
  isAllowed(address: string): boolean;
  resolve(hostname: string): Promise<LookupAddress[]>;
}

/**
 * True for anything but a globally routable unicast address. An IPv6 address that carries an IPv4 one
 * (mapped, compatible, NAT64, 6to4, Teredo) is judged by that IPv4 address: it is where the packets end
 * up, so `::ffff:127.0.0.1`, `::a9fe:a9fe` or `2002:7f00:1::` are as private as 127.0.0.1 or 169.254.169.254,
 * while `64:ff9b::808:808` (8.8.8.8 through a NAT64 gateway) stays public.
 */
export function isPrivateAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true; // not an address we understand: refuse rather than guess
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.range() !== 'unicast';
  const v6 = address as ipaddr.IPv6;
  // The local-use NAT64 prefix (64:ff9b:1::/48) is a translator of the operator's own network, and where
  // it puts the IPv4 address depends on that network's prefix length: never a public destination.
  if (v6.match(LOCAL_NAT64)) return true;
  const embedded = embeddedIPv4(v6);
  if (embedded) return embedded.some((v4) => v4.range() !== 'unicast');
  return v6.range() !== 'unicast';
}

const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');
/** Prefixes whose last 32 bits are the IPv4 address: compatible (::/96), mapped, RFC 6145, NAT64. */
const LAST_32_BITS = ['::/96', '::ffff:0:0/96', '::ffff:0:0:0/96', '64:ff9b::/96'].map((cidr) =>
  ipaddr.parseCIDR(cidr),
);
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

/**
 * The IPv4 addresses an IPv6 address carries, or undefined when it carries none. ipaddr.js names these
 * ranges but leaves their IPv4 inside (and judges `::a9fe:a9fe` plain unicast), hence this table.
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = v6.toByteArray();
  const v4 = (at: number, mask = 0) => new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => byte ^ mask));
  if (LAST_32_BITS.some((cidr) => v6.match(cidr))) return [v4(12)];
  if (v6.match(SIX_TO_FOUR)) return [v4(2)]; // 2002:AABB:CCDD::/48
  // Teredo: the server's IPv4 in bits 32-63, the client's in the last 32 bits, inverted (RFC 4380).
  if (v6.match(TEREDO)) return [v4(4), v4(12, 0xff)];
  return undefined;
}

/** The production guard: real DNS, and private addresses refused unless the operator allows them. */
export function settingsGuard(settings: Pick<OutboundSettings, 'allowPrivateNetworks'>): AddressGuard {
  return {
    isAllowed: (address) => settings.allowPrivateNetworks || !isPrivateAddress(address),
    resolve: (hostname) => dnsLookup(hostname, { all: true }),
  };
}

/**
 * Checks one hop before it is dialled: scheme, credentials, and IP-literal hosts (net.connect skips
 * `lookup` for those, so the connect-time check never sees them). WHATWG URL has already normalised
 * odd forms such as `2130706433` or `0x7f.1` to `127.0.0.1`.
 */
export function checkTarget(input: string, isAllowed: (address: string) => boolean): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError('scheme', input, 'Not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundError(
      'scheme',
      redact(url),
      `Scheme ${url.protocol} is not allowed (http or https only)`,
    );
  if (url.username || url.password)
    throw new OutboundError('scheme', redact(url), 'URLs with credentials are not allowed');
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(literal) && !isAllowed(literal))
    throw new OutboundError('private_address', redact(url), notPublic(url.hostname));
  return url;
}

/** Production entry point: the guard follows `settings.allowPrivateNetworks` and real DNS. */
export function createSafeFetch(settings: OutboundSettings): SafeFetch & { close(): Promise<void> } {
  return createGuardedFetch(settings, settingsGuard(settings));
}

/**
 * The fetch core with its guard passed in. Production code calls `createSafeFetch`; this exists so
 * tests can make one loopback address play the public internet (every test server is on loopback)
 * and prove that redirects are re-checked, while the policy code itself stays the production one.
 */
export function createGuardedFetch(
  settings: Pick<OutboundSettings, 'connectTimeoutMs' | 'timeoutMs' | 'maxRedirects'>,
  guard: AddressGuard,
): SafeFetch & { close(): Promise<void> } {
  const agent = new Agent({
    connect: { timeout: settings.connectTimeoutMs, lookup: guardedLookup(guard) },
    // Bounds sockets per origin so one slow host cannot take every file descriptor; more requests queue.
    connections: 16,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
  });

  const safeFetch = async (input: string, init: SafeFetchInit = {}): Promise<SafeResponse> => {
    const timeoutMs = init.timeoutMs ?? settings.timeoutMs;
    const hop = { url: checkTarget(input, (a) => guard.isAllowed(a)) };
    const deadline = new AbortController();
    const timer = setTimeout(() => {
      const message = `No complete response from ${hop.url.host} within ${timeoutMs} ms`;
      deadline.abort(new OutboundError('timeout', redact(hop.url), message));
    }, timeoutMs);
    timer.unref(); // only guards sockets, which keep the process alive on their own
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      const response = await follow(agent, guard, settings.maxRedirects, hop, init, signal);
      response.body.once('close', () => clearTimeout(timer));
      return response;
    } catch (error) {
      clearTimeout(timer);
      if (signal.aborted && error === signal.reason) throw error; // our timeout, or the caller's own abort
      throw toOutboundError(error, hop.url);
    }
  };
  const admit = (url: string) => admitTarget(guard, url, settings.connectTimeoutMs);
  return Object.assign(safeFetch, { admit, close: () => agent.close() });
}

/**
 * The production guard's judgement of a URL without a fetch to go with it (nothing to close): for the
 * operator CLI, which checks a client's webhook URL but never calls it.
 */
export function createUrlAdmission(
  settings: Pick<OutboundSettings, 'allowPrivateNetworks' | 'connectTimeoutMs'>,
): Pick<SafeFetch, 'admit'> {
  const guard = settingsGuard(settings);
  return { admit: (url) => admitTarget(guard, url, settings.connectTimeoutMs) };
}

/** SafeFetch.admit: the per-hop check, then every address the host resolves to, as the connect does. */
async function admitTarget(guard: AddressGuard, input: string, resolveMs: number): Promise<void> {
  const url = checkTarget(input, (a) => guard.isAllowed(a));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) return; // checkTarget judged the literal
  const addresses = await resolveWithin(guard, host, resolveMs);
  if (addresses?.some((a) => !guard.isAllowed(a.address)))
    throw new OutboundError('private_address', redact(url), notPublic(host));
}

/**
 * A refusal names the host as it was given, never an address it resolved to: the words reach tenants
 * (an answer, a delivery log, a test event), who must not learn the service's network from them.
 */
const notPublic = (hostname: string) => `Refused ${hostname}: not a public address`;

/**
 * The host's addresses, or undefined when it does not resolve within `ms`: admission then lets the URL
 * through (a name may not exist yet, and DNS may be slow), since the connect judges it again anyway.
 */
async function resolveWithin(
  guard: AddressGuard,
  hostname: string,
  ms: number,
): Promise<LookupAddress[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  try {
    return await Promise.race([guard.resolve(hostname).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language']);

/** Sends the request and follows redirects by hand, checking each new target like the first. */
async function follow(
  agent: Agent,
  guard: AddressGuard,
  maxRedirects: number,
  hop: { url: URL },
  init: SafeFetchInit,
  signal: AbortSignal,
): Promise<SafeResponse> {
  let method: Dispatcher.HttpMethod = init.method ?? 'GET';
  let headers = init.headers ?? {};
  let body = init.body;
  for (let redirects = 0; ; redirects++) {
    const { url } = hop;
    // The total timeout (our own signal) covers headers and body, so undici's own timers are off.
    const res = await agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method,
      headers,
      body,
      signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    const location = res.headers.location;
    if (init.redirect === 'manual' || !REDIRECTS.has(res.statusCode) || typeof location !== 'string')
      return { status: res.statusCode, url: url.href, headers: res.headers, body: res.body };
    await res.body.dump(); // frees the connection for reuse
    if (redirects >= maxRedirects)
      throw new OutboundError('too_many_redirects', url.href, `More than ${maxRedirects} redirects`);
    const next = checkTarget(resolveLocation(location, url), (a) => guard.isAllowed(a));
    // Credentials were meant for the origin that asked for them, never for where it points us.
    if (next.origin !== url.origin) headers = without(headers, CREDENTIAL_HEADERS);
    // As browsers do: 303 always, and 301/302 after a POST, continue as a GET without the body.
    if (res.statusCode === 303 || (method === 'POST' && res.statusCode !== 307 && res.statusCode !== 308)) {
      method = 'GET';
      body = undefined;
      headers = without(headers, BODY_HEADERS);
    }
    hop.url = next;
  }
}

function resolveLocation(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new OutboundError('http', base.href, `Redirect to an invalid Location: ${location}`);
  }
}

/**
 * The connect-time check: resolves every address of the host and refuses the connection when any of
 * them is not allowed (a host answering with one public and one private address is still a way in).
 * Serves both callback shapes net.connect uses (`all` with autoSelectFamily, a single address without).
 */
function guardedLookup(guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    const found = (addresses: LookupAddress[]) => {
      if (addresses.some((a) => !guard.isAllowed(a.address)))
        return callback(new OutboundError('private_address', '', notPublic(hostname)), '', 0);
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family ? addresses.filter((a) => a.family === family) : addresses;
      const [first] = usable;
      if (!first)
        return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) callback(null, usable);
      else callback(null, first.address, first.family);
    };
    guard.resolve(hostname).then(found, (error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT', // a connect timeout is reported as a failed connect, not as 'timeout'
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Names what failed; anything that is neither DNS nor the connect is an HTTP exchange gone wrong. */
function toOutboundError(error: unknown, url: URL): OutboundError {
  if (error instanceof OutboundError)
    return error.url ? error : new OutboundError(error.reason, redact(url), error.message, { cause: error });
  // With several addresses (autoSelectFamily) node reports an AggregateError; the first cause speaks.
  const inner = error instanceof AggregateError ? (error.errors[0] as unknown) : error;
  const code = (inner as NodeJS.ErrnoException | undefined)?.code ?? '';
  const detail = inner instanceof Error ? inner.message : String(inner);
  const reason: OutboundReason = DNS_CODES.has(code)
    ? 'dns'
    : CONNECT_CODES.has(code) || code.startsWith('ERR_TLS') || code.includes('CERT')
      ? 'connect'
      : 'http';
  return new OutboundError(reason, redact(url), `${url.host}: ${detail}`, { cause: error });
}

function without(headers: Record<string, string>, names: Set<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));
}

function redact(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
