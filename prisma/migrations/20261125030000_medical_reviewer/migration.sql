-- A medical review names the doctor who did it: "Medically reviewed by Dr. X (specialty) on …"
-- is printed from this record, never from the list of doctors linked to the animation.

-- AlterTable
ALTER TABLE "Animation" ADD COLUMN "medicalReviewerId" UUID;

-- CreateIndex
CREATE INDEX "Animation_medicalReviewerId_idx" ON "Animation"("medicalReviewerId");

-- AddForeignKey
ALTER TABLE "Animation" ADD CONSTRAINT "Animation_medicalReviewerId_fkey" FOREIGN KEY ("medicalReviewerId") REFERENCES "Doctor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Reviews recorded before this column said "reviewed by the animation's doctors": the first
-- doctor linked to the animation is named as its reviewer. A review with no linked doctor keeps
-- no reviewer, and so makes no claim until it is recorded again.
UPDATE "Animation" AS a
SET "medicalReviewerId" = (
  SELECT ad."doctorId" FROM "AnimationDoctor" AS ad
  WHERE ad."animationId" = a."id"
  ORDER BY ad."createdAt", ad."doctorId"
  LIMIT 1
)
WHERE a."medicallyReviewedAt" IS NOT NULL;

-- The demo's About page, terms and FAQ said every animation is reviewed before publishing, which
-- no record backed. Where they still hold the demo's words (an admin's edit is left alone), they
-- now describe what the review record shows.
UPDATE "Page" SET "content" = replace("content", '<h2>Verified by Doctors</h2>Every animation is scripted with a practising specialist and reviewed again before release. The doctor who verified an animation is named on its page, with a link to their profile.', '<h2>Reviewed by Doctors</h2>Each animation is made with the doctors named on it. One of them reviews it medically, and the review is a record: the animation''s page, its licensed embed and its license certificate say who reviewed it, on which date, and when the next review is due. An animation whose review is missing or out of date shows no review line at all.') WHERE "content" LIKE '%<h2>Verified by Doctors</h2>Every animation is scripted with a practising specialist%';
UPDATE "Page" SET "content" = replace("content", 'Our animations are reviewed by practising doctors and are intended for education.', 'Our animations are intended for education; an animation''s page shows its current medical review, when it has one.') WHERE "content" LIKE '%Our animations are reviewed by practising doctors and are intended for education.%';
UPDATE "Faq" SET "answer" = '<p>Medanim is a library of <strong>3D medical animations</strong> that explain conditions and procedures to patients, made with the doctors named on each one.</p>' WHERE "answer" = '<p>Medanim is a library of <strong>doctor-verified 3D medical animations</strong> that explain conditions and procedures to patients. Every animation is reviewed by a practising specialist before it is published.</p>';
UPDATE "Faq" SET "answer" = '<p>One of the doctors named on an animation reviews it medically. Its page then reads <em>Medically reviewed by</em> the doctor and their specialty, the date of the review and the date of the next one. When an animation has no review, or its next review date has passed, the page shows no review line until a doctor reviews it again. A doctor''s profile lists the animations they have currently reviewed.</p>' WHERE "answer" = '<p>Each animation names the doctors who verified it. Their profiles list their specialty and the other animations they reviewed.</p>';
UPDATE "Page" SET "metaDescription" = 'Medanim makes 3D medical animations that help patients understand their care.' WHERE "metaDescription" = 'Medanim makes doctor-verified 3D medical animations that help patients understand their care.';
