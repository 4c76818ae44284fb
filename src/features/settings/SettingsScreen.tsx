import './settings.css';
import { NETWORKS } from '../../domain/network.ts';
import { AlertPreferences } from '../alerts/AlertPreferences.tsx';
import { HistoryExportCard } from '../history/HistoryExportCard.tsx';
import { PrivacyLink } from '../privacy/PrivacyLink.tsx';
import { InstallCard } from '../pwa/InstallCard.tsx';
import { ClosedAlerts } from './ClosedAlerts.tsx';
import { MoveList } from '../transfer/MoveList.tsx';
import { ImportExport } from './ImportExport.tsx';
import { NodePolicyNote } from './NodePolicyNote.tsx';
import { NodeSettings } from './NodeSettings.tsx';

export function SettingsScreen() {
  return (
    <section className="settings">
      <h1>Settings</h1>
      <InstallCard />
      <AlertPreferences />
      <ClosedAlerts />
      <ImportExport />
      <MoveList />
      <HistoryExportCard />
      <section className="card" aria-labelledby="privacy-heading">
        <h2 id="privacy-heading">Privacy</h2>
        <p className="note">
          No telemetry, no server of ours: only the nodes below and a relay you turn on are contacted. See which of them
          was told which of your addresses, and when: <PrivacyLink />.
        </p>
      </section>
      <h2>Nodes</h2>
      <NodePolicyNote />
      {NETWORKS.map((network) => (
        <NodeSettings key={network} network={network} />
      ))}
    </section>
  );
}
