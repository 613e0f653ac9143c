import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { getApiDocument } from "~/routes/api/openapi.server.ts";

// Every /api answer the integration suite receives (through callRoute) is held to the OpenAPI
// document: the operation's schema for that status, or for a failure the one error shape. An
// answer the document does not describe fails the test that received it.

const BASE = "https://medanim.test/openapi.json";
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

let ready: Promise<{ doc: Doc; ajv: Ajv2020; routes: { path: string; pattern: RegExp }[] }> | undefined;
const compiled = new Map<string, ValidateFunction>();

function load() {
  return (ready ??= getApiDocument().then((document) => {
    const doc = document as unknown as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...document, $id: BASE });
    // Static paths before templated ones: /api/categories/main is not /api/categories/{slugOrId}.
    const routes = Object.keys(doc.paths)
      .map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`), params: (path.match(/\{/g) ?? []).length }))
      .sort((a, b) => a.params - b.params);
    return { doc, ajv, routes };
  }));
}

const pointer = (...tokens: string[]) => tokens.map((t) => encodeURIComponent(t.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/");

function validator(ajv: Ajv2020, ref: string) {
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `${BASE}#/${ref}` });
    compiled.set(ref, validate);
  }
  return validate;
}

/** Why the answer does not match the document, or null when it does. */
export async function apiDocumentMismatch(method: string, url: string, status: number, body: unknown): Promise<string | null> {
  const { doc, ajv, routes } = await load();
  const pathname = new URL(url, "http://localhost").pathname;
  const verb = (method === "HEAD" ? "GET" : method).toLowerCase();
  const route = routes.find((r) => r.pattern.test(pathname));
  const operation = route ? doc.paths[route.path]![verb] : undefined;
  const where = `${method} ${pathname} → ${status}`;
  if (!operation) {
    // Unknown paths and methods answer the error shape (404, 405).
    if (status < 400) return `${where}: no such operation in the document`;
    return check(validator(ajv, pointer("components", "schemas", "Error")), body, where);
  }
  const key = operation.responses[String(status)] ? String(status) : status >= 400 ? "default" : null;
  if (!key) return `${where}: status ${status} is not documented for this operation`;
  const content = operation.responses[key]!.content;
  if (!content) return body === null || body === "" ? null : `${where}: documented without a body, answered one`;
  if (!content["application/json"]) return null; // HTML or a file: not JSON to validate
  return check(validator(ajv, pointer("paths", route!.path, verb, "responses", key, "content", "application/json", "schema")), body, where);
}

function check(validate: ValidateFunction, body: unknown, where: string) {
  if (validate(body)) return null;
  const errors = (validate.errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || "(body)"} ${e.message}${e.params && "additionalProperty" in e.params ? ` '${e.params.additionalProperty}'` : ""}`);
  return `${where}: the answer does not match the OpenAPI document: ${errors.join("; ")}\n${JSON.stringify(body).slice(0, 600)}`;
}
