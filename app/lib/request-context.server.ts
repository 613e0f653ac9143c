import { createContext, RouterContextProvider } from "react-router";

// What every loader, action and middleware gets beside the request: the CSP nonce and the
// client's address as Express saw it. A React Router context (middleware is on, so `context`
// is a RouterContextProvider).

export type RequestInfo = { cspNonce: string; clientIp?: string };

export const requestInfoContext = createContext<RequestInfo>({ cspNonce: "" });

/** The load context for one request. */
export function requestContext(info: RequestInfo) {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  return context;
}

/** The request's info; the empty default when a caller (a test) passed no context. */
export function requestInfo(context: Readonly<RouterContextProvider> | undefined): RequestInfo {
  return context?.get(requestInfoContext) ?? { cspNonce: "" };
}
