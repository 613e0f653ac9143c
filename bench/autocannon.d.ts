// The part of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number };
    type Result = {
      requests: Histogram & { total: number };
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    };
    type RequestData = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
    /** One request of a sequence each connection runs in a loop; setupRequest returning null ends the loop early. */
    type Request = RequestData & {
      // The context is the connection's own object, made afresh at each pass through the sequence.
      setupRequest?: (request: RequestData, context: any) => RequestData | null;
      onResponse?: (status: number, body: string, context: any, headers: Record<string, string | string[]>) => void;
    };
    /** A connection (autocannon's internal client), as setupClient receives it. */
    type Client = {
      requestIterator: { context: unknown };
      getRequestBuffer: () => Buffer;
      /** Sends the next request of the sequence; called after each answer and on connecting. */
      _doRequest: () => void;
      destroyed: boolean;
      on(event: "response", listener: (status: number, bytes: number, ms: number) => void): void;
      on(event: "timeout" | "connError", listener: () => void): void;
    };
    type Options = {
      url: string;
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
      requests?: Request[];
      timeout?: number;
      setupClient?: (client: Client) => void;
    };
  }
  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): unknown;
  export default autocannon;
}
