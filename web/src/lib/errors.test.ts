// Error texts in the user's words: no field keys from the server's details reach the screen, and
// a key that does is named as core names the field (one table of labels for every face).
import { describe, expect, it } from 'vitest';
import { ApiError } from '@adops/core';
import { errorText, readableDetail } from './errors';

describe('readableDetail', () => {
  it.each([
    [
      'a message that names its field loses the key',
      'password: La contraseña debe tener al menos 8 caracteres',
      'La contraseña debe tener al menos 8 caracteres',
    ],
    ['a key becomes the field’s label when the message does not name it', 'rate_limit: fecha no válida', 'Límite por hora: fecha no válida'],
    ['a list element is named by its place', 'allowed_ips.0: formato no válido', 'IPs permitidas (1.ª): formato no válido'],
    ['a nested key is named by its own label', 'params.hours: debe ser al menos 1', 'Horas: debe ser al menos 1'],
    ['the message keeps its first letter up when the key is dropped', 'email: email no válido', 'Email no válido'],
    ['a key nobody labelled stays (where the problem is matters more)', 'frobnicate: no válido', 'frobnicate: no válido'],
    ['a detail without a key is unchanged', 'Ya existe un usuario con ese email', 'Ya existe un usuario con ese email'],
    ['a detail the server already labelled is unchanged', 'Horas: debe ser al menos 1', 'Horas: debe ser al menos 1'],
    ['a sentence with a colon is not a key', 'Error HTTP 500: fallo', 'Error HTTP 500: fallo'],
  ])('%s', (_what, detail, shown) => {
    expect(readableDetail(detail)).toBe(shown);
  });

  it('errorText applies it to server errors', () => {
    expect(errorText(new ApiError(400, 'new_password: debe tener al menos 8 caracteres'), 'x')).toBe(
      'Nueva contraseña: debe tener al menos 8 caracteres',
    );
  });
});
