// The user's avatar from an external avatar service (called with the e-mail); initials on
// a coloured circle when the image cannot load.
import { useState } from 'react';

export function avatarUrl(email: string): string {
  return `https://ui-avatars.com/api/?name=${encodeURIComponent(email)}&size=64&background=2563eb&color=fff`;
}

export function initials(email: string): string {
  const name = email.split('@')[0] ?? '';
  const parts = name.split(/[._\-+]+/).filter(Boolean);
  const letters = parts.length >= 2 ? parts[0][0] + parts[1][0] : name.slice(0, 2);
  return (letters || '?').toUpperCase();
}

export function Avatar({ email, size = 32 }: { email: string; size?: number }) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size };
  if (failed)
    return (
      <span
        data-testid="avatar-initials"
        style={style}
        className="inline-flex select-none items-center justify-center rounded-full bg-blue-600 text-xs font-semibold text-white"
        aria-hidden
      >
        {initials(email)}
      </span>
    );
  return (
    <img
      src={avatarUrl(email)}
      alt=""
      style={style}
      referrerPolicy="no-referrer"
      className="rounded-full bg-gray-200"
      onError={() => setFailed(true)}
    />
  );
}
