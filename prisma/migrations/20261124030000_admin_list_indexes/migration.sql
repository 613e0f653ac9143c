-- The admin lists of subscriptions, newest first (all, or by status) and the dashboard's recent
-- subscriptions read these in order instead of sorting every matching row (measured with
-- `npm run bench -- --large`: 50,000 subscriptions).

-- CreateIndex
CREATE INDEX "Subscription_createdAt_idx" ON "Subscription"("createdAt" DESC);
CREATE INDEX "Subscription_status_createdAt_idx" ON "Subscription"("status", "createdAt" DESC);
