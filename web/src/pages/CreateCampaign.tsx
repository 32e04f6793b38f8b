// Crear Campaña en Facebook — placeholder until the campaign creator issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function CreateCampaign() {
  return <ComingSoon title="Crear Campaña en Facebook" feature="creación de campañas en Facebook a partir de una keyword, con copy e imágenes sugeridas" />;
}
