// The network's currency (the server's ADOPS_CURRENCY), as each API answer names it
// (X-Adops-Currency): every amount the terminal shows is in it, with its symbol. Until an answer
// says, USD (the server's own default).
let network = 'USD';

export function networkCurrency(): string {
  return network;
}

export function setNetworkCurrency(code: string): void {
  if (/^[A-Za-z]{3}$/.test(code)) network = code.toUpperCase();
}
