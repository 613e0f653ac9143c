// Makes the PNG icons the web manifest and iOS ask for from public/favicon.svg (`npx tsx
// scripts/make-icons.ts`), rasterised by sharp at each size (not scaled from one bitmap). The
// outputs are committed in public/; rerun after changing the favicon.
//   icon-192.png, icon-512.png   the favicon as it is: a rounded tile on transparent corners
//   icon-maskable-512.png        a full-bleed square: Android crops it to its own shape, and the
//                                glyph lies inside its safe circle (radius 40% of the width)
//   apple-touch-icon.png (180)   full-bleed too: iOS rounds the corners itself and would show
//                                transparent ones as black
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const publicDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../public");
const favicon = fs.readFileSync(path.join(publicDir, "favicon.svg"), "utf8");
// The tile without its rounded corners.
const square = favicon.replace(/\s+rx="[^"]*"/, "");
if (square === favicon) throw new Error("public/favicon.svg has no rounded tile (rx) to square off: update this script");

const ICONS = [
  { file: "icon-192.png", size: 192, svg: favicon },
  { file: "icon-512.png", size: 512, svg: favicon },
  { file: "icon-maskable-512.png", size: 512, svg: square },
  { file: "apple-touch-icon.png", size: 180, svg: square },
];

// The SVG's own box is 32 px: render at the density that makes it the target size.
const viewBox = Number(/viewBox="0 0 (\d+)/.exec(favicon)?.[1] ?? 32);
for (const icon of ICONS) {
  const out = path.join(publicDir, icon.file);
  await sharp(Buffer.from(icon.svg), { density: (72 * icon.size) / viewBox })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toFile(out);
  console.log(`${icon.file}: ${icon.size}x${icon.size}, ${fs.statSync(out).size} bytes`);
}
