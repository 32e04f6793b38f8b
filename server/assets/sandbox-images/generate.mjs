// Generates the bundled sandbox images (simple drawn scenes) used when Pixabay is not
// configured: PNGs written with node:zlib; two scenes as JPEG through libjpeg's cjpeg.
// Run: node server/assets/sandbox-images/generate.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const W = 600;
const H = 314; // Meta's 1.91:1 link-ad ratio

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function pixels(pixel) {
  const rgb = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.set(pixel(x, y), (y * W + x) * 3);
  return rgb;
}
function png(rgb) {
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) rgb.copy(raw, y * (W * 3 + 1) + 1, y * W * 3, (y + 1) * W * 3); // filter byte 0: none
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * Math.min(1, Math.max(0, t))));

const scenes = {
  // Sky gradient, a sun and the sea.
  'sunset-beach': (x, y) => {
    const horizon = H * 0.62;
    if (Math.hypot(x - W * 0.7, y - horizon + 30) < 46 && y < horizon) return [255, 214, 102];
    if (y < horizon) return mix([255, 122, 89], [255, 196, 140], y / horizon);
    const wave = Math.sin(x / 18 + y / 4) > 0.85 ? 30 : 0;
    return mix([40, 110, 170], [20, 60, 110], (y - horizon) / (H - horizon)).map((v) => Math.min(255, v + wave));
  },
  // Layered mountains under a pale sky.
  mountains: (x, y) => {
    const far = H * 0.45 + Math.abs((x % 220) - 110) * 0.6;
    const near = H * 0.7 + Math.abs(((x + 70) % 160) - 80) * 0.5;
    if (y > near) return [46, 94, 62];
    if (y > far) return [96, 130, 150];
    return mix([200, 225, 245], [150, 190, 230], y / far);
  },
  // City skyline at night.
  'city-night': (x, y) => {
    const block = Math.floor(x / 40);
    const top = H * (0.35 + ((block * 37) % 11) / 30);
    if (y > top) {
      const lit = (Math.floor(x / 8) + Math.floor(y / 12) * 3 + block) % 5 === 0 && x % 8 < 4 && y % 12 < 6;
      return lit ? [255, 220, 120] : [30, 34, 52];
    }
    return mix([12, 16, 40], [60, 50, 110], y / top);
  },
  // Pine forest on a hillside.
  forest: (x, y) => {
    const tx = x % 50;
    const row = Math.floor(x / 50);
    const base = H * 0.8 + (row % 3) * 8;
    const height = 120 + (row % 4) * 15;
    if (y > base) return [84, 62, 40];
    if (y > base - height && Math.abs(tx - 25) < ((y - (base - height)) / height) * 25) return [26, 92, 48];
    return mix([170, 215, 190], [120, 180, 160], y / H);
  },
  // Abstract shopping tags pattern.
  shopping: (x, y) => {
    const cx = (x % 100) - 50;
    const cy = (y % 100) - 50;
    if (Math.abs(cx) + Math.abs(cy) < 28) return [239, 71, 111];
    if (Math.hypot(cx, cy) < 40) return [255, 209, 102];
    return mix([6, 214, 160], [17, 138, 178], (x + y) / (W + H));
  },
  // Desk with a laptop (flat shapes).
  workspace: (x, y) => {
    if (y > H * 0.72) return [150, 111, 80];
    if (x > W * 0.3 && x < W * 0.7 && y > H * 0.25 && y < H * 0.68) {
      if (x > W * 0.32 && x < W * 0.68 && y > H * 0.28 && y < H * 0.65) return mix([70, 130, 220], [120, 200, 250], (y - H * 0.28) / (H * 0.37));
      return [40, 40, 48];
    }
    if (x > W * 0.25 && x < W * 0.75 && y >= H * 0.68 && y <= H * 0.72) return [90, 90, 100];
    return [236, 232, 224];
  },
};

// Two scenes as JPEG (cjpeg from libjpeg-turbo-progs reads PPM), so both formats are bundled.
const JPEG = new Set(['sunset-beach', 'city-night']);
for (const [name, pixel] of Object.entries(scenes)) {
  const rgb = pixels(pixel);
  if (JPEG.has(name)) {
    const ppm = Buffer.concat([Buffer.from(`P6\n${W} ${H}\n255\n`, 'ascii'), rgb]);
    writeFileSync(path.join(dir, `${name}.jpg`), execFileSync('cjpeg', ['-quality', '82', '-optimize'], { input: ppm }));
  } else {
    writeFileSync(path.join(dir, `${name}.png`), png(rgb));
  }
}
console.log('sandbox images written to', dir);
