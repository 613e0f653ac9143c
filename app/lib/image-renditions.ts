// Names of an image's renditions, shared by the server (which makes and serves them) and the
// markup (which lists them in srcset). A rendition lives under its original's path:
// /objects/uploads/{id}/{aspect}-{width}.{format}, and /objects/uploads/{id}/og.jpg for social
// previews. An object never changes under its id, so neither do its renditions' names.

/** Widths a rendition may have; a request for any other is refused (no free-form resizing). */
export const RENDITION_WIDTHS = [96, 160, 320, 640, 1280] as const;
export type RenditionWidth = (typeof RENDITION_WIDTHS)[number];

/** Display boxes the catalogue uses: covers and thumbnails are 16:9, portraits are round. */
export const ASPECTS = { "16x9": [16, 9], "1x1": [1, 1] } as const;
export type Aspect = keyof typeof ASPECTS;

export const RENDITION_TYPES = { avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" } as const;
export type RenditionFormat = keyof typeof RENDITION_TYPES;

/** The social preview (og:image) size the large link cards expect. */
export const OG_SIZE = { width: 1200, height: 630 } as const;

export type RenditionSpec = { aspect: Aspect; width: RenditionWidth; format: RenditionFormat } | { og: true };

const OBJECT_PATH = /^\/objects\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Only a stored object has renditions: any other image URL is shown as it is. */
export function hasRenditions(src: string) {
  return OBJECT_PATH.test(src);
}

export function renditionUrl(src: string, aspect: Aspect, width: RenditionWidth, format: RenditionFormat) {
  return `${src}/${aspect}-${width}.${format}`;
}

export function ogImageUrl(src: string) {
  return `${src}/og.jpg`;
}

export function renditionHeight(aspect: Aspect, width: number) {
  const [w, h] = ASPECTS[aspect];
  return Math.round((width * h) / w);
}

const NAME = /^(16x9|1x1)-([1-9]\d{1,3})\.(avif|webp|jpg)$/;

/** The rendition a file name asks for, or null when it is not one this app makes. */
export function parseRenditionName(name: string): RenditionSpec | null {
  if (name === "og.jpg") return { og: true };
  const match = NAME.exec(name);
  if (!match) return null;
  const width = Number(match[2]);
  if (!(RENDITION_WIDTHS as readonly number[]).includes(width)) return null;
  return { aspect: match[1] as Aspect, width: width as RenditionWidth, format: match[3] as RenditionFormat };
}
