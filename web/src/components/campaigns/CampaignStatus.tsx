// The metrics list's markers: ✅ for an ACTIVE campaign, ⛔ for any other status, and ⚠️ for a
// campaign without metrics in the selected range (SPEC §2), drawn as SVG icons.
import { MarkIcon } from '../icons';
export const NO_DATA_TOOLTIP = 'Esta campaña no tiene métricas en el rango de fechas seleccionado';

const STATUS_NAMES: Record<string, string> = {
  ACTIVE: 'Activa',
  PAUSED: 'Pausada',
  ARCHIVED: 'Archivada',
  DELETED: 'Eliminada',
  IN_PROCESS: 'En proceso',
  WITH_ISSUES: 'Con problemas',
};

export function StatusIcon({ status }: { status: string }) {
  const active = status === 'ACTIVE';
  const name = STATUS_NAMES[status] ?? status;
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="campaign-status" data-status={status}>
      <MarkIcon mark={active ? 'ok' : 'blocked'} label={status} />
      <span className={`text-xs font-medium ${active ? 'text-green-700' : 'text-gray-500'}`}>{name}</span>
    </span>
  );
}

export function NoDataIcon() {
  return (
    <span title={NO_DATA_TOOLTIP} data-testid="no-data" className="cursor-help">
      <MarkIcon mark="warning" label={NO_DATA_TOOLTIP} />
    </span>
  );
}
