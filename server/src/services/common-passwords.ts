// New passwords are refused when they are among the most used ones (NIST SP 800-63B §3.1.1.2):
// the list ships with the server (server/assets/common-passwords, zxcvbn's 49,233), is read once
// on first use and compared in lower case. Nothing is fetched at run time.
import { readFileSync } from 'node:fs';
import { DomainError } from '../domain-errors.js';

const LIST = new URL('../../assets/common-passwords/passwords.txt', import.meta.url);

export const COMMON_PASSWORD = 'Esa contraseña es demasiado común (está entre las más usadas): elige otra';

let common: ReadonlySet<string> | null = null;

/** The list, loaded on first use (about 3 MB in memory). */
export function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(LIST, 'utf8')
      .split('\n')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  );
  return common;
}

export const isCommonPassword = (password: string): boolean => commonPasswords().has(password.trim().toLowerCase());

/** 400 {detail} when the new password is a common one. */
export function assertUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new DomainError('invalid', COMMON_PASSWORD);
}
