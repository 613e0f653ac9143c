-- The admin dashboard's figures without counting big tables on every view: row counts of User
-- and Animation, and revenue per calendar month (completed payments), kept by per-statement
-- triggers (transition tables: a bulk insert updates each counter once). Refunded or failed
-- payments leave the month's revenue when their status changes.

CREATE TABLE "RowCount" (
    "table" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "RowCount_pkey" PRIMARY KEY ("table")
);

CREATE TABLE "RevenueMonth" (
    "month" DATE NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "payments" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RevenueMonth_pkey" PRIMARY KEY ("month")
);

CREATE FUNCTION "row_count_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "RowCount" SET "count" = "count" + (SELECT count(*) FROM new_rows) WHERE "table" = TG_TABLE_NAME;
  ELSE
    UPDATE "RowCount" SET "count" = "count" - (SELECT count(*) FROM old_rows) WHERE "table" = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "User_rowCount_insert" AFTER INSERT ON "User" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_count_track"();
CREATE TRIGGER "User_rowCount_delete" AFTER DELETE ON "User" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_count_track"();
CREATE TRIGGER "Animation_rowCount_insert" AFTER INSERT ON "Animation" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_count_track"();
CREATE TRIGGER "Animation_rowCount_delete" AFTER DELETE ON "Animation" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "row_count_track"();

INSERT INTO "RowCount" ("table", "count") VALUES
  ('User', (SELECT count(*) FROM "User")),
  ('Animation', (SELECT count(*) FROM "Animation"));

CREATE FUNCTION "revenue_month_track"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "RevenueMonth" AS r ("month", "amount", "payments")
    SELECT date_trunc('month', "createdAt")::date, sum("amount"), count(*) FROM new_rows WHERE "status" = 'completed' GROUP BY 1
    ON CONFLICT ("month") DO UPDATE SET "amount" = r."amount" + EXCLUDED."amount", "payments" = r."payments" + EXCLUDED."payments";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "RevenueMonth" AS r SET "amount" = r."amount" - d."amount", "payments" = r."payments" - d."payments"
    FROM (SELECT date_trunc('month', "createdAt")::date AS "month", sum("amount") AS "amount", count(*) AS "payments"
          FROM old_rows WHERE "status" = 'completed' GROUP BY 1) AS d
    WHERE r."month" = d."month";
  ELSE
    INSERT INTO "RevenueMonth" AS r ("month", "amount", "payments")
    SELECT "month", sum("amount"), sum("payments") FROM (
      SELECT date_trunc('month', "createdAt")::date AS "month", -"amount" AS "amount", -1 AS "payments" FROM old_rows WHERE "status" = 'completed'
      UNION ALL
      SELECT date_trunc('month', "createdAt")::date, "amount", 1 FROM new_rows WHERE "status" = 'completed'
    ) AS changes GROUP BY 1 HAVING sum("amount") <> 0 OR sum("payments") <> 0
    ON CONFLICT ("month") DO UPDATE SET "amount" = r."amount" + EXCLUDED."amount", "payments" = r."payments" + EXCLUDED."payments";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Payment_revenueMonth_insert" AFTER INSERT ON "Payment" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_month_track"();
CREATE TRIGGER "Payment_revenueMonth_update" AFTER UPDATE ON "Payment" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_month_track"();
CREATE TRIGGER "Payment_revenueMonth_delete" AFTER DELETE ON "Payment" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_month_track"();

INSERT INTO "RevenueMonth" ("month", "amount", "payments")
SELECT date_trunc('month', "createdAt")::date, sum("amount"), count(*) FROM "Payment" WHERE "status" = 'completed' GROUP BY 1;

-- Active subscriptions are counted through this index (status, then the end date).
CREATE INDEX "Subscription_status_endDate_idx" ON "Subscription"("status", "endDate");
