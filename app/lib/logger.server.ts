import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { getEnv } from "./env.server.ts";

/** What every log line written while serving one request carries: its X-Request-Id. */
export type LogContext = { reqId: string };

/**
 * The request being served, for the logger's mixin (set by operations.server.ts around each
 * request): a service logging in the middle of a request need not be handed the id.
 */
export const logContext = new AsyncLocalStorage<LogContext>();

export const logger: pino.Logger = pino({
  level: getEnv().NODE_ENV === "test" ? "silent" : getEnv().LOG_LEVEL,
  redact: ["req.headers.cookie", "req.headers.authorization", "res.headers['set-cookie']"],
  mixin: () => {
    const context = logContext.getStore();
    return context ? { reqId: context.reqId } : {};
  },
});
