-- Every catalogue screen shows how many active animations each category holds, and the
-- listings' totals are sums of those. Counting them at each read grows with the catalogue; a
-- count kept at each write does not. The triggers are per statement, with the changed rows as
-- transition tables: a bulk insert of a thousand animations updates each category once, not a
-- thousand times (row versions that an embedded database without autovacuum would keep).

-- AlterTable
ALTER TABLE "Category" ADD COLUMN "animationCount" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "category_animation_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch names only the transition tables its event has.
  IF TG_OP = 'INSERT' THEN
    UPDATE "Category" AS c SET "animationCount" = c."animationCount" + d."delta"
    FROM (SELECT "categoryId", count(*) AS "delta" FROM new_rows
          WHERE "isActive" AND "categoryId" IS NOT NULL GROUP BY 1) AS d
    WHERE c."id" = d."categoryId";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "Category" AS c SET "animationCount" = c."animationCount" - d."delta"
    FROM (SELECT "categoryId", count(*) AS "delta" FROM old_rows
          WHERE "isActive" AND "categoryId" IS NOT NULL GROUP BY 1) AS d
    WHERE c."id" = d."categoryId";
  ELSE
    UPDATE "Category" AS c SET "animationCount" = c."animationCount" + d."delta"
    FROM (SELECT "categoryId", sum("change") AS "delta"
          FROM (SELECT "categoryId", -1 AS "change" FROM old_rows WHERE "isActive" AND "categoryId" IS NOT NULL
                UNION ALL
                SELECT "categoryId", 1 FROM new_rows WHERE "isActive" AND "categoryId" IS NOT NULL) AS changes
          GROUP BY 1 HAVING sum("change") <> 0) AS d
    WHERE c."id" = d."categoryId";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Animation_categoryAnimationCount_insert"
  AFTER INSERT ON "Animation" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "category_animation_count"();

CREATE TRIGGER "Animation_categoryAnimationCount_update"
  AFTER UPDATE ON "Animation" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "category_animation_count"();

CREATE TRIGGER "Animation_categoryAnimationCount_delete"
  AFTER DELETE ON "Animation" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "category_animation_count"();

UPDATE "Category" AS c
SET "animationCount" = (SELECT count(*) FROM "Animation" AS a WHERE a."categoryId" = c."id" AND a."isActive");
