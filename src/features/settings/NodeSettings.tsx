import { useId, useState, type FormEvent } from 'react';
import { useNodeSettings } from '../../app/settings-context.tsx';
import { useNodeInfo } from '../../app/use-node-info.ts';
import { useRuntimeConfig } from '../../app/use-runtime-config.ts';
import { NETWORK_LABEL, type Network } from '../../domain/network.ts';
import { uncheckedNetworkNote, wrongNetworkMessage, type NodeNetwork } from '../../domain/node-network.ts';
import { mayUseLocalNode } from '../../domain/node-policy.ts';
import { checkApiKey, checkNodeBudget, checkNodeUrl, type NodeChoice } from '../../domain/node-settings.ts';
import { NodeOutcome, type Outcome } from './NodeOutcome.tsx';

/**
 * One network's node: the default, or a custom URL with an optional API key. A node is asked which network it
 * serves before it is used: one serving the other network, or one the app's security policy blocks, is refused,
 * what was typed kept; one that cannot tell (or be reached) is kept with a note, as a node being set up or down for
 * a while is still the user's choice.
 */
export function NodeSettings({ network }: { network: Network }) {
  const { choices, save } = useNodeSettings();
  const { nodeUrl, testConnection, readNodeNetwork } = useNodeInfo();
  const runtime = useRuntimeConfig();
  const current = choices[network];
  const [url, setUrl] = useState(current?.url ?? '');
  const [apiKey, setApiKey] = useState(current?.apiKey ?? '');
  const [budget, setBudget] = useState(current?.perMinute ? String(current.perMinute) : '');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState<'testing' | 'checking' | null>(null);
  const ids = { url: useId(), key: useId(), budget: useId() };
  const label = NETWORK_LABEL[network];
  // Nothing to test or save until something is typed; what was typed is then checked, with the precise reason.
  const typed = url.trim() !== '';

  function read(): NodeChoice | null {
    const checkedUrl = checkNodeUrl(url);
    const checkedKey = checkApiKey(apiKey);
    const checkedBudget = checkNodeBudget(budget);
    if (!checkedUrl.ok) setOutcome({ kind: 'error', message: checkedUrl.error });
    else if (!checkedKey.ok) setOutcome({ kind: 'error', message: checkedKey.error });
    else if (!checkedBudget.ok) setOutcome({ kind: 'error', message: checkedBudget.error });
    if (!checkedUrl.ok || !checkedKey.ok || !checkedBudget.ok) return null;
    return {
      url: checkedUrl.value,
      apiKey: checkedKey.value,
      ...(checkedBudget.value === null ? {} : { perMinute: checkedBudget.value }),
    };
  }

  /**
   * Why the node may not be used, or null when it may: it serves the other network, or this app's security policy
   * does not let the page contact it (then it never could, unlike a node that is down for a while).
   */
  const refusalOf = (served: NodeNetwork): Outcome => {
    if (served.kind === 'serves')
      return served.network === network
        ? null
        : { kind: 'error', message: wrongNetworkMessage(served.network, network) };
    const { trouble } = served;
    return trouble.blocked ? { kind: 'error', message: trouble.message, detail: trouble.detail } : null;
  };

  /** `done`, and what is known of the node's network: that it is the right one, or why that could not be read. */
  const withNetwork = (done: string, served: NodeNetwork): Outcome =>
    served.kind === 'serves'
      ? { kind: 'ok', message: `${done} It serves ${network}.` }
      : {
          kind: 'note',
          message: `${done} ${uncheckedNetworkNote(network, served.trouble)}`,
          detail: served.trouble.detail,
        };

  async function test() {
    const node = read();
    if (!node) return;
    setBusy('testing');
    const result = await testConnection(node.url, node.apiKey);
    const served = result.ok ? await readNodeNetwork(node.url, node.apiKey) : null;
    setBusy(null);
    if (!result.ok) setOutcome({ kind: 'error', ...result.error });
    else if (served)
      setOutcome(
        refusalOf(served) ?? withNetwork(`Connected: block ${result.value.height}, ${result.value.version}.`, served),
      );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const node = read();
    if (!node) return;
    setBusy('checking');
    const served = await readNodeNetwork(node.url, node.apiKey);
    const refusal = refusalOf(served);
    if (!refusal) await save({ ...choices, [network]: node });
    setBusy(null);
    setOutcome(refusal ?? withNetwork(`${label} addresses now use ${node.url}.`, served));
  }

  async function reset() {
    const next = { ...choices };
    delete next[network];
    await save(next);
    setUrl('');
    setApiKey('');
    setBudget('');
    setOutcome({ kind: 'ok', message: `${label} addresses use the default node again.` });
  }

  return (
    <form className="node-settings" onSubmit={submit} noValidate aria-labelledby={`${ids.url}-heading`}>
      <h2 id={`${ids.url}-heading`}>{label} node</h2>
      <p className="note">In use: {nodeUrl?.(network) ?? '…'}</p>
      <div className="field">
        <label htmlFor={ids.url}>Custom node URL</label>
        <input
          id={ids.url}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://…"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.key}>API key (optional, sent only to this node)</label>
        <input
          id={ids.key}
          type="password"
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor={ids.budget}>Requests a minute (optional)</label>
        <input
          id={ids.budget}
          value={budget}
          onChange={(event) => setBudget(event.target.value)}
          inputMode="numeric"
          autoComplete="off"
          placeholder="default"
          aria-describedby={`${ids.budget}-note`}
        />
        <p id={`${ids.budget}-note`} className="note">
          Empty: 24 for Hiro’s public API (480 with a key),{' '}
          {mayUseLocalNode(runtime?.allowedNodes) && '6,000 for a node on this device, '}240 for any other. A node that
          sends its own rate-limit headers is paced by them.
        </p>
      </div>
      <div className="button-row">
        <button type="button" onClick={() => void test()} disabled={busy !== null || !typed}>
          {busy === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="primary" disabled={busy !== null || !typed}>
          {busy === 'checking' ? 'Checking the node…' : 'Use this node'}
        </button>
        {current && (
          <button type="button" onClick={() => void reset()}>
            Use the default
          </button>
        )}
      </div>
      <NodeOutcome outcome={outcome} />
    </form>
  );
}
