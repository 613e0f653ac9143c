import { prisma } from "~/lib/db.server.ts";
import type { Prisma } from "~/generated/prisma/client.ts";
import { formatLongDate, formatMoney } from "~/lib/format.ts";
import { appUrl, sendTemplatedEmail } from "~/lib/mail.server.ts";
import { getPaymentProvider } from "~/lib/payments/index.server.ts";
import { unsubscribeUrl } from "../admin/email-campaigns.server.ts";
import { activeLicenceWhere } from "../licensing/access.server.ts";
import { describeSubscription, SWEEP_BATCH } from "./subscriptions.server.ts";

// What the hourly billing sweep tells members before a term ends or renews: the reminder of a
// term that will not renew, and the notices of a coming renewal. Each mail is claimed on its row
// by a conditional update before it goes, so any number of instances may sweep at once; each
// respects emailRenewalReminders and carries the one-click link that turns it off.

const DAY_MS = 24 * 60 * 60 * 1000;
/** "Renewal reminders 7 days before the end of subscriptions that will not renew". */
export const RENEWAL_REMINDER_DAYS = 7;
/** Reminder e-mails 30 and 7 days before the renewal of an auto-renewing term, largest first. */
export const RENEWAL_NOTICE_DAYS = [30, 7] as const;

const ITEM_SELECT = { type: true, category: { select: { name: true } }, animation: { select: { title: true } } } as const;

/**
 * Which terms renew by themselves: auto-renew on, and a subscription the running mode renews
 * (test mode: its test_sub_… ids, through billing-sweep.server.ts; Stripe: its own ids). The
 * other kind, and rows with none (seeded history, an admin-reactivated term), simply end.
 */
export function renewalScopes(testMode: boolean): { renews: Prisma.SubscriptionWhereInput; willNotRenew: Prisma.SubscriptionWhereInput } {
  return testMode
    ? {
        renews: { autoRenew: true, stripeSubscriptionId: { startsWith: "test_sub_" } },
        willNotRenew: { OR: [{ autoRenew: false }, { stripeSubscriptionId: null }, { NOT: { stripeSubscriptionId: { startsWith: "test_sub_" } } }] },
      }
    : {
        renews: { autoRenew: true, AND: [{ stripeSubscriptionId: { not: null } }, { NOT: { stripeSubscriptionId: { startsWith: "test_sub_" } } }] },
        willNotRenew: { OR: [{ autoRenew: false }, { stripeSubscriptionId: null }, { stripeSubscriptionId: { startsWith: "test_sub_" } }] },
      };
}

/** The owners who get renewal reminders: active accounts with emailRenewalReminders on (the default). */
export const WANTS_RENEWAL_REMINDERS = {
  isActive: true,
  OR: [{ notificationPreferences: { is: null } }, { notificationPreferences: { is: { emailRenewalReminders: true } } }],
} satisfies Prisma.UserWhereInput;

/**
 * The renewal reminder ("7 days before the end of subscriptions that will not renew",
 * respecting emailRenewalReminders). "Will not renew" is the complement of renewalScopes'
 * `renews`: those terms simply end, so their owners are told; a term that renews by itself gets
 * the notices of its renewal instead (sendRenewalNotices below).
 *
 * Exactly once per term: each row is claimed with a conditional update of renewalReminderAt
 * (null → now) before the mail goes, so two instances sweeping at once send one mail. A mail
 * that could not be sent gives the claim back, so the next sweep tries again.
 */
