import { BROADCAST_CHANNELS } from '../store/keys.ts';
import { onWake } from './wake-events.ts';

/**
 * When a copy of the watch list the relay did not take is worth sending at once rather than at its next backoff:
 * the app came back into view or online (wake-events.ts), or a push from the relay reached this device (the service
 * worker says so on the inbox channel): the relay answers again, after a restart say.
 */
export function onRelayWorthTrying(listener: () => void): () => void {
  const stopWake = onWake(listener);
  if (typeof BroadcastChannel === 'undefined') return stopWake;
  const inbox = new BroadcastChannel(BROADCAST_CHANNELS.inbox);
  inbox.addEventListener('message', listener);
  return () => {
    stopWake();
    inbox.close();
  };
}
