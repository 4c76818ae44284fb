import { createHash } from 'node:crypto';
import { c32address, c32addressDecode } from 'c32check';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
const checksum = (version: number, hash: Buffer) =>
  sha256(sha256(Buffer.concat([Buffer.from([version]), hash]))).readUInt32BE(0);

/**
 * A checksum-valid address with the same first 6 and last 4 characters as `address`, as a poisoner's vanity search
 * finds one: the hash keeps its first 4 bytes (the leading characters) and varies the rest until the checksum's
 * last 20 bits (the last 4 characters) match. About a million double hashes: a few seconds.
 */
export function validLookalike(address: string): { address: string; hash: string } {
  const [version, hashHex] = c32addressDecode(address);
  const original = Buffer.from(hashHex, 'hex');
  const target = checksum(version, original) & 0xfffff;
  const candidate = Buffer.from(original);
  for (let counter = 1; counter < 2 ** 26; counter++) {
    candidate.writeUInt32BE(counter, 16);
    candidate.writeUInt32BE(0x5eed ^ counter, 12);
    if ((checksum(version, candidate) & 0xfffff) !== target) continue;
    const hash = candidate.toString('hex');
    const found = c32address(version, hash);
    if (found !== address && found.slice(0, 6) === address.slice(0, 6) && found.slice(-4) === address.slice(-4))
      return { address: found, hash };
  }
  throw new Error(`no lookalike of ${address} found`);
}