export async function sendRenewalReminders(now = new Date()) {
  const horizon = new Date(now.getTime() + RENEWAL_REMINDER_DAYS * DAY_MS);
  const { willNotRenew } = renewalScopes(getPaymentProvider().name === "test");
  let sent = 0;
  const skipped = new Set<string>();
  for (;;) {
    const batch = await prisma.subscription.findMany({
      where: {
        ...willNotRenew,
        id: skipped.size ? { notIn: [...skipped] } : undefined,
        AND: [activeLicenceWhere(now), { endDate: { lte: horizon } }],
        renewalReminderAt: null,
        user: WANTS_RENEWAL_REMINDERS,
      },
      orderBy: { endDate: "asc" },
      take: SWEEP_BATCH,
      select: { id: true, endDate: true, ...ITEM_SELECT, user: { select: { id: true, email: true, firstName: true } } },
    });
    if (!batch.length) break;
    for (const s of batch) {
      const claim = await prisma.subscription.updateMany({ where: { id: s.id, renewalReminderAt: null }, data: { renewalReminderAt: now } });
      if (claim.count !== 1) continue;
      const ok = await sendTemplatedEmail({
        template: "renewal_reminder",
        to: s.user.email,
        userId: s.user.id,
        variables: {
          firstName: s.user.firstName,
          itemName: describeSubscription(s),
          endDate: formatLongDate(s.endDate),
          renewUrl: `${appUrl()}/billing`,
        },
        unsubscribeUrl: unsubscribeUrl(s.user.id, "renewal_reminders"),
      });
      if (ok) sent += 1;
      else {
        await prisma.subscription.updateMany({ where: { id: s.id, renewalReminderAt: now }, data: { renewalReminderAt: null } });
        // Not again in this run: the next sweep retries it.
        skipped.add(s.id);
      }
    }
    if (batch.length < SWEEP_BATCH) break;
  }
  return { sent };
}

/**
 * The notices of a coming renewal, for terms that renew by themselves (renewalScopes), to owners
 * who want renewal reminders: one at 30 days before the renewal, one at 7. A stage is due while
 * the renewal is within its days and beyond the next stage's, so a term first seen 5 days out
 * gets the 7-day notice only, not both. Each is claimed by a conditional update of
 * renewalNoticeDays (a larger stage or none → this one) before the mail goes, so two instances
 * sweeping at once send it once; a mail that could not go gives the claim back for the next sweep.
 */
export async function sendRenewalNotices(now = new Date()) {
  const { renews } = renewalScopes(getPaymentProvider().name === "test");
  let sent = 0;
  for (const [stage, days] of RENEWAL_NOTICE_DAYS.entries()) {
    const nextDays = RENEWAL_NOTICE_DAYS[stage + 1] ?? 0;
    const notYetSent = { OR: [{ renewalNoticeDays: null }, { renewalNoticeDays: { gt: days } }] };
    const skipped = new Set<string>();
    for (;;) {
      const batch = await prisma.subscription.findMany({
        where: {
          AND: [
            renews,
            activeLicenceWhere(now),
            { endDate: { gt: new Date(now.getTime() + nextDays * DAY_MS), lte: new Date(now.getTime() + days * DAY_MS) } },
            notYetSent,
            // A renewal already being retried is past its notices: its end date is a grace period.
            { nextRenewalAttemptAt: null },
            skipped.size ? { id: { notIn: [...skipped] } } : {},
          ],
          user: WANTS_RENEWAL_REMINDERS,
        },
        orderBy: { endDate: "asc" },
        take: SWEEP_BATCH,
        select: {
          id: true,
          endDate: true,
          price: true,
          renewalNoticeDays: true,
          type: true,
          category: { select: { name: true } },
          animation: { select: { title: true } },
          user: { select: { id: true, email: true, firstName: true } },
        },
      });
      for (const s of batch) {
        const claim = await prisma.subscription.updateMany({ where: { id: s.id, ...notYetSent }, data: { renewalNoticeDays: days } });
        if (claim.count !== 1) continue;
        const ok = await sendTemplatedEmail({
          template: "renewal_upcoming",
          to: s.user.email,
          userId: s.user.id,
          variables: {
            firstName: s.user.firstName,
            itemName: describeSubscription(s),
            renewalDate: formatLongDate(s.endDate),
            amount: formatMoney(s.price),
            days: String(days),
            billingUrl: `${appUrl()}/billing`,
          },
          unsubscribeUrl: unsubscribeUrl(s.user.id, "renewal_reminders"),
        });
        if (ok) sent += 1;
        else {
          await prisma.subscription.updateMany({ where: { id: s.id, renewalNoticeDays: days }, data: { renewalNoticeDays: s.renewalNoticeDays } });
          skipped.add(s.id);
        }
      }
      if (batch.length < SWEEP_BATCH) break;
    }
  }
  return { sent };
}
