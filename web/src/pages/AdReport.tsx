// Ad Report — placeholder until the Ad Report issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function AdReport() {
  return <ComingSoon title="Ad Report" feature="resumen diario por zona, publisher y advertiser con exportación CSV" />;
}
