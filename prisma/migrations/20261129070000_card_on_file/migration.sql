-- The member's card on file (what /billing shows; the provider holds the card itself), and each
-- attempt to replace it through the provider's hosted page (test mode: its own test page).
ALTER TABLE "User" ADD COLUMN "cardBrand" TEXT;
ALTER TABLE "User" ADD COLUMN "cardLast4" TEXT;
ALTER TABLE "User" ADD COLUMN "cardExpMonth" INTEGER;
ALTER TABLE "User" ADD COLUMN "cardExpYear" INTEGER;

-- CreateTable
CREATE TABLE "CardSetup" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "providerSetupId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "CardSetup_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CardSetup_userId_createdAt_idx" ON "CardSetup"("userId", "createdAt" DESC);

-- AddForeignKey
ALTER TABLE "CardSetup" ADD CONSTRAINT "CardSetup_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
