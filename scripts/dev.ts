// `npm run dev`: Vite middleware with HMR, on the same database steps as `npm start`.
export {};
process.env.NODE_ENV ??= "development";

const { getEnv } = await import("../app/lib/env.server.ts");
const { getDb } = await import("../app/lib/db.server.ts");
const { startServer } = await import("../server.ts");
const { prepareDatabase } = await import("./prepare-database.ts");

try {
  const env = getEnv();
  if ((await prepareDatabase()).firstRun) {
    console.log(`Admin sign-in: ${env.SEED_ADMIN_EMAIL} / ${env.SEED_ADMIN_PASSWORD}`);
  }
  await startServer({ port: env.PORT, mode: "development" });
  console.log(`Medanim (development) at http://localhost:${env.PORT}`);
} catch (error) {
  console.error(`Medanim could not start: ${error instanceof Error ? error.message : String(error)}`);
  await getDb().close().catch(() => {});
  process.exit(1);
}
