import { getEnv } from "./env.server.ts";

/** The origin of canonical and social URLs: the configured site address, else the one asked for. */
export function siteOrigin(request: Request) {
  return new URL(getEnv().APP_URL ?? request.url).origin;
}
