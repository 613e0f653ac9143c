import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true once the page runs JavaScript: for controls
 * that only work with it, while the server's HTML keeps a path without it. The store never
 * changes, so React re-renders once after hydration, without an effect setting state.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
