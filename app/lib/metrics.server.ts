import client from "prom-client";

// The process's Prometheus metrics (served at /metrics, app/lib/operations.server.ts), in one
// registry of its own. Every label takes values from a small fixed set (a route pattern, a queue
// name, an outcome): never an id, an address or a raw path, or each new value would be a new
// series kept in memory for the life of the process.

const PREFIX = "medanim_";

// Request and query times are mostly milliseconds; transcodes run for minutes.
const FAST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600];

function createMetrics() {
  const registry = new client.Registry();
  // CPU, memory, event-loop lag, handles and GC of this process (process_*, nodejs_*).
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new client.Counter({
      name: `${PREFIX}http_requests_total`,
      help: "HTTP requests answered, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpDuration: new client.Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: "Time from a request's arrival to the end of its response, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      buckets: FAST_BUCKETS,
      registers,
    }),
    dbQueryDuration: new client.Histogram({
      name: `${PREFIX}db_query_duration_seconds`,
      help: "Database statements: the app's (through Prisma) and the job queue's, by statement kind",
      labelNames: ["source", "statement"] as const,
      buckets: FAST_BUCKETS,
      registers,
    }),
    jobDuration: new client.Histogram({
      name: `${PREFIX}job_duration_seconds`,
      help: "Background jobs run by this process, by queue and outcome (completed or failed)",
      labelNames: ["queue", "outcome"] as const,
      buckets: JOB_BUCKETS,
      registers,
    }),
    jobFailures: new client.Counter({
      name: `${PREFIX}job_failures_total`,
      help: "Background jobs that threw (pg-boss retries them up to the queue's limit), by queue",
      labelNames: ["queue"] as const,
      registers,
    }),
    mail: new client.Counter({
      name: `${PREFIX}mail_messages_total`,
      help: "Mail handed to the transport (SMTP or the outbox), by outcome (sent or failed)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    paymentEvents: new client.Counter({
      name: `${PREFIX}payment_events_total`,
      help: "Payment provider events through fulfilment, by kind and outcome (applied, duplicate, ignored, error)",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    refundDecisions: new client.Counter({
      name: `${PREFIX}refund_decisions_total`,
      help: "Refund requests and decisions, by outcome (requested, approved, rejected, provider_failed)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    mediaTranscodes: new client.Counter({
      name: `${PREFIX}media_transcodes_total`,
      help: "Transcode jobs of uploaded masters, by outcome (done, skipped, failed, abandoned)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    mediaSteps: new client.Counter({
      name: `${PREFIX}media_steps_total`,
      help: "Steps of a transcode (hls, progressive, preview, downloads, storyboard), by outcome (done or failed)",
      labelNames: ["step", "outcome"] as const,
      registers,
    }),
    cacheLookups: new client.Counter({
      name: `${PREFIX}cache_lookups_total`,
      help: "Shared read-through cache lookups, by key prefix and result (hit or miss)",
      labelNames: ["prefix", "result"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

let current: Metrics | undefined;

/** The process's metrics, made on first use. */
export function metrics(): Metrics {
  return (current ??= createMetrics());
}

/** "SELECT", "INSERT", … from a statement's first word: a bounded label, never the text. */
export function statementKind(sql: string) {
  // Prisma reports a transaction's start and end as a comment: -- Implicit "BEGIN" query via underlying driver
  const word = (/^\s*--\s*Implicit "([a-z]+)"/i.exec(sql) ?? /^\s*(?:--[^\n]*\n\s*)*([a-z]+)/i.exec(sql))?.[1]?.toUpperCase();
  return word && STATEMENTS.has(word) ? word : "OTHER";
}
const STATEMENTS = new Set(["SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET"]);

/** Times one promise into a histogram; the labels may depend on how it ended. */
export async function timed<T>(observe: (seconds: number, error: unknown) => void, run: () => Promise<T>): Promise<T> {
  const start = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - start) / 1e9;
  try {
    const value = await run();
    observe(seconds(), undefined);
    return value;
  } catch (error) {
    observe(seconds(), error ?? new Error("rejected"));
    throw error;
  }
}
