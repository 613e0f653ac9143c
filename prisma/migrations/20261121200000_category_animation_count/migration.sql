-- Every catalogue screen shows how many active animations each category holds, and the
-- listings' totals are sums of those. Counting them at each read grows with the catalogue; a
-- count kept by a trigger at each write does not.

-- AlterTable
ALTER TABLE "Category" ADD COLUMN "animationCount" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "category_animation_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."isActive" AND OLD."categoryId" IS NOT NULL THEN
    UPDATE "Category" SET "animationCount" = "animationCount" - 1 WHERE "id" = OLD."categoryId";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."isActive" AND NEW."categoryId" IS NOT NULL THEN
    UPDATE "Category" SET "animationCount" = "animationCount" + 1 WHERE "id" = NEW."categoryId";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "Animation_categoryAnimationCount"
  AFTER INSERT OR DELETE OR UPDATE OF "categoryId", "isActive" ON "Animation"
  FOR EACH ROW EXECUTE FUNCTION "category_animation_count"();

UPDATE "Category" AS c
SET "animationCount" = (SELECT count(*) FROM "Animation" AS a WHERE a."categoryId" = c."id" AND a."isActive");
