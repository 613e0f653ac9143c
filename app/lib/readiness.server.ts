// Where this process is in its life, for /readyz: a load balancer sends traffic only to an
// instance that has finished starting (its job workers are up) and is not draining (after
// SIGTERM/SIGINT it finishes what it accepted, and new requests should go elsewhere).

export type Phase = "starting" | "serving" | "draining";

let current: Phase = "starting";

export function servingPhase(): Phase {
  return current;
}

/** startServer: "serving" once listening with its workers started, "draining" at a stop signal. */
export function setServingPhase(phase: Phase) {
  current = phase;
}
