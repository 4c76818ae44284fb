import { useRuntimeConfig } from '../../app/use-runtime-config.ts';
import { POLICY_KEEPER } from '../../domain/node-policy.ts';

const INTRO =
  'Each network’s addresses are followed through one node, which learns them and your IP address. Add an API key to ' +
  'ask the public one more often';

/**
 * Settings' words on the nodes: what a node learns, and which nodes the app may be pointed at. Those are what the
 * serving deployment's security policy allows, listed as its server tells them (the runtime config's allowedNodes,
 * built from the policy's own list): a node of one's own, on this device or the local network, only once allowed
 * there. Where the server does not say, no node is promised.
 */
export function NodePolicyNote() {
  const config = useRuntimeConfig();
  const allowed = config?.allowedNodes;
  if (config === null) return <p className="note">{INTRO}.</p>;
  if (allowed === undefined)
    return (
      <p className="note">
        {INTRO}, or point a network at another node: one this app’s security policy does not allow is refused when you
        test or use it.
      </p>
    );
  return (
    <div className="note node-policy">
      <p>{INTRO}. This app’s security policy lets it contact only these nodes:</p>
      <ul aria-label="Nodes this app may contact">
        {allowed.map((url) => (
          <li key={url}>
            <code>{url}</code>
          </li>
        ))}
      </ul>
      <p>Any other is refused; {POLICY_KEEPER} can allow it.</p>
    </div>
  );
}
