// The one rule for links when mail's HTML becomes its plain-text part: a reader of the text copy
// must still be able to reach every link, so `<a href="URL">text</a>` reads "text (URL)", and
// just "URL" when the text already says it. Pure and browser-safe: both HTML→text converters
// (lib/mail.server.ts htmlToText, the campaign's plainTextFromHtml) run it before stripping tags.

const ANCHOR = /<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi;
const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;

function decodeEntities(text: string) {
  return text
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Each anchor with an address replaced by its text and address; other markup is left for the caller. */
export function linksAsText(html: string) {
  return html.replace(ANCHOR, (_whole, attributes: string, inner: string) => {
    const match = HREF.exec(` ${attributes}`);
    const href = decodeEntities((match?.[1] ?? match?.[2] ?? match?.[3] ?? "").trim());
    // A link within the page says nothing once it is plain text; its words stay.
    if (!href || href.startsWith("#")) return inner;
    const shown = href.replace(/^mailto:/i, "");
    const text = decodeEntities(inner.replace(/<[^>]*>/g, ""))
      .replace(/\s+/g, " ")
      .trim();
    if (!text || text === shown || text === href) return escapeText(shown);
    return `${inner} (${escapeText(shown)})`;
  });
}

// The converters decode entities after this step: an address must survive that unchanged.
function escapeText(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
