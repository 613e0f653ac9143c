-- A guarded form's fields kept through the step-up detour (decision 034).
ALTER TABLE "Session" ADD COLUMN "keptForm" JSONB;
