import { describe, expect, it } from "vitest";
import { htmlToText, renderTemplate } from "~/lib/mail.server.ts";

describe("renderTemplate", () => {
  it("substitutes variables, escaping them in HTML", () => {
    expect(renderTemplate("<p>Hi {{ name }}</p>", { name: "<Ann>" }, true)).toBe("<p>Hi &lt;Ann&gt;</p>");
    expect(renderTemplate("Hi {{name}}", { name: "<Ann>" }, false)).toBe("Hi <Ann>");
  });
  it("inserts triple-brace variables as trusted HTML and blanks unknown ones", () => {
    expect(renderTemplate("<div>{{{content}}}{{missing}}</div>", { content: "<b>x</b>" }, true)).toBe("<div><b>x</b></div>");
  });
});

describe("htmlToText", () => {
  it("drops scripts and styles, tags and collapses whitespace", () => {
    expect(htmlToText("<style>p{}</style><h1>Title</h1><p>One   two</p><script>x()</script>")).toBe("Title\nOne two");
  });
});
