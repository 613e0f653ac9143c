-- Patient links: a licensee's link to its licensed animations for a patient (issue 46).
CREATE TABLE "PatientLink" (
    "id" UUID NOT NULL,
    "token" TEXT NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "createdById" UUID NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "note" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT 'en',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "recipientEmail" TEXT,
    "sentAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "firstOpenedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PatientLink_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "PatientLink_token_key" ON "PatientLink"("token");
CREATE INDEX "PatientLink_subscriptionId_createdAt_idx" ON "PatientLink"("subscriptionId", "createdAt" DESC);
ALTER TABLE "PatientLink" ADD CONSTRAINT "PatientLink_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "PatientLink" ADD CONSTRAINT "PatientLink_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "PatientLinkAnimation" (
    "linkId" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    CONSTRAINT "PatientLinkAnimation_pkey" PRIMARY KEY ("linkId", "animationId")
);
CREATE INDEX "PatientLinkAnimation_animationId_idx" ON "PatientLinkAnimation"("animationId");
ALTER TABLE "PatientLinkAnimation" ADD CONSTRAINT "PatientLinkAnimation_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "PatientLink"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "PatientLinkAnimation" ADD CONSTRAINT "PatientLinkAnimation_animationId_fkey" FOREIGN KEY ("animationId") REFERENCES "Animation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
