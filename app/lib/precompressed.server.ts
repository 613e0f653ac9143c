import fs from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Serves the `.br` / `.gz` files the build wrote beside each script and stylesheet
 * (vite.precompress.ts) to browsers that accept them; anything else falls through to the plain
 * static handler. The files are hashed and immutable, so which variants exist is read once.
 */
export function precompressedAssets(dir: string) {
  const variants = new Map<string, { br: boolean; gz: boolean }>();
  const lookup = (file: string) => {
    let found = variants.get(file);
    if (!found) {
      found = { br: fs.existsSync(`${file}.br`), gz: fs.existsSync(`${file}.gz`) };
      if (variants.size < 10_000) variants.set(file, found);
    }
    return found;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path)];
    if (!type) return next();
    const file = path.join(dir, path.normalize(req.path));
    if (!file.startsWith(dir + path.sep)) return next();
    const available = lookup(file);
    // Brotli whenever it is acceptable at all (it is the smaller), whatever order the header lists.
    const encoding = available.br && req.acceptsEncodings("br") === "br" ? "br" : available.gz && req.acceptsEncodings("gzip") === "gzip" ? "gzip" : null;
    res.vary("Accept-Encoding");
    if (!encoding) return next();
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding);
    res.sendFile(`${file}${encoding === "br" ? ".br" : ".gz"}`, { immutable: true, maxAge: "1y", dotfiles: "deny" }, (error) => {
      if (error && !res.headersSent) {
        res.removeHeader("Content-Encoding");
        next();
      }
    });
  };
}
