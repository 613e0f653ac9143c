// `npm start`: build when the sources changed, apply migrations, seed the demo data on first
// run, then serve the production build. Set NODE_ENV=production yourself for a real deployment:
// then SESSION_SECRET, JWT_SECRET and MFA_ENCRYPTION_KEY are required instead of generated.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const started = Date.now();
const args = new Set(process.argv.slice(2));
const dataDir = process.env.DATA_DIR ?? "data";

if (process.env.NODE_ENV !== "production") {
  // A local run of the production build: keep generated secrets under DATA_DIR so sessions
  // survive restarts, as development mode does.
  for (const name of ["SESSION_SECRET", "JWT_SECRET", "MFA_ENCRYPTION_KEY"]) {
    if (process.env[name]) continue;
    const file = path.join(dataDir, "secrets", `${name.toLowerCase()}.txt`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { mode: 0o600 });
    }
    process.env[name] = fs.readFileSync(file, "utf8").trim();
  }
  process.env.NODE_ENV = "production";
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

const serverBuild = path.join(process.env.BUILD_DIR ?? "build", "server/index.js");
const stale = !fs.existsSync(serverBuild) || ["app", "public"].some((dir) => fs.existsSync(dir) && newestMtime(dir) > fs.statSync(serverBuild).mtimeMs);
if (!args.has("--no-build") && stale) {
  console.log("Building the app...");
  const build = spawnSync("npx", ["react-router", "build"], { stdio: "inherit", env: process.env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { loadAppServer, startServer } = await import("../server.ts");
const { prepareDatabase } = await import("./prepare-database.ts");
// The built app: the database prepared here is the one the server then serves from.
const loaded = await loadAppServer("production");
const { getDb, getEnv } = loaded.appServer;

try {
  const env = getEnv();
  const { firstRun } = await prepareDatabase(getDb(), { seedOnFirstRun: !args.has("--no-seed") });
  await startServer({ loaded, port: env.PORT });
  const url = env.APP_URL ?? `http://localhost:${env.PORT}`;
  console.log(`\nMedanim is ready at ${url} (started in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (firstRun) {
    console.log(`Admin sign-in: ${env.SEED_ADMIN_EMAIL} / ${env.SEED_ADMIN_PASSWORD}`);
    console.log("Demo member:   member@medanim.local / member12345");
  }
} catch (error) {
  console.error(`\nMedanim could not start: ${error instanceof Error ? error.message : String(error)}`);
  await getDb()
    .close()
    .catch(() => {});
  process.exit(1);
}
