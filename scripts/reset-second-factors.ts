// Recovers an account whose owner lost every second factor: `npm run mfa:reset -- user@example.com`.
// Removes its authenticator app, passkeys and recovery codes, ends its sessions and API tokens,
// and records it in the audit log under the OS user and host that ran it. Uses the app's own
// configuration (DATABASE_URL, else DATA_DIR's embedded database).
import { getDb } from "../app/lib/db.server.ts";
import { ServiceError } from "../app/lib/errors.server.ts";
import { cliActor, describeFactorReset, resetSecondFactors } from "../app/services/auth/factor-reset.server.ts";

const email = process.argv[2]?.trim();
if (!email || process.argv.length > 3) {
  console.error("Usage: npm run mfa:reset -- <e-mail address of the account>");
  process.exitCode = 2;
} else {
  const db = getDb();
  try {
    const actor = cliActor();
    const reset = await resetSecondFactors(email, actor);
    console.log(`Second factors reset for ${reset.email}: ${describeFactorReset(reset)}.`);
    console.log(
      `Recorded in the audit log as security.factors_reset by ${actor.email}. The owner signs in with the password and sets up a new factor (an admin is walked through it).`,
    );
  } catch (error) {
    console.error(error instanceof ServiceError ? `${error.message}: ${email}` : error);
    process.exitCode = 1;
  } finally {
    await db.close();
  }
}
