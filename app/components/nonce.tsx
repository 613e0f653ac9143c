import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

/** The per-response CSP nonce (empty in the browser, which hides it from scripts). */
export function useNonce() {
  return useContext(NonceContext);
}
