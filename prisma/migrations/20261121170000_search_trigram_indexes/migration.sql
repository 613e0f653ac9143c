-- Search matches title or description case-insensitively anywhere in the text (ILIKE '%term%').
-- Trigram GIN indexes serve that pattern; without them every search reads every animation.
-- The extension lives in "public" so that per-schema deployments (and test schemas) share it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- CreateIndex
CREATE INDEX "Animation_title_idx" ON "Animation" USING GIN ("title" public.gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Animation_description_idx" ON "Animation" USING GIN ("description" public.gin_trgm_ops);
