// Where this process is in its life, for /readyz: a load balancer sends traffic only to an
// instance that has finished starting (its job workers are up) and is not draining (after
// SIGTERM/SIGINT it finishes what it accepted, and new requests should go elsewhere).
// On globalThis: server.ts sets it, and the server build's copy of this module may read it.

export type Phase = "starting" | "serving" | "draining";

const globalForPhase = globalThis as unknown as { __medanimPhase?: Phase };

export function servingPhase(): Phase {
  return globalForPhase.__medanimPhase ?? "starting";
}

/** startServer: "serving" once listening with its workers started, "draining" at a stop signal. */
export function setServingPhase(phase: Phase) {
  globalForPhase.__medanimPhase = phase;
}
