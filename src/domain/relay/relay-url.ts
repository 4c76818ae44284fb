import { isLoopbackHost } from '../loopback.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * The relay's base URL: https, or plain http only on this machine's loopback (a relay run next to the browser). A
 * relay learns the watched addresses and the push endpoint, so they never travel in the clear over a network.
 */
export function checkRelayUrl(text: string): Result<string, string> {
  const trimmed = text.trim();
  if (!trimmed) return err('Enter the relay’s address, for example https://relay.example.com.');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return err('This is not a web address. Enter one like https://relay.example.com.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return err(`A relay is reached over https, not ${url.protocol.replace(':', '')}.`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return err('Plain http is only allowed for a relay on this device (localhost or 127.0.0.1); use https.');
  if (url.username || url.password) return err('Leave the user name and password out of the relay’s address.');
  if (url.search || url.hash) return err('Leave the query (?…) and fragment (#…) out of the relay’s address.');
  return ok(`${url.origin}${url.pathname}`.replace(/\/+$/, ''));
}
