-- The notices of an auto-renewing term's coming renewal (30 and 7 days before it): the smallest
-- stage sent for the current term, claimed by a conditional update, cleared on renewal.
ALTER TABLE "Subscription" ADD COLUMN "renewalNoticeDays" INTEGER;
