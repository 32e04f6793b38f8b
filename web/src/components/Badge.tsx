// A small rounded label beside a name (a role, a state): one look for every screen.

export function Badge({ tone, title, children }: { tone: 'blue' | 'gray' | 'amber' | 'green'; title?: string; children: string }) {
  const tones = {
    blue: 'bg-blue-50 text-blue-700 ring-blue-200',
    gray: 'bg-gray-50 text-gray-600 ring-gray-200',
    amber: 'bg-amber-50 text-amber-700 ring-amber-200',
    green: 'bg-green-50 text-green-700 ring-green-200',
  };
  return (
    <span title={title} className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      {children}
    </span>
  );
}
