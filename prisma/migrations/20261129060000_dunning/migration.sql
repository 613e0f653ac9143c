-- Dunning: a renewal whose payment failed is retried (Stripe on its own schedule, test mode by
-- the billing sweep) while access continues; the licence ends only when the last retry fails.
ALTER TABLE "Subscription" ADD COLUMN "renewalDueAt" TIMESTAMP(3);
ALTER TABLE "Subscription" ADD COLUMN "failedRenewalAttempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Subscription" ADD COLUMN "nextRenewalAttemptAt" TIMESTAMP(3);
ALTER TABLE "Subscription" ADD COLUMN "endedAfterFailedPayments" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Subscription_nextRenewalAttemptAt_idx" ON "Subscription"("nextRenewalAttemptAt");
