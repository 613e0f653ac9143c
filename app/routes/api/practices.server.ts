import { getPractice } from "~/services/practices/practices.server.ts";

// The answer of GET /api/practices/{id} and of the calls that change a practice.
export async function practiceAnswer(user: { id: string; email: string }, practiceId: string) {
  const { practice, role, members, invitations, seats, activeLicences } = await getPractice(user, practiceId);
  return { ...practice, role, members, invitations, seats, activeLicenses: activeLicences };
}
