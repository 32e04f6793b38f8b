// The honest page of a screen still to be built: its title and what is coming.
import { Card } from './Card';

export function ComingSoon({ title, feature }: { title: string; feature: string }) {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">{title}</h1>
      <Card>
        <p className="text-sm text-gray-600">Disponible próximamente: {feature}</p>
      </Card>
    </div>
  );
}
