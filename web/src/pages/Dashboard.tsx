// Dashboard — placeholder until the Dashboard issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function Dashboard() {
  return <ComingSoon title="Dashboard" feature="resumen de revenue, margen, impresiones, clics, CTR y TQ con tendencias, top zonas y top advertisers" />;
}
