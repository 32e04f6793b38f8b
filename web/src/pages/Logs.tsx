// Referrers (live) — placeholder until the live Logs issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function Logs() {
  return <ComingSoon title="Referrers (live)" feature="log en vivo de referrers (SSE o polling)" />;
}
