-- One set of licence terms (decision 028): a versioned record that the licence FAQs, the Terms
-- page, every download's license.txt and the certificates render, and the version each licence
-- purchase accepted.

CREATE TABLE "LicenceTerms" (
    "version" INTEGER NOT NULL,
    "effectiveFrom" TIMESTAMP(3) NOT NULL,
    "grant" TEXT NOT NULL,
    "afterEnd" TEXT NOT NULL,
    "restrictions" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LicenceTerms_pkey" PRIMARY KEY ("version")
);

ALTER TABLE "Payment" ADD COLUMN "licenceTermsVersion" INTEGER;
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_licenceTermsVersion_fkey" FOREIGN KEY ("licenceTermsVersion") REFERENCES "LicenceTerms"("version") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "CheckoutSession" ADD COLUMN "licenceTermsVersion" INTEGER;
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_licenceTermsVersion_fkey" FOREIGN KEY ("licenceTermsVersion") REFERENCES "LicenceTerms"("version") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Version 1, in every database (a production one is never seeded, and checkout needs a version).
INSERT INTO "LicenceTerms" ("version", "effectiveFrom", "grant", "afterEnd", "restrictions") VALUES (
    1,
    '2026-11-29 00:00:00',
    'An individual license covers one animation; a category license covers every animation in its category, including those published while the license is active. While the license is active you may download the licensed animations'' files, embed them on the websites registered for the license, and use them in your practice''s communication: patient consultations, presentations, the waiting room, your website, social media and printed material.',
    'When the license ends (it expires without renewal, or is canceled or refunded), files you downloaded and materials you published while it was active may stay in use where they already are: pages and posts already online, presentations and printed material already distributed. From that day you may not download the files again or publish the animations anywhere new, the license''s embeds stop playing and its Premium streaming ends. Renew the license to keep embedding and downloading.',
    'You may not resell, sublicense or redistribute the animations as stock content, remove their copyright notices, or alter an animation in a way that changes its medical meaning. The license covers you and your practice. All medical animations are owned by Medanim and protected by copyright.'
);

-- The Terms page and the Help Center answer worded the licence themselves (and contradicted each
-- other): where they still hold the text they were seeded with, they now show the record instead.
-- A text an admin has changed is left alone.
UPDATE "Page" SET "content" = replace("content",
    'An individual license covers one animation; a category license covers every animation in a category. Both include the right to download the files and to show them to patients, on your website and on your social media channels, for the duration of the license. Files you downloaded while your license was active remain yours to use in the same way after it ends.',
    '{{licence-terms}}')
WHERE "slug" = 'terms-of-service';
UPDATE "Faq" SET "answer" = '{{licence-terms:after-end}}'
WHERE "answer" = '<p>Files you downloaded while your license was active <strong>stay yours permanently</strong> and may keep being used in the same way.</p>';
