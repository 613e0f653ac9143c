import fs from "node:fs/promises";
import path from "node:path";
import zlib from "node:zlib";
import { gzipAsync } from "@gfx/zopfli";
import type { Plugin } from "vite";

/**
 * Writes `.gz` (zopfli: the smallest gzip there is, 3-4 % below zlib's best) and `.br`
 * (brotli at its best quality) beside every client script and stylesheet of a build. The
 * server sends those files as they are (`app/lib/precompressed.server.ts`): compressing once at
 * build time with the slow, thorough settings instead of at every request with fast ones.
 */
export function precompress(): Plugin {
  return {
    name: "medanim:precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      if (this.environment?.name !== "client" || !options.dir) return;
      const files = Object.keys(bundle).filter((name) => /\.(js|css)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(options.dir!, name);
          const source = await fs.readFile(file);
          if (source.length < 1024) return;
          const [gz, br] = await Promise.all([
            // More iterations pay off only on the big framework chunks.
            gzipAsync(source, { numiterations: source.length > 20_000 ? 50 : 15 }),
            new Promise<Buffer>((resolve, reject) =>
              zlib.brotliCompress(
                source,
                { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length } },
                (error, out) => (error ? reject(error) : resolve(out)),
              ),
            ),
          ]);
          await Promise.all([fs.writeFile(`${file}.gz`, gz), fs.writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}
