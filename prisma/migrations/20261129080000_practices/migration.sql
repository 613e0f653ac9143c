-- Practices (decision 030): a clinic as the customer, its members and their roles, invitations by
-- e-mail, and the practice a licence, a payment, a checkout or an invoice belongs to.
-- CreateEnum
CREATE TYPE "PracticeRole" AS ENUM ('owner', 'manager', 'viewer');

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "practiceId" UUID,
ADD COLUMN     "seats" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "practiceId" UUID;

-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "practiceId" UUID,
ADD COLUMN     "seats" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Invoice" ADD COLUMN     "practiceId" UUID;

-- CreateTable
CREATE TABLE "Practice" (
    "id" UUID NOT NULL,
    "legalName" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "taxId" TEXT,
    "billingEmail" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Practice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PracticeMember" (
    "userId" UUID NOT NULL,
    "practiceId" UUID NOT NULL,
    "role" "PracticeRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PracticeMember_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "PracticeInvitation" (
    "id" UUID NOT NULL,
    "practiceId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" "PracticeRole" NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "invitedById" UUID,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PracticeInvitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Practice_createdAt_idx" ON "Practice"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "PracticeMember_practiceId_role_idx" ON "PracticeMember"("practiceId", "role");

-- CreateIndex
CREATE UNIQUE INDEX "PracticeInvitation_tokenHash_key" ON "PracticeInvitation"("tokenHash");

-- CreateIndex
CREATE INDEX "PracticeInvitation_practiceId_createdAt_idx" ON "PracticeInvitation"("practiceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "PracticeInvitation_email_idx" ON "PracticeInvitation"("email");

-- CreateIndex
CREATE INDEX "Subscription_practiceId_status_endDate_idx" ON "Subscription"("practiceId", "status", "endDate");

-- CreateIndex
CREATE INDEX "Payment_practiceId_createdAt_idx" ON "Payment"("practiceId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Invoice_practiceId_issuedAt_idx" ON "Invoice"("practiceId", "issuedAt" DESC);

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_practiceId_fkey" FOREIGN KEY ("practiceId") REFERENCES "Practice"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_practiceId_fkey" FOREIGN KEY ("practiceId") REFERENCES "Practice"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_practiceId_fkey" FOREIGN KEY ("practiceId") REFERENCES "Practice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_practiceId_fkey" FOREIGN KEY ("practiceId") REFERENCES "Practice"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PracticeMember" ADD CONSTRAINT "PracticeMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PracticeMember" ADD CONSTRAINT "PracticeMember_practiceId_fkey" FOREIGN KEY ("practiceId") REFERENCES "Practice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PracticeInvitation" ADD CONSTRAINT "PracticeInvitation_practiceId_fkey" FOREIGN KEY ("practiceId") REFERENCES "Practice"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PracticeInvitation" ADD CONSTRAINT "PracticeInvitation_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

