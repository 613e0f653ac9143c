import { describe, expect, it } from "vitest";
import { renderRichText, sanitizeHtml } from "~/lib/sanitize.server.ts";

describe("sanitizeHtml", () => {
  it("removes script and style elements together with their contents", () => {
    const out = sanitizeHtml(`<p>Hi</p><script>alert("x")</script><style>body{display:none}</style>`);
    expect(out).toBe("<p>Hi</p>");
  });

  it("removes event handlers and inline styles but keeps the element", () => {
    expect(sanitizeHtml(`<p onclick="steal()" style="color:red" class="x">Text</p>`)).toBe("<p>Text</p>");
    expect(sanitizeHtml(`<a href="/help" onmouseover="x()">Help</a>`)).toBe(`<a href="/help">Help</a>`);
  });

  it("drops javascript:, data: and protocol-relative hrefs, however they are spelled", () => {
    for (const href of ["javascript:alert(1)", " JaVaScRiPt:alert(1)", "java&#x09;script:alert(1)", "data:text/html,<b>x</b>", "//evil.example"]) {
      const out = sanitizeHtml(`<a href="${href}">x</a>`);
      expect(out, href).toBe("<a>x</a>");
    }
  });

  it("keeps http, https, mailto and relative links; external ones get rel=noopener", () => {
    expect(sanitizeHtml(`<a href="https://example.com/a">a</a>`)).toBe(`<a href="https://example.com/a" rel="noopener noreferrer nofollow">a</a>`);
    expect(sanitizeHtml(`<a href="mailto:help@example.com">m</a>`)).toBe(`<a href="mailto:help@example.com">m</a>`);
    expect(sanitizeHtml(`<a href="/privacy-policy">p</a>`)).toBe(`<a href="/privacy-policy">p</a>`);
    expect(sanitizeHtml(`<a href="#section">s</a>`)).toBe(`<a href="#section">s</a>`);
  });

  it("keeps the editor's markup: headings, paragraphs, emphasis, lists, quotes", () => {
    const html = "<h1>A</h1><h2>B</h2><h3>C</h3><p><strong>b</strong> <em>i</em></p><ul><li>1</li></ul><ol><li>2</li></ol><blockquote>q</blockquote>";
    expect(sanitizeHtml(html)).toBe(html);
  });

  it("drops images, frames, forms and unknown tags (keeping harmless text)", () => {
    expect(sanitizeHtml(`<img src=x onerror="alert(1)"><iframe src="https://x"></iframe><form><input></form><custom>text</custom>`)).toBe("text");
    expect(sanitizeHtml(`<svg><script>alert(1)</script></svg>`)).toBe("");
  });

  it("escapes text so that it cannot open a tag", () => {
    expect(sanitizeHtml("1 < 2 & 3 > 2")).toBe("1 &lt; 2 &amp; 3 &gt; 2");
  });
});

describe("renderRichText", () => {
  it("turns line breaks into <br /> and a blank line into two", () => {
    expect(renderRichText("First line\nSecond line\n\nNew paragraph")).toBe("First line<br />\nSecond line<br /><br />\nNew paragraph");
  });

  it("normalises Windows line endings and trims the ends", () => {
    expect(renderRichText("\r\nA\r\nB\r\n")).toBe("A<br />\nB");
  });

  it("does not add breaks between block elements written as HTML", () => {
    expect(renderRichText("<h2>Title</h2>\n\n<p>Text</p>\n<ul>\n<li>One</li>\n</ul>")).toBe("<h2>Title</h2>\n<p>Text</p>\n<ul>\n<li>One</li>\n</ul>");
  });

  it("sanitises after converting, so breaks cannot smuggle markup", () => {
    const out = renderRichText(`Hello\n<script>alert(1)</script>\n<a href="javascript:alert(1)" onclick="x()">link</a>`);
    expect(out).not.toMatch(/script|javascript|onclick/i);
    expect(out).toContain("<br />");
    expect(out).toContain("<a>link</a>");
  });
});

describe("remembered results", () => {
  it("answer the same input the same way again, and still sanitise after older results were let go", () => {
    const unsafe = `<p onclick="x()">Hello <script>alert(1)</script><a href="javascript:evil()">link</a></p>`;
    const first = sanitizeHtml(unsafe);
    expect(sanitizeHtml(unsafe)).toBe(first);
    expect(first).not.toMatch(/script|onclick|javascript/);
    // More distinct text than the bound holds: the first result is let go, then made again.
    for (let i = 0; i < 25; i++) sanitizeHtml(`<p>${String(i).repeat(100_000)}</p>`);
    expect(sanitizeHtml(unsafe)).toBe(first);
    expect(renderRichText("Line one\nLine two<script>x</script>")).toBe(renderRichText("Line one\nLine two<script>x</script>"));
  });
});
