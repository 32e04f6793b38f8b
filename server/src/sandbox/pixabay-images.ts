// The images bundled for the Pixabay sandbox (server/assets/sandbox-images), read once and
// served by the app at SANDBOX_IMAGE_PATH so suggestions work without Pixabay.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { sniffImageType, type ImageType } from '../providers/http.js';

/** Public path the app serves bundled images under (the sandbox's hits point there). */
export const SANDBOX_IMAGE_PATH = '/api/sandbox/pixabay-images/';
export const SANDBOX_IMAGE_NAME = /^[a-z0-9][a-z0-9-]{0,60}\.(png|jpg|jpeg|webp)$/;

export interface BundledImage {
  /** Stable id, as Pixabay hits have. */
  id: number;
  file: string;
  type: ImageType;
  bytes: Buffer;
}

// From src/sandbox or dist/sandbox up to the package root.
const ASSETS_DIR = fileURLToPath(new URL('../../assets/sandbox-images/', import.meta.url));

let loaded: Promise<BundledImage[]> | undefined;

export function bundledImages(): Promise<BundledImage[]> {
  loaded ??= (async () => {
    const files = (await readdir(ASSETS_DIR)).filter((f) => SANDBOX_IMAGE_NAME.test(f)).sort();
    const out: BundledImage[] = [];
    for (const [i, file] of files.entries()) {
      const bytes = await readFile(ASSETS_DIR + file);
      const type = sniffImageType(bytes);
      if (type) out.push({ id: 9_000_001 + i, file, type, bytes });
    }
    return out;
  })();
  return loaded;
}
