import sanitize from "sanitize-html";

// HTML written by admins (pages, FAQ answers) is rendered as HTML (docs/architecture.md, "Product
// decisions"): only the markup the page editor's toolbar produces survives (headings, bold,
// italic, lists, quotes, links) plus a few harmless inline tags. Scripts, styles, event handlers,
// images, frames and forms are dropped, and links may only use http, https, mailto or a relative
// address, so stored content can never run code in a visitor's browser.
const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "small",
    "sub",
    "sup",
    "code",
    "mark",
    "ul",
    "ol",
    "li",
    "a",
  ],
  allowedAttributes: { a: ["href", "title", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // These go together with their text; any other unknown tag is dropped but keeps its text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "iframe", "object", "embed", "template", "title"],
  disallowedTagsMode: "discard",
  transformTags: {
    // Links to other sites get no access to this page (opener) and pass no ranking.
    a: (tagName, attribs) =>
      /^https?:/i.test(attribs.href ?? "") ? { tagName, attribs: { ...attribs, rel: "noopener noreferrer nofollow" } } : { tagName, attribs },
  },
};

/**
 * A pure text function whose results are kept by input (most recently used first, within a
 * bound on the characters held). Sanitising parses the whole HTML: a content page or the help
 * page spent most of its server time doing it again for the same text at every request.
 */
function remembered(fn: (input: string) => string, maxChars = 2_000_000) {
  const results = new Map<string, string>();
  let held = 0;
  return (input: string) => {
    const known = results.get(input);
    if (known !== undefined) {
      results.delete(input);
      results.set(input, known);
      return known;
    }
    const output = fn(input);
    results.set(input, output);
    held += input.length + output.length;
    for (const [key, value] of results) {
      if (held <= maxChars || results.size === 1) break;
      results.delete(key);
      held -= key.length + value.length;
    }
    return output;
  };
}

/** Admin-authored HTML reduced to the safe subset above. */
export const sanitizeHtml = remembered((html) => sanitize(html, OPTIONS));

const BLOCK_TAGS = "h[1-6]|p|ul|ol|li|blockquote|hr|br|div|table|thead|tbody|tfoot|tr|td|th|pre";
const ENDS_WITH_BLOCK_TAG = new RegExp(`<\\/?(?:${BLOCK_TAGS})\\b[^>]*>$`, "i");
const STARTS_WITH_BLOCK_TAG = new RegExp(`^<\\/?(?:${BLOCK_TAGS})\\b`, "i");
const LINE_BREAKS = /[ \t]*\n(?:[ \t]*\n)*[ \t]*/g;

/**
 * Content as a content page shows it: line breaks become `<br />` (a blank line gives
 * two), then the result is sanitised. Breaks that only separate block tags (`</h2>\n<p>`) are
 * layout of the source, not of the text, and are left alone: content written as HTML does not
 * gain stray empty lines.
 */
export const renderRichText = remembered((content) => {
  const text = content.replace(/\r\n?/g, "\n").trim();
  const html = text.replace(LINE_BREAKS, (run: string, offset: number) => {
    const before = text.slice(Math.max(0, offset - 300), offset);
    const after = text.slice(offset + run.length, offset + run.length + 20);
    if (ENDS_WITH_BLOCK_TAG.test(before) || STARTS_WITH_BLOCK_TAG.test(after)) return "\n";
    const count = run.split("\n").length - 1;
    return "<br />".repeat(count) + "\n";
  });
  return sanitizeHtml(html);
});

/** Text made safe to place in HTML, between tags or inside a quoted attribute. */
export function escapeHtml(value: string) {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}
