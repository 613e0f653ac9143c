import type { RouterContextProvider } from "react-router";
import { getEnv } from "~/lib/env.server.ts";
import { clientAddress } from "~/lib/rate-limit.server.ts";

// Where a sign-in comes from, as the sessions list and the security alerts show it.

export type SignInClient = { userAgent: string | null; ipAddress: string | null; place: string | null };

export function signInClient(request: Request, context?: Readonly<RouterContextProvider>): SignInClient {
  const env = getEnv();
  const address = clientAddress(context);
  // A place header is believed only from a proxy the app trusts; anyone can send one.
  const place = env.GEO_HEADER && env.TRUST_PROXY ? request.headers.get(env.GEO_HEADER)?.trim().slice(0, 80) || null : null;
  return {
    userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null,
    ipAddress: address === "unknown" ? null : address,
    place: place && place !== "XX" ? place : null,
  };
}

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

/** "Chrome on macOS", "Safari on iPhone", or the client's own name ("curl") for an API client. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return (browser ?? system)!;
  const product = userAgent.match(/^([A-Za-z][\w.-]*)(?:\/[\w.]+)?/)?.[1];
  return product ? product.slice(0, 40) : "Unknown device";
}

/** "Germany" for a country code, the header's text otherwise. */
export function describePlace(place: string | null | undefined): string | null {
  if (!place) return null;
  if (/^[A-Z]{2}$/i.test(place)) {
    try {
      return new Intl.DisplayNames(["en"], { type: "region" }).of(place.toUpperCase()) ?? place;
    } catch {
      return place;
    }
  }
  return place;
}
