// Demand — placeholder until the Demand issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function Demand() {
  return <ComingSoon title="Demand" feature="revenue y margen por advertiser y fecha" />;
}
