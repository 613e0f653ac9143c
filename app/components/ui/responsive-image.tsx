import { hasRenditions, renditionHeight, renditionUrl, type Aspect, type RenditionFormat, type RenditionWidth } from "~/lib/image-renditions.ts";

/**
 * A stored image as AVIF, WebP and JPEG at the widths its box needs: the browser picks the
 * first format it decodes and the smallest width that fills `sizes` at its pixel density. The
 * width and height attributes give the box's aspect before a byte arrives. Plain markup: no
 * JavaScript is needed to choose; hydration ships these few lines (0.5 KB gzip, decision 016).
 * An image URL that is not a stored object (none in the app's own data) is shown as it is.
 */
export function ResponsiveImage({
  src,
  aspect,
  widths,
  sizes,
  alt,
  className,
  priority = false,
}: {
  src: string;
  aspect: Aspect;
  /** Ascending; the smallest should be no more than twice the box's narrowest display width. */
  widths: readonly RenditionWidth[];
  sizes: string;
  alt: string;
  className?: string;
  /**
   * The page's largest picture in the first screen (its LCP element): fetched at once and first.
   * Lazy loading would wait for layout, and at low priority it queues behind the scripts.
   */
  priority?: boolean;
}) {
  const loading = priority ? "eager" : "lazy";
  const fetchPriority = priority ? "high" : undefined;
  if (!hasRenditions(src)) {
    return <img ref={hideIfBroken} src={src} alt={alt} className={className} loading={loading} fetchPriority={fetchPriority} decoding="async" onError={hide} />;
  }
  const srcSet = (format: RenditionFormat) => widths.map((w) => `${renditionUrl(src, aspect, w, format)} ${w}w`).join(", ");
  const largest = widths.at(-1)!;
  return (
    // display: contents lets the <img> itself be the flex or grid item its classes expect.
    <picture className="contents">
      <source type="image/avif" srcSet={srcSet("avif")} sizes={sizes} />
      <source type="image/webp" srcSet={srcSet("webp")} sizes={sizes} />
      <img
        ref={hideIfBroken}
        src={renditionUrl(src, aspect, widths[0]!, "jpg")}
        srcSet={srcSet("jpg")}
        sizes={sizes}
        width={largest}
        height={renditionHeight(aspect, largest)}
        alt={alt}
        className={className}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        onError={hide}
      />
    </picture>
  );
}

// A picture that does not load is hidden, not shown as the browser's broken-image icon (whatever
// is behind it shows instead). One that failed before hydration, when nobody listened, is
// caught as React attaches to it.
const hide = (event: { currentTarget: HTMLImageElement }) => {
  event.currentTarget.hidden = true;
};
function hideIfBroken(img: HTMLImageElement | null) {
  if (img?.complete && img.naturalWidth === 0) img.hidden = true;
}
