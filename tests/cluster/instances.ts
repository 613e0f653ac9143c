import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

// One production instance of the app as `npm run serve` runs it (tsx server.ts with React
// Router's production build, on the build in build/, NODE_ENV=production), in a child process of
// its own, with Stripe's HTTP edge answered in that process by tests/cluster/stripe-edge.ts.

const ROOT = path.resolve(import.meta.dirname, "../..");

export type Instance = {
  name: string;
  url: string;
  child: ChildProcess;
  /** What the process printed: shown when a check fails. */
  output: string[];
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
};

export function startInstance(name: string, port: number, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", "./tests/cluster/stripe-edge.ts", "server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      BUILD_DIR: path.join(ROOT, "build"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 400) output.shift();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { name, url: `http://127.0.0.1:${port}`, child, output, exited };
}

/** Waits until the instance answers /healthz (it has migrated nothing: the test did). */
export async function waitUntilServing(instance: Instance, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void instance.exited.then(() => (ended = true));
  while (Date.now() < deadline) {
    if (ended) throw new Error(`${instance.name} ended before serving:\n${instance.output.join("")}`);
    const ok = await fetch(`${instance.url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${instance.name} did not serve within ${timeoutMs} ms:\n${instance.output.join("")}`);
}

/** A client's cookies, kept across requests to any instance (as behind one load balancer). */
export class CookieJar {
  private cookies = new Map<string, string>();

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
