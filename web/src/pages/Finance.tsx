// Finance — placeholder until the Finance issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function Finance() {
  return <ComingSoon title="Finance" feature="revenue mensual por advertiser y publisher y margen mensual" />;
}
