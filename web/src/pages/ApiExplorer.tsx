// Api Explorer — placeholder until the Api Explorer issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function ApiExplorer() {
  return <ComingSoon title="Api Explorer" feature="consulta del ad report por zona, advertiser y publisher con exportación CSV" />;
}
