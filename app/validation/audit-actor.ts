// Browser-safe: who an audit row names, as the list and the API say it (decision 036).

/** The role an actor had when the row was written: an admin, a member acting on their own account, the system (a job), or a command on the server. */
export const ACTOR_ROLES = ["admin", "member", "system", "cli"] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];
export const ACTOR_ROLE_LABELS: Record<ActorRole, string> = { admin: "Admin", member: "Member", system: "System", cli: "CLI" };

/**
 * The role of an actor without an account, read from the e-mail the row keeps: `cli:<os user>@<host>`
 * for a command on the server, `system:<what>` for the app's own jobs.
 */
export function accountlessRole(actorEmail: string): ActorRole {
  return actorEmail.startsWith("cli:") ? "cli" : "system";
}
