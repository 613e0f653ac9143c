-- Payments: a purchase attempt is a CheckoutSession row (item and price fixed at the start);
-- a subscription knows whether it renews and when its renewal reminder went out.

-- CreateEnum
CREATE TYPE "CheckoutStatus" AS ENUM ('open', 'completed', 'declined', 'expired');

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN "autoRenew" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "renewalReminderAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "CheckoutSession" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "type" "SubscriptionType" NOT NULL,
    "animationId" UUID,
    "categoryId" UUID,
    "amount" DECIMAL(10,2) NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'usd',
    "description" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerSessionId" TEXT,
    "status" "CheckoutStatus" NOT NULL DEFAULT 'open',
    "failureMessage" TEXT,
    "subscriptionId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CheckoutSession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CheckoutSession_providerSessionId_key" ON "CheckoutSession"("providerSessionId");
CREATE INDEX "CheckoutSession_userId_createdAt_idx" ON "CheckoutSession"("userId", "createdAt" DESC);
CREATE INDEX "CheckoutSession_subscriptionId_idx" ON "CheckoutSession"("subscriptionId");
CREATE INDEX "CheckoutSession_animationId_idx" ON "CheckoutSession"("animationId");
CREATE INDEX "CheckoutSession_categoryId_idx" ON "CheckoutSession"("categoryId");

-- AddForeignKey
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_animationId_fkey" FOREIGN KEY ("animationId") REFERENCES "Animation"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "Category"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE SET NULL ON UPDATE CASCADE;
