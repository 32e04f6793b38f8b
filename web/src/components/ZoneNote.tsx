// 'Horas en Europe/Madrid (UTC+01:00)': names the zone a screen's times are shown in (the
// server's reporting zone, ADOPS_TZ), beside a table or list of times.
import { timeZoneLabel } from '@adops/core';
import { reportingTimeZone } from '../lib/timezone';

export function ZoneNote({ className = '' }: { className?: string }) {
  return (
    <span className={`text-xs text-gray-500 ${className}`} data-testid="zone-note">
      Horas en {timeZoneLabel(reportingTimeZone())}
    </span>
  );
}
