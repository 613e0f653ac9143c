import type { PageType } from "../../app/generated/prisma/client.ts";
import { LICENCE_TERMS_PLACEHOLDER } from "../../app/services/licensing/licence-terms-text.ts";

export type PageSeed = {
  slug: string;
  title: string;
  type: PageType;
  metaDescription: string;
  metaKeywords?: string;
  isPublished: boolean;
  showInFooter: boolean;
  content: string;
};

// The content page turns line breaks into <br> and sanitises the HTML, so pages are written as
// short HTML headings followed by plain paragraphs separated by blank lines.
const sections = (...parts: [heading: string, ...paragraphs: string[]][]) =>
  parts.map(([heading, ...paragraphs]) => `<h2>${heading}</h2>${paragraphs.join("\n\n")}`).join("\n\n");

export const PAGES: PageSeed[] = [
  {
    slug: "terms-of-service",
    title: "Terms of Service",
    type: "legal",
    isPublished: true,
    showInFooter: true,
    metaDescription: "The terms that apply when you browse, subscribe to or license animations from Medanim.",
    metaKeywords: "terms of service, license, subscription, medical animations",
    content: sections(
      [
        "1. About These Terms",
        "These terms govern your use of the Medanim website, its streaming library and the licenses sold on it. By creating an account or making a purchase you agree to them. If you use Medanim on behalf of a clinic or company, you confirm that you may bind that organisation to these terms.",
      ],
      [
        "2. Your Account",
        "You must give accurate information when you register and keep your password secret. You are responsible for everything done with your account. Tell us at once if you believe someone else has used it.",
        "We may suspend an account that breaks these terms, that is used to share paid content with people who have not paid for it, or that puts the security of the service at risk.",
      ],
      [
        "3. Subscriptions and Licenses",
        "A premium subscription lets you stream every animation in the library for one year. It does not include download or commercial usage rights.",
        // The licence section is the current LicenceTerms version, filled in when the page is read.
        LICENCE_TERMS_PLACEHOLDER,
      ],
      [
        "4. Payments and Refunds",
        "Prices are shown in US dollars and are charged in advance for the whole period. If you are not satisfied, you may ask for a refund within 30 days of a payment using the refund form in your account. Approved refunds end the related subscription or license.",
      ],
      [
        "5. What You May Not Do",
        "You may not resell, sublicense or redistribute the animations as stock content, remove our copyright notices, alter an animation in a way that changes its medical meaning, or try to download videos you have not licensed.",
      ],
      [
        "6. Medical Information",
        "Our animations are intended for education; an animation's page shows its current medical review, when it has one. They do not replace the advice of a qualified professional about an individual patient.",
      ],
      [
        "7. Changes and Contact",
        "We may update these terms; the date of the latest change is shown on this page. Questions about these terms can be sent through the contact page.",
      ],
    ),
  },
  {
    slug: "privacy-policy",
    title: "Privacy Policy",
    type: "legal",
    isPublished: true,
    showInFooter: true,
    metaDescription: "What personal data Medanim collects, why, how long it is kept and how to exercise your rights.",
    metaKeywords: "privacy, personal data, cookies, GDPR",
    content: sections(
      [
        "What We Collect",
        "When you create an account we store your name, username, email address and a securely hashed password. When you buy a subscription or license we store what you bought, when, and the amount paid. Card details are handled by our payment provider and never reach our servers.",
        "We also keep technical records needed to run the service safely: the time of sign-ins, your IP address for rate limiting and fraud prevention, and which animations you open.",
      ],
      [
        "Why We Use It",
        "We use your data to provide the library and the licenses you paid for, to send emails you need (verification, receipts, password resets, refund decisions) and, if you agree in your notification settings, news about new animations and offers.",
      ],
      [
        "Cookies",
        "We use one essential session cookie to keep you signed in and a short-lived cookie to show notifications after a form is sent. We do not use advertising cookies.",
      ],
      [
        "How Long We Keep It",
        "Account data is kept while your account exists. Payment records are kept for as long as tax law requires. Expired sessions and one-time links are deleted automatically.",
      ],
      [
        "Your Rights",
        "You can see and correct your details on your profile page and change your email preferences at any time. To export or delete your data, write to us through the contact page and we will answer within 30 days.",
      ],
    ),
  },
  {
    slug: "about",
    title: "About Us",
    type: "company",
    isPublished: true,
    showInFooter: false,
    metaDescription: "Medanim makes 3D medical animations that help patients understand their care.",
    metaKeywords: "about Medanim, medical animation studio, patient education",
    content: sections(
      [
        "Our Mission",
        "Medanim exists to make medicine easier to understand. A patient who can see what will happen during an operation arrives calmer, asks better questions and recovers with fewer surprises.",
        "We build short, accurate 3D animations of conditions and procedures, and we make them available to patients, clinics and educators in one library.",
      ],
      [
        "Reviewed by Doctors",
        "Each animation is made with the doctors named on it. One of them reviews it medically, and the review is a record: the animation's page, its licensed embed and its license certificate say who reviewed it, on which date, and when the next review is due. An animation whose review is missing or out of date shows no review line at all.",
      ],
      [
        "Who Uses Medanim",
        "Surgeons show our animations during consultations, clinics embed them on their websites, hospitals use them in waiting rooms, and students use them to revise. New animations are added every week.",
      ],
      [
        "Get in Touch",
        "We would like to hear which procedures you want to see next. Write to us through the contact page, or read the answers to common questions in the help centre.",
      ],
    ),
  },
  {
    slug: "licensing-guide",
    title: "Licensing Guide",
    type: "other",
    isPublished: false,
    showInFooter: false,
    metaDescription: "Which Medanim license fits your practice: premium streaming, individual or category licenses.",
    content: sections([
      "Choosing a License",
      "Draft: this guide compares premium streaming, individual licenses and category licenses for clinics of different sizes. It will be published once the pricing examples have been reviewed.",
    ]),
  },
];
