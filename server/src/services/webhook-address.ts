// Where alert webhooks may go: never this server, a private, shared, link-local or unique-local
// network, a cloud metadata address or a reserved one — unless ADOPS_WEBHOOK_ALLOW names the host
// or its range. Checked when a webhook is saved (after DNS) and on every connection the sender
// opens (its own DNS lookup, so a name cannot resolve one way when saved and another when sent).
import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A host's addresses (the system resolver: /etc/hosts, then DNS); tests give their own. */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Why an address is refused, in words, and its ranges. */
const REFUSED: ReadonlyArray<{ reason: string; ranges: ReadonlyArray<[string, number, 'ipv4' | 'ipv6']> }> = [
  {
    reason: 'una dirección de este mismo servidor (loopback)',
    ranges: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    reason: 'una dirección sin destino (0.0.0.0 o ::), que llega a este mismo servidor',
    ranges: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    reason: 'una dirección de red privada',
    ranges: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
    ],
  },
  {
    reason: 'una dirección de enlace local (entre ellas la de metadatos de la nube, 169.254.169.254)',
    ranges: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  { reason: 'una dirección IPv6 privada (fc00::/7)', ranges: [['fc00::', 7, 'ipv6']] },
  { reason: 'una dirección de red compartida del proveedor (100.64.0.0/10)', ranges: [['100.64.0.0', 10, 'ipv4']] },
  {
    reason: 'una dirección reservada o de multidifusión',
    ranges: [
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      // IPv4-compatible (deprecated), Teredo, documentation, site-local (deprecated), multicast.
      ['::', 96, 'ipv6'],
      ['100::', 64, 'ipv6'],
      ['2001::', 32, 'ipv6'],
      ['2001:db8::', 32, 'ipv6'],
      ['fec0::', 10, 'ipv6'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
];

const REFUSED_LISTS = REFUSED.map(({ reason, ranges }) => {
  const list = new BlockList();
  for (const [network, prefix, type] of ranges) list.addSubnet(network, prefix, type);
  return { reason, list };
});

/** An address without brackets or zone (`[fe80::1%eth0]` → `fe80::1`). */
export const bare = (address: string) => address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/** The IPv4 address an IPv6 one carries to the IPv4 Internet (NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const words = expandIpv6(address);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // 64:ff9b::/96 (NAT64, well-known) and 64:ff9b:1::/48 (local NAT64): the last 32 bits.
  if (words[0] === 0x64 && words[1] === 0xff9b && (words[2] === 1 || words.slice(2, 6).every((w) => w === 0))) return v4(words[6], words[7]);
  // 2002::/16 (6to4): bits 16–47.
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail included), or null. */
function expandIpv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const words = [...left, ...Array(tail === undefined ? 0 : missing).fill('0'), ...right].map((w) => Number.parseInt(w, 16));
  return words.length === 8 ? words : null;
}

/** Why the server must not send to this IP address (words), or null when it may. */
export function refusedAddressReason(address: string): string | null {
  const ip = bare(address);
  const family = isIP(ip);
  if (family === 0) return 'una dirección no válida';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // BlockList also matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 ranges.
  for (const { reason, list } of REFUSED_LISTS) if (list.check(ip, type)) return reason;
  const inner = family === 6 ? embeddedIpv4(ip) : null;
  return inner === null ? null : refusedAddressReason(inner);
}

/** ADOPS_WEBHOOK_ALLOW: the hosts (by name or address) and ranges an operator trusts as webhook destinations. */
export interface WebhookPolicy {
  allowsHost(host: string): boolean;
  allowsAddress(address: string): boolean;
}

/** One ADOPS_WEBHOOK_ALLOW entry's problem, in words, or null when it reads as a host, an address or a CIDR range. */
export function webhookAllowEntryProblem(entry: string): string | null {
  const [network, prefix, extra] = entry.split('/');
  if (prefix !== undefined) {
    const family = isIP(bare(network));
    const max = family === 4 ? 32 : 128;
    if (extra !== undefined || family === 0 || !/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return `"${entry}" is not a CIDR range`;
    return null;
  }
  if (isIP(bare(entry))) return null;
  return /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i.test(entry)
    ? null
    : `"${entry}" is not a host name, an IP address or a CIDR range`;
}

/** 'localhost' or a name under it. */
export const isLocalhost = (host: string) => /(^|\.)localhost$/.test(hostKey(host));

const hostKey = (host: string) => bare(host).toLowerCase().replace(/\.$/, '');

export function webhookPolicy(entries: readonly string[]): WebhookPolicy {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const entry of entries) {
    const [network, prefix] = entry.split('/');
    const ip = bare(network);
    const family = isIP(ip);
    if (prefix !== undefined && family) ranges.addSubnet(ip, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    else if (family) ranges.addAddress(ip, family === 4 ? 'ipv4' : 'ipv6');
    else hosts.add(hostKey(entry));
  }
  return {
    allowsHost: (host) => hosts.has(hostKey(host)),
    allowsAddress: (address) => {
      const ip = bare(address);
      const family = isIP(ip);
      return family !== 0 && ranges.check(ip, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

const ALLOW_HINT = 'Si ese destino es de confianza, quien administra el servidor puede permitirlo en ADOPS_WEBHOOK_ALLOW.';

/** A webhook destination the server refuses; its message is for people. */
export class WebhookAddressError extends Error {
  readonly code = 'WEBHOOK_ADDRESS_REFUSED';
}

/** Why `address` (what `host` resolved to, or the host itself) is refused under `policy`, or null. */
export function refusal(policy: WebhookPolicy, host: string, address: string): string | null {
  if (policy.allowsAddress(address)) return null;
  const reason = refusedAddressReason(address);
  if (reason === null) return null;
  const shown = hostKey(host);
  const what = isIP(shown) ? `${shown} es ${reason}` : `${shown} resuelve a ${bare(address)}, ${reason}`;
  return `El webhook no puede apuntar a ${what}. ${ALLOW_HINT}`;
}

/**
 * Why the server refuses to send to `url` (words), or null. An IP address is judged as written
 * (the URL parser has already read 0x7f000001, 2130706433 or 0177.0.0.1 as 127.0.0.1); a name by
 * every address it resolves to now. A name that does not resolve now is let through: the sender
 * checks again on every connection.
 */
export async function webhookUrlRefusal(url: string, policy: WebhookPolicy, resolve: Resolve, timeoutMs = 3_000): Promise<string | null> {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return 'El webhook debe ser una URL http(s)';
  }
  if (policy.allowsHost(host)) return null;
  if (isIP(bare(host))) return refusal(policy, host, host);
  // 'localhost' and its subdomains are this machine whatever a resolver says (RFC 6761).
  if (isLocalhost(host)) return refusal(policy, host, '127.0.0.1');
  let addresses: ResolvedAddress[];
  try {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    addresses = await Promise.race([resolve(hostKey(host)), late]).finally(() => clearTimeout(timer));
  } catch {
    return null;
  }
  for (const a of addresses) {
    const refused = refusal(policy, host, a.address);
    if (refused) return refused;
  }
  return null;
}
