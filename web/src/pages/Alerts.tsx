// Alertas: what fired (open, muted, resolved) with mute / unmute — one's own, or an admin's for
// everyone — the rules (create, edit, switch off, delete) and the user's channels (bell, e-mail,
// webhook). Opening the page marks the alerts read, so the bell in the nav goes to 0.
import { AlertActionsCard } from '../components/alerts/AlertActions';
import { Channels } from '../components/alerts/Channels';
import { FiredAlerts } from '../components/alerts/FiredAlerts';
import { Rules } from '../components/alerts/Rules';

export default function Alerts() {
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold text-gray-900">Alertas</h1>
      <FiredAlerts />
      <AlertActionsCard />
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="xl:col-span-2">
          <Rules />
        </div>
        <Channels />
      </div>
    </div>
  );
}
