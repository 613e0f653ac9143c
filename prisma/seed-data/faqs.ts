import { LICENCE_TERMS_AFTER_END_PLACEHOLDER } from "../../app/services/licensing/licence-terms-text.ts";

export type FaqCategorySeed = {
  slug: string;
  name: string;
  description: string;
  sortOrder: number;
  faqs: { question: string; answer: string; isActive?: false }[];
};

// Answers are HTML (sanitised when rendered).
export const FAQ_CATEGORIES: FaqCategorySeed[] = [
  {
    slug: "general",
    name: "General",
    description: "What Medanim is and how the library works.",
    sortOrder: 1,
    faqs: [
      {
        question: "What is Medanim?",
        answer:
          "<p>Medanim is a library of <strong>3D medical animations</strong> that explain conditions and procedures to patients, made with the doctors named on each one.</p>",
      },
      {
        question: "Can I watch animations without an account?",
        answer:
          "<p>Yes. Anyone can browse the library and watch the <strong>10-second preview</strong> of every animation. A premium subscription or a license unlocks the full videos.</p>",
      },
      {
        question: "How often are new animations added?",
        answer:
          "<p>New animations are added every week. You can ask to be told about them by turning on <strong>New animations</strong> in your notification settings.</p>",
      },
      {
        question: "Who checks the medical accuracy?",
        answer:
          "<p>One of the doctors named on an animation reviews it medically. Its page then reads <em>Medically reviewed by</em> the doctor and their specialty, the date of the review and the date of the next one. When an animation has no review, or its next review date has passed, the page shows no review line until a doctor reviews it again. A doctor's profile lists the animations they have currently reviewed.</p>",
      },
    ],
  },
  {
    slug: "billing-subscriptions",
    name: "Billing & Subscriptions",
    description: "Payments, renewals, cancellations and refunds.",
    sortOrder: 2,
    faqs: [
      {
        question: "What does the premium subscription include?",
        answer:
          "<p>Premium gives you unlimited streaming of every animation for one year.</p><ul><li>Full-length videos in the browser</li><li>New animations as soon as they are released</li><li>No download or commercial rights: those come with a license</li></ul>",
      },
      {
        question: "Can I cancel at any time?",
        answer: "<p>Yes. When you cancel, you keep access <strong>until the end of the period you paid for</strong>, and you are not charged again.</p>",
      },
      {
        question: "How do I ask for a refund?",
        answer:
          "<p>Open <strong>Billing</strong> in your account and choose <em>Request refund</em> next to the payment. We offer a <strong>30-day money-back guarantee</strong> on every purchase; our team answers within two business days.</p>",
      },
      {
        question: "Which payment methods do you accept?",
        answer: "<p>All major credit and debit cards. Payments are processed by our payment provider; we never see your full card number.</p>",
      },
      {
        question: "Do you offer invoices for my clinic?",
        answer:
          "<p>Every payment appears in your billing history with its description and amount. For a formal invoice with your clinic's details, write to us through the contact page.</p>",
        isActive: false,
      },
    ],
  },
  {
    slug: "licensing",
    name: "Licensing",
    description: "Individual and category licenses and what they allow.",
    sortOrder: 3,
    faqs: [
      {
        question: "What is the difference between an individual and a category license?",
        answer:
          "<p>An <strong>individual license</strong> covers one animation. A <strong>category license</strong> covers every animation in a category, including those added during your license year.</p><p>Both include download rights, commercial usage rights and premium streaming.</p>",
      },
      {
        question: "Where may I use licensed animations?",
        answer:
          "<ul><li>In consultations and waiting rooms</li><li>On your practice website</li><li>On your social media channels</li><li>In presentations and patient seminars</li></ul><p>You may not resell them or offer them as stock content.</p>",
      },
      {
        question: "What happens to my downloads when a license ends?",
        answer: LICENCE_TERMS_AFTER_END_PLACEHOLDER,
      },
      {
        question: "Which file formats are provided?",
        answer: "<p>Each animation's page lists the resolution of its video and the formats in its download package.</p>",
      },
    ],
  },
  {
    slug: "technical-support",
    name: "Technical Support",
    description: "Playback, downloads and account access.",
    sortOrder: 4,
    faqs: [
      {
        question: "The video does not play. What can I do?",
        answer:
          "<p>Try these steps:</p><ul><li>Reload the page</li><li>Use a current version of Chrome, Firefox, Safari or Edge</li><li>Check that your network does not block video streaming</li></ul><p>If it still fails, contact us with the animation's name.</p>",
      },
      {
        question: "I did not receive the verification email.",
        answer: "<p>Check your spam folder first. You can send a new link from your <strong>Profile</strong> page; each link is valid for 24 hours.</p>",
      },
      {
        question: "How do I reset my password?",
        answer: "<p>Choose <strong>Forgot password?</strong> on the sign-in page and enter your email address. The link we send is valid for one hour.</p>",
      },
    ],
  },
];
