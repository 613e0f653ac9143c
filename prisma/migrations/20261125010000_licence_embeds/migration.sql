-- Licensed embeds: the sites a licence may be framed by, and plays per licence, animation and
-- embedding host (one upsert per playback start).

CREATE TABLE "LicenceEmbedDomain" (
    "id" UUID NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "host" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LicenceEmbedDomain_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "LicenceEmbedDomain_subscriptionId_host_key" ON "LicenceEmbedDomain"("subscriptionId", "host");
ALTER TABLE "LicenceEmbedDomain" ADD CONSTRAINT "LicenceEmbedDomain_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "EmbedPlay" (
    "subscriptionId" UUID NOT NULL,
    "animationId" UUID NOT NULL,
    "host" TEXT NOT NULL,
    "plays" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EmbedPlay_pkey" PRIMARY KEY ("subscriptionId", "animationId", "host")
);
CREATE INDEX "EmbedPlay_animationId_idx" ON "EmbedPlay"("animationId");
ALTER TABLE "EmbedPlay" ADD CONSTRAINT "EmbedPlay_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "EmbedPlay" ADD CONSTRAINT "EmbedPlay_animationId_fkey" FOREIGN KEY ("animationId") REFERENCES "Animation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
