import { describe, expect, it } from "vitest";
import { prisma } from "~/lib/db.server.ts";
import { streamMultipartUpload } from "~/lib/upload.server.ts";
import * as animationsApi from "~/routes/api/animations.ts";
import * as profileApi from "~/routes/api/auth.profile.ts";
import * as contactApi from "~/routes/api/contact.ts";
import * as reportMisuseApi from "~/routes/api/report-misuse.ts";
import { accessTokenFor, createUser } from "../helpers/factories.ts";
import { useMailCapture } from "../helpers/mail-capture.ts";
import { callRoute } from "../helpers/route.ts";

// A JSON string may carry a lone UTF-16 surrogate ("\ud800"), which PostgreSQL refuses to store:
// these calls answered 500. The body is now decoded with each lone surrogate replaced by U+FFFD
// (lib/well-formed.server.ts), so the text is stored, as a form's already was.
// JSON.stringify writes a lone surrogate as the escape "\ud800", as a hostile client would.

useMailCapture();

const LONE = "\ud800";
const REPLACED = "\ufffd";

describe("lone surrogates in JSON bodies are stored as U+FFFD, never a 500", () => {
  it("POST /api/contact", async () => {
    const res = await callRoute(contactApi, "/api/contact", {
      clientIp: "198.51.100.31",
      json: {
        name: `Ada${LONE}`,
        email: "ada@example.com",
        subject: `Broken ${LONE}`,
        category: "technical",
        message: `The video stops${LONE} after ten seconds.`,
      },
    });
    expect(res.status).toBe(201);
    const stored = await prisma.contactMessage.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ name: `Ada${REPLACED}`, subject: `Broken ${REPLACED}`, message: `The video stops${REPLACED} after ten seconds.` });
  });

  it("POST /api/report-misuse", async () => {
    const res = await callRoute(reportMisuseApi, "/api/report-misuse", {
      clientIp: "198.51.100.32",
      json: {
        animationTitle: `Heart${LONE}`,
        reporterEmail: "watcher@example.com",
        message: `Shown without a licence ${"\udc00"}`,
        link: `https://clinic.example.com/${LONE}`,
      },
    });
    expect(res.status).toBe(201);
    const stored = await prisma.misuseReport.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ animationTitle: `Heart${REPLACED}`, message: `Shown without a licence ${REPLACED}` });
  });

  it("PUT /api/auth/profile", async () => {
    const user = await createUser();
    const res = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token: await accessTokenFor(user.id),
      json: { firstName: `Ada${LONE}`, lastName: `${LONE}Lovelace`, username: user.username, email: user.email },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ firstName: `Ada${REPLACED}`, lastName: `${REPLACED}Lovelace` });
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ firstName: `Ada${REPLACED}`, lastName: `${REPLACED}Lovelace` });
  });

  it("a field whose rule refuses the replacement character answers 400 with its message", async () => {
    const user = await createUser();
    const res = await callRoute(profileApi, "/api/auth/profile", {
      method: "PUT",
      token: await accessTokenFor(user.id),
      json: { firstName: "Ada", lastName: "Lovelace", username: `ada${LONE}`, email: user.email },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ username: ["Username may contain only letters, digits, dots, dashes and underscores"] });
  });

  it("a query: a percent-encoded surrogate (invalid UTF-8) reads as U+FFFD too", async () => {
    const res = await callRoute(animationsApi, "/api/animations?search=%ED%A0%80");
    expect(res.status).toBe(200);
  });
});

describe("lone surrogates in a multipart upload's text fields", () => {
  // busboy decodes a UTF-16 part as it is, lone surrogates included; the FormData it fills holds
  // USVStrings, which replace them.
  it("a part in UTF-16 is read with U+FFFD", async () => {
    const boundary = "medanim-boundary";
    const utf16 = Buffer.from("Heart\ud800", "utf16le");
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n`),
      utf16,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const request = new Request("http://localhost/admin/animations/new", {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const { formData, errors } = await streamMultipartUpload(request, { fields: { coverImage: "cover" } });
    expect(errors).toEqual({});
    expect(formData.get("title")).toBe(`Heart${REPLACED}`);
  });
});
