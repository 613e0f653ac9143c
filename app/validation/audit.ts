// Browser-safe: the audit list's filter offers these.

/** Every entity type an admin write records (services/admin/audit.server.ts). */
export const AUDIT_ENTITY_TYPES = [
  "animation",
  "caption",
  "category",
  "doctor",
  "faq",
  "page",
  "setting",
  "user",
  "subscription",
  "refund",
  "email_template",
  "email_campaign",
  // Second factors, step-ups and ended sessions of any account.
  "security",
  // A practice, its members and invitations (the members' own changes are recorded too).
  "practice",
  // A misuse report's change of state and the replies to its reporter (the misuse inbox).
  "misuse_report",
] as const;

export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];
