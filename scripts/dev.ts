// `npm run dev`: Vite middleware with HMR, on the same database steps as `npm start`.
export {};
process.env.NODE_ENV ??= "development";

const { loadAppServer, startServer } = await import("../server.ts");
const { prepareDatabase } = await import("./prepare-database.ts");
// The app loaded through Vite: the database prepared here is the one the server then serves from.
const loaded = await loadAppServer("development");
const { getDb, getEnv } = loaded.appServer;

try {
  const env = getEnv();
  if ((await prepareDatabase(getDb())).firstRun) {
    console.log(`Admin sign-in: ${env.SEED_ADMIN_EMAIL} / ${env.SEED_ADMIN_PASSWORD}`);
  }
  await startServer({ loaded, port: env.PORT });
  console.log(`Medanim (development) at http://localhost:${env.PORT}`);
} catch (error) {
  console.error(`Medanim could not start: ${error instanceof Error ? error.message : String(error)}`);
  await getDb()
    .close()
    .catch(() => {});
  process.exit(1);
}
