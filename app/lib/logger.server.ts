import pino from "pino";
import { getEnv } from "./env.server.ts";

const globalForLogger = globalThis as unknown as { __medanimLogger?: pino.Logger };

export const logger: pino.Logger =
  globalForLogger.__medanimLogger ??
  (globalForLogger.__medanimLogger = pino({
    level: getEnv().NODE_ENV === "test" ? "silent" : getEnv().LOG_LEVEL,
    redact: ["req.headers.cookie", "req.headers.authorization", "res.headers['set-cookie']"],
  }));
