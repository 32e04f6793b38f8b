// Campañas con métricas (Facebook) — placeholder until the campaign metrics issue lands.
import { ComingSoon } from '../components/ComingSoon';

export default function FbCampaigns() {
  return <ComingSoon title="Campañas con métricas (Facebook)" feature="métricas de campañas de Facebook con filtros, totales y paginación" />;
}
