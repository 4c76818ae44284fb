/**
 * `SP2J6Z…V9EJ7`: the start and the end of an address, which is what people compare. Cut in text rather than by
 * CSS so that a narrow row never wraps one character onto a line of its own. A contract keeps its name whole
 * (that is what it is known by), after a shorter address.
 */
export function middleEllipsis(principal: string, keep = 6): string {
  const [address = '', contract] = principal.split('.');
  const ends = contract ? Math.min(keep, 4) : keep;
  const short = address.length > ends * 2 + 1 ? `${address.slice(0, ends)}…${address.slice(-ends)}` : address;
  return contract ? `${short}.${contract}` : short;
}
