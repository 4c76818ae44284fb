/**
 * `SP2J6Z…9EJ7`: the start and the end of an address, which is what people compare; the one short form every
 * screen, alert and notification uses for an address, so that the same account reads the same everywhere. Cut in
 * text rather than by CSS so that a narrow row never wraps one character onto a line of its own. A contract keeps
 * its name whole (that is what it is known by).
 */
export function middleEllipsis(principal: string): string {
  const [address = '', contract] = principal.split('.');
  const short = address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
  return contract ? `${short}.${contract}` : short;
}
