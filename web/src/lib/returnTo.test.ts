import { describe, expect, test } from 'vitest';
import { afterSignIn, loginPath, safeReturnPath } from './returnTo';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('the path sign-in returns to', () => {
  test.each([
    ['/ad-report?start_date=2024-01-01&zone=7', '/ad-report?start_date=2024-01-01&zone=7'],
    ['/admin/audit?action=user.update#x', '/admin/audit?action=user.update#x'],
    ['/alerts', '/alerts'],
  ])('keeps a path of this site with its query: %s', (next, expected) => {
    expect(safeReturnPath(next)).toBe(expected);
  });

  test.each([
    ['https://evil.example/phish'],
    ['//evil.example/phish'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['ad-report'],
    ['/login?next=/x'],
    [''],
    [null],
  ])('refuses %s (another site, not a path, or the login page itself)', (next) => {
    expect(safeReturnPath(next)).toBeNull();
  });

  test('a screen opened while signed out is carried to the login page and back', () => {
    const login = loginPath(at('/ad-report', '?start_date=2024-01-01&advertiser=A%26B'));
    expect(login).toBe('/login?next=%2Fad-report%3Fstart_date%3D2024-01-01%26advertiser%3DA%2526B');
    expect(afterSignIn(login.slice('/login'.length))).toBe('/ad-report?start_date=2024-01-01&advertiser=A%26B');
  });

  test('with no next, or one off this site, sign-in goes to the Dashboard', () => {
    expect(loginPath(at('/dashboard'))).toBe('/login');
    expect(loginPath()).toBe('/login');
    expect(afterSignIn('')).toBe('/dashboard');
    expect(afterSignIn('?next=https%3A%2F%2Fevil.example')).toBe('/dashboard');
    expect(afterSignIn('?next=%2F%2Fevil.example')).toBe('/dashboard');
  });
});
