// `node scripts/icon.mjs`: draws the extension's icon, media/icon.png
// (128x128): a corner of a chessboard with a knight on it and a red
// squiggle under the knight, the finding of a wrong move. Drawn here from
// polygons (4x4 samples a pixel), no artwork copied; commit the PNG.
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync } from "node:zlib";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SIZE = 128;
const LIGHT = [240, 217, 181];
const DARK = [181, 136, 99];
const INK = [38, 33, 30];
const EDGE = [250, 246, 238];
const RED = [214, 48, 49];

// The knight's silhouette, in pixels of the 128 square.
const knight = [
  [34, 112], [94, 112], [94, 102], [86, 97], [86, 80], [91, 60], [88, 40], [77, 26], [64, 19],
  [59, 9], [53, 19], [41, 28], [27, 50], [24, 62], [31, 70], [43, 62], [54, 60], [58, 64],
  [46, 80], [41, 97], [34, 102],
];

function inside(poly, x, y) {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) {
      c = !c;
    }
  }
  return c;
}

function distanceToEdge(poly, x, y) {
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [ax, ay] = poly[j];
    const [bx, by] = poly[i];
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    best = Math.min(best, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
  }
  return best;
}

/** The colour (RGBA) at a point of the picture. */
function colour(x, y) {
  // The squiggle: a sine under the knight's base.
  const wave = 119 + 3.2 * Math.sin((x - 30) / 4.2);
  if (x > 28 && x < 100 && Math.abs(y - wave) < 2.6) {
    return [...RED, 255];
  }
  if (inside(knight, x, y)) {
    return [...INK, 255];
  }
  if (distanceToEdge(knight, x, y) < 3.5) {
    return [...EDGE, 255];
  }
  // The eye.
  if (Math.hypot(x - 62, y - 36) < 4) {
    return [...EDGE, 255];
  }
  // Rounded corners of the board, transparent outside.
  const r = 14;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  if (Math.hypot(x - cx, y - cy) > r) {
    return [0, 0, 0, 0];
  }
  const square = Math.floor(x / 32) + Math.floor(y / 32);
  return [...(square % 2 === 0 ? LIGHT : DARK), 255];
}

const N = 4;
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < N; sy++) {
      for (let sx = 0; sx < N; sx++) {
        const c = colour(x + (sx + 0.5) / N, y + (sy + 0.5) / N);
        for (let k = 0; k < 3; k++) {
          sum[k] += c[k] * c[3];
        }
        sum[3] += c[3];
      }
    }
    const at = y * (SIZE * 4 + 1) + 1 + x * 4;
    for (let k = 0; k < 3; k++) {
      raw[at + k] = sum[3] === 0 ? 0 : Math.round(sum[k] / sum[3]);
    }
    raw[at + 3] = Math.round(sum[3] / (N * N));
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) {
    c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(raw, { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
const out = join(here, "media", "icon.png");
writeFileSync(out, png);
console.log(`wrote ${out} (${png.length} bytes)`);
