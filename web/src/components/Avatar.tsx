// The user's avatar, drawn here: the e-mail's initials on a colour taken from a hash of the
// e-mail. Nothing is fetched, so no staff address leaves for a third party and it works offline.

export function initials(email: string): string {
  const name = email.split('@')[0] ?? '';
  const parts = name.split(/[._\-+]+/).filter(Boolean);
  const letters = parts.length >= 2 ? parts[0][0] + parts[1][0] : name.slice(0, 2);
  return (letters || '?').toUpperCase();
}

/** FNV-1a (32 bits) of the lower-cased e-mail: the same address, the same colour on every screen. */
function emailHash(email: string): number {
  let h = 0x811c9dc5;
  for (const c of email.trim().toLowerCase()) h = Math.imul(h ^ (c.codePointAt(0) ?? 0), 0x01000193);
  return h >>> 0;
}

/** The avatar's background: a hue from the e-mail's hash, dark enough for white initials (contrast ≥ 4.5:1). */
export function avatarColour(email: string): string {
  return `hsl(${emailHash(email) % 360} 60% 28%)`;
}

export function Avatar({ email, size = 32 }: { email: string; size?: number }) {
  return (
    <span
      data-testid="avatar-initials"
      style={{ width: size, height: size, backgroundColor: avatarColour(email) }}
      className="inline-flex shrink-0 select-none items-center justify-center rounded-full text-xs font-semibold text-white"
      aria-hidden
    >
      {initials(email)}
    </span>
  );
}
