/**
 * Draws the app icons (a white ring and dot on the brand colour) as PNG files in public/.
 * Run with `npx tsx scripts/make-icons.ts` after changing the design.
 */
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const BRAND: readonly [number, number, number] = [0x55, 0x46, 0xff];
const SAMPLES = 4;

type Shape = (x: number, y: number) => 'brand' | 'white' | 'clear';

function iconShape(fullBleed: boolean): Shape {
  return (x, y) => {
    const dx = x - 0.5;
    const dy = y - 0.5;
    const r = Math.hypot(dx, dy);
    if (!fullBleed && !insideRoundedSquare(x, y, 0.22)) return 'clear';
    const scale = fullBleed ? 0.8 : 1;
    if (r < 0.095 * scale) return 'white';
    if (r > 0.22 * scale && r < 0.3 * scale) return 'white';
    return 'brand';
  };
}

function insideRoundedSquare(x: number, y: number, radius: number): boolean {
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  return Math.hypot(x - cx, y - cy) <= radius;
}

function render(size: number, shape: Shape): Buffer {
  const rows: Buffer[] = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const kind = shape((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size);
          if (kind === 'clear') continue;
          const [cr, cg, cb] = kind === 'white' ? [255, 255, 255] : BRAND;
          r += cr;
          g += cg;
          b += cb;
          a += 255;
        }
      }
      const n = SAMPLES * SAMPLES;
      const covered = a / 255 || 1;
      row.set(
        [Math.round(r / covered), Math.round(g / covered), Math.round(b / covered), Math.round(a / n)],
        1 + px * 4,
      );
    }
    rows.push(row);
  }
  return png(size, Buffer.concat(rows));
}

function png(size: number, raw: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

const out = new URL('../public/', import.meta.url);
writeFileSync(new URL('icon-192.png', out), render(192, iconShape(false)));
writeFileSync(new URL('icon-512.png', out), render(512, iconShape(false)));
writeFileSync(new URL('icon-maskable-512.png', out), render(512, iconShape(true)));
writeFileSync(new URL('apple-touch-icon-180.png', out), render(180, iconShape(true)));
