import fs from "node:fs";

// The JSON bodies captured from the app (bench/run.ts writes them, FLOOR_PAYLOADS names the file).
const payloads: Record<string, string> = process.env.FLOOR_PAYLOADS ? JSON.parse(fs.readFileSync(process.env.FLOOR_PAYLOADS, "utf8")) : {};

export function loader({ params }: { params: { name?: string } }) {
  const body = payloads[params.name ?? ""];
  if (body === undefined) return new Response("Not found", { status: 404 });
  return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
