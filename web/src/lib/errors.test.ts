// Error texts in the user's words: no field keys from the server's details reach the screen.
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
    ['a key becomes the field’s label when the message does not name it', 'start_date: fecha no válida', 'Desde: fecha no válida'],
    ['nested keys use the first part', 'email.0: formato no válido', 'Email: formato no válido'],
    ['the message keeps its first letter up when the key is dropped', 'email: email no válido', 'Email no válido'],
    ['a key nobody labelled stays (where the problem is matters more)', 'frobnicate: no válido', 'frobnicate: no válido'],
    ['a detail without a key is unchanged', 'Ya existe un usuario con ese email', 'Ya existe un usuario con ese email'],
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
