// The network's currency (the server's ADOPS_CURRENCY): every amount the screens show is in it,
// with its symbol. Learnt with the time zone at start-up from /api/health; until then, or when
// the server cannot say, USD (the server's own default).
let network = 'USD';

export function networkCurrency(): string {
  return network;
}

export function setNetworkCurrency(code: string): void {
  if (/^[A-Za-z]{3}$/.test(code)) network = code.toUpperCase();
}
