// Referrers — placeholder until the Referrers issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function Referrers() {
  return <ComingSoon title="Referrers" feature="informe de referrers con filtros y exportación CSV" />;
}
