import { describe, expect, it } from "vitest";
import { linksAsText } from "~/lib/html-text.ts";
import { htmlToText } from "~/lib/mail.server.ts";
import { plainTextFromHtml } from "~/validation/admin-email.ts";

// A mail's text part keeps every link's address: "text (URL)", or just the URL when the text is it.

describe("links in the plain-text part", () => {
  it("read 'text (URL)', and only the URL when the text already says it", () => {
    const html = '<p>Read <a href="https://x.test/a?b=1&amp;c=2">our <b>news</b></a>. Or <a href="https://y.test">https://y.test</a>.</p>';
    expect(plainTextFromHtml(html)).toBe("Read our news (https://x.test/a?b=1&c=2).\nOr https://y.test.");
    expect(htmlToText(html)).toBe("Read our news (https://x.test/a?b=1&c=2). Or https://y.test.");
  });

  it("take any quoting of href, show a mail address without mailto:, and keep only the words of an in-page link", () => {
    expect(htmlToText("<a class='c' href='https://z.test/p'>Open</a>")).toBe("Open (https://z.test/p)");
    expect(htmlToText("<a href=https://z.test>Open</a>")).toBe("Open (https://z.test)");
    expect(htmlToText('Write to <a href="mailto:help@medanim.test">help@medanim.test</a>')).toBe("Write to help@medanim.test");
    expect(htmlToText('<a href="mailto:help@medanim.test">us</a>')).toBe("us (help@medanim.test)");
    expect(htmlToText('<a href="#top">Back to top</a>')).toBe("Back to top");
    expect(linksAsText("<a name=x>anchor</a>")).toBe("anchor");
  });
});
