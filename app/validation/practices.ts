import { z } from "zod";
import { BillingDetailsFields, BillingDetailsSchema } from "./invoicing.ts";

// Practices (decision 030): the forms' and the /api's shapes, and every message a member reads.
// Browser-safe: the pages import the messages and the labels.

export const PRACTICE_ROLES = ["owner", "manager", "viewer"] as const;
export type PracticeRole = (typeof PRACTICE_ROLES)[number];

export const ROLE_LABEL: Record<PracticeRole, string> = { owner: "Owner", manager: "Manager", viewer: "Viewer" };
/** What each role may do, as the practice page explains it. */
export const ROLE_DESCRIPTION: Record<PracticeRole, string> = {
  owner: "Everything a manager can, and invites, removes and changes the roles of members",
  manager: "Buys licenses for the practice, adds embed sites and sees billing",
  viewer: "Watches and downloads the practice's licensed animations and sees its certificates",
};

/** Seats every practice licence includes; more are priced per seat (setting practice_seat_price). */
export const INCLUDED_SEATS = 3;
/** How long an invitation link works. */
export const INVITATION_DAYS = 14;

export const PRACTICE_NOT_FOUND = "Practice not found";
export const MEMBER_NOT_FOUND = "Member not found";
export const INVITATION_NOT_FOUND = "Invitation not found";
export const ALREADY_IN_A_PRACTICE = "You already belong to a practice. Leave it before you create or join another.";
export const OWNERS_ONLY = "Only an owner of the practice can do this.";
export const MANAGERS_ONLY = "Only an owner or a manager of the practice can do this.";
export const INVITEE_IN_ANOTHER_PRACTICE = "This person already belongs to another practice. They must leave it before they can join yours.";
export const INVITEE_ALREADY_MEMBER = "This person is already a member of your practice.";
export const INVITATION_EXPIRED = "This invitation has expired. Ask the practice to send a new one.";
export const INVITATION_USED = "This invitation has already been used.";
export const INVITATION_REVOKED = "This invitation was withdrawn by the practice.";
export const INVITATION_OTHER_EMAIL = (email: string) => `This invitation was sent to ${email}. Sign in with that address to accept it.`;
export const LAST_OWNER = "A practice needs an owner. Make another member an owner first.";
export const seatsFull = (seats: number) =>
  `Your practice's licenses cover ${seats} people, counting open invitations. Remove a member or withdraw an invitation before inviting someone else.`;

const email = z
  .string({ error: "Email is required" })
  .trim()
  .toLowerCase()
  .min(1, "Email is required")
  .email("Invalid email address")
  .max(254, "Invalid email address");
const role = z.enum(PRACTICE_ROLES, { error: "Choose a role: owner, manager or viewer" });

/** The practice's details as its form's constraints read them (the billing details' fields). */
export const PracticeFields = BillingDetailsFields;
/** Create or edit a practice: the same rules as billing details (a VAT id in its country's shape). */
export const PracticeSchema = BillingDetailsSchema;
export type PracticeInput = z.output<typeof PracticeSchema>;

export const InvitationSchema = z.object({ email, role: role.default("viewer") });
export const RoleChangeSchema = z.object({ role });
export const AcceptInvitationSchema = z.object({
  token: z.string({ error: "The invitation link is incomplete" }).trim().min(20, "The invitation link is incomplete").max(200),
});
export const TransferSchema = z.object({ userId: z.string({ error: "Choose the new owner" }).uuid("Choose the new owner") });
