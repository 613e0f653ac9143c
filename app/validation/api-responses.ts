import { z } from "zod";

// What the public and member /api calls answer, as zod schemas: the OpenAPI document
// (GET /api/openapi.json) is generated from them, and the integration suite validates every
// answer it receives against that document, so a field added, renamed or left null without
// being written here fails a test. Admin answers are in api-responses-admin.ts.
//
// Named schemas are registered in `apiSchemas` and become `components/schemas` entries.

export const apiSchemas = new Map<z.ZodType, string>();

/** Registers a schema under its component name and returns it. */
export function named<S extends z.ZodType>(id: string, schema: S): S {
  apiSchemas.set(schema, id);
  return schema;
}

export const isoDate = z.iso.datetime({ offset: true });
export const money = z.number().describe("US dollars");
/** A category's licence price as every page shows it and checkout charges it. */
const licencePrice = money
  .nullable()
  .describe(
    "US dollars a year: what a license for this category costs (the default 299 when the admin set none); null for a main category, which is not sold as a whole",
  );
export const ref = z.object({ id: z.string(), name: z.string(), slug: z.string() });

export const ErrorResponse = named(
  "Error",
  z
    .object({
      message: z.string().describe("A sentence for the user, from the product's error catalogue"),
      errors: z.record(z.string(), z.array(z.string())).optional().describe("Messages per field (400)"),
      stepUpRequired: z.boolean().optional().describe("403: confirm a second factor at POST /api/auth/step-up, then repeat the call"),
      secondFactorRequired: z.boolean().optional().describe("403: an admin must set up a second factor (on /profile) before any admin call"),
    })
    .describe("Every failure of every call: the message, and for bad input the messages per field"),
);

export const MessageResponse = named("Message", z.object({ message: z.string() }));

// ---- accounts ----

export const User = named(
  "User",
  z.object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: z.enum(["user", "admin"]),
    accountType: z.enum(["free", "premium"]),
    isEmailVerified: z.boolean(),
    isActive: z.boolean(),
    createdAt: isoDate,
  }),
);

export const UserResponse = named("UserResponse", z.object({ user: User }));
export const UserMessageResponse = z.object({ message: z.string(), user: User });
export const Tokens = named(
  "Tokens",
  z.object({ accessToken: z.string().describe("JWT, 15 minutes"), refreshToken: z.string().describe("opaque, 30 days, single use") }),
);
export const SignInResponse = Tokens.extend({ user: User });
export const MfaChallengeResponse = named(
  "MfaChallenge",
  z.object({
    mfaRequired: z.literal(true),
    mfaToken: z.string().describe("single use, 5 minutes: send it with a code to POST /api/auth/mfa/verify"),
  }),
);
export const LoginResponse = z.union([SignInResponse, MfaChallengeResponse]);
export const RegisterResponse = SignInResponse.extend({ message: z.string() });

/** One place the account is signed in: a browser session or an /api sign-in (a refresh-token family). */
export const AccountSession = named(
  "AccountSession",
  z.object({
    kind: z.enum(["session", "token"]).describe("session: a browser; token: an /api client's refresh-token family"),
    id: z.string().describe("What DELETE /api/auth/sessions/{id} takes; not a credential"),
    device: z.string().describe('From the user agent: "Chrome on macOS", or an API client\'s name'),
    place: z.string().nullable().describe("Approximate, from the address, when the server knows it"),
    ipAddress: z.string().nullable(),
    createdAt: isoDate.describe("The sign-in"),
    lastUsedAt: isoDate.describe("A session's last request (to within minutes), a family's last refresh"),
    current: z.boolean().describe("The session or family of this call"),
  }),
);
export const AccountSessions = named("AccountSessions", z.object({ sessions: z.array(AccountSession) }));
export const AccountSessionsEnded = named(
  "AccountSessionsEnded",
  z.object({ message: z.string(), ended: z.number().int().describe("How many sessions and API sign-ins were ended") }),
);

export const NotificationPreferences = named(
  "NotificationPreferences",
  z.object({
    emailNewAnimations: z.boolean(),
    emailPromotions: z.boolean(),
    emailSubscriptionUpdates: z.boolean(),
    emailSecurityAlerts: z.boolean(),
    emailNewsletter: z.boolean(),
    emailRenewalReminders: z.boolean(),
  }),
);

const subscriptionType = z.enum(["global", "category", "individual"]);
const subscriptionStatus = z.enum(["active", "canceled", "expired", "pending"]);

export const OwnSubscription = named(
  "Subscription",
  z.object({
    id: z.string(),
    type: subscriptionType,
    status: subscriptionStatus,
    animationId: z.string().nullable(),
    animationTitle: z.string().nullable(),
    categoryId: z.string().nullable(),
    categoryName: z.string().nullable(),
    startDate: isoDate.nullable(),
    endDate: isoDate.nullable(),
    price: money,
  }),
);

export const OwnPayment = named(
  "Payment",
  z.object({
    id: z.string(),
    description: z.string(),
    subscriptionType: subscriptionType.nullable(),
    amount: money,
    status: z.enum(["pending", "completed", "failed", "refunded"]),
    createdAt: isoDate,
  }),
);

const party = { name: z.string(), address: z.string().nullable(), country: z.string().nullable(), taxId: z.string().nullable() };

export const InvoiceSummary = named(
  "InvoiceSummary",
  z.object({
    id: z.string(),
    kind: z.enum(["invoice", "credit_note"]),
    number: z.string().describe("The series and its gapless number, e.g. INV-000042 or CN-000003"),
    issuedAt: isoDate,
    description: z.string(),
    currency: z.string(),
    total: z.number().describe("In the invoice's currency, tax included; negative on a credit note"),
    paymentId: z.string().nullable(),
  }),
);

export const InvoiceDetail = named(
  "Invoice",
  InvoiceSummary.extend({
    title: z.enum(["Invoice", "Credit note"]),
    credits: z.string().nullable().describe("A credit note: the number of the invoice it credits"),
    seller: z.object({ name: z.string(), address: z.string(), taxId: z.string() }),
    buyer: z.object({ ...party, address: z.string().nullable(), email: z.string() }),
    net: z.number(),
    taxRate: z.number().describe("Percent"),
    tax: z.number(),
    taxNote: z.string().nullable().describe("E.g. the reverse-charge statement"),
    paymentReference: z.string().nullable(),
    licenceTermsVersion: z.number().int().nullable().describe("The license terms version the purchase accepted (licences only)"),
  }),
);

export const BillingDetails = named(
  "BillingDetails",
  z.object({ legalName: z.string(), address: z.string(), country: z.string(), taxId: z.string().nullable(), billingEmail: z.string().nullable() }),
);

export const DashboardStats = z.object({ totalSpent: money, activeSubscriptions: z.number().int(), licensedAnimations: z.number().int() });

export const LibraryAnimation = named(
  "LibraryAnimation",
  z.object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    coverImage: z.string().nullable(),
    duration: z.number().int(),
    categoryName: z.string().nullable(),
    licenseType: z.enum(["individual", "category", "other"]),
    licenceId: z.string(),
    expiryDate: isoDate.nullable(),
  }),
);

export const DownloadableAnimation = named(
  "DownloadableAnimation",
  LibraryAnimation.extend({
    /** Null while the animation has nothing to package yet (its media are still being made). */
    packageHref: z.string().nullable(),
    files: z.array(
      z.object({
        name: z.string(),
        href: z.string(),
        kind: z.enum(["video", "captions", "transcript", "terms", "extra", "readme"]),
        format: z.string(),
        label: z.string(),
        width: z.number().int().nullable(),
        height: z.number().int().nullable(),
        duration: z.number().nullable(),
        /** Null for files written at download time (SubRip, transcripts, texts). */
        size: z.number().int().nullable(),
        contentType: z.string(),
      }),
    ),
    downloads: z.object({ count: z.number().int(), lastAt: isoDate.nullable() }),
  }),
);

export const Checkout = named(
  "Checkout",
  z.object({
    checkoutId: z.string(),
    provider: z.enum(["test", "stripe"]),
    clientSecret: z.string().optional().describe("for the embedded payment form"),
    licenseTermsVersion: z
      .number()
      .int()
      .nullable()
      .describe("The license terms version paying accepts (the Terms of Service page, /terms-of-service, states it); null for premium, which is not a license"),
    url: z.string().optional().describe("the hosted payment page"),
  }),
);

const checkoutBase = { checkoutId: z.string(), description: z.string(), amount: money };
export const CheckoutResult = named(
  "CheckoutResult",
  z.discriminatedUnion("status", [
    z.object({
      ...checkoutBase,
      status: z.literal("paid"),
      type: subscriptionType,
      nextPath: z.string(),
      animationId: z.string().nullable(),
      endDate: isoDate.nullable().describe("Until when the bought access runs"),
      paymentId: z.string().nullable().describe("The payment whose receipt is /billing/receipts/{paymentId}"),
    }),
    z.object({ ...checkoutBase, status: z.literal("failed"), message: z.string() }),
    z.object({ ...checkoutBase, status: z.literal("pending") }),
  ]),
);

export const PaymentConfirmed = z.object({ message: z.string(), subscription: OwnSubscription });

export const RefundRequestCreated = z.object({
  message: z.string(),
  refundRequest: z.object({
    id: z.string(),
    paymentId: z.string(),
    reason: z.string(),
    description: z.string().nullable(),
    contactEmail: z.string().nullable(),
    status: z.enum(["pending", "approved", "rejected", "processed"]),
    createdAt: isoDate,
  }),
});

export const Created = z.object({ id: z.string(), message: z.string() });

// ---- catalogue ----

export const DoctorSummary = named(
  "DoctorSummary",
  z.object({ id: z.string(), slug: z.string(), name: z.string(), specialty: z.string(), photo: z.string().nullable() }),
);

const animationCardFields = {
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  coverImage: z.string().nullable(),
  previewVideo: z.string().nullable().describe("the public 10-second preview"),
  duration: z.number().int().describe("seconds"),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  individualPrice: money.describe("US dollars a year: what its individual license costs, the amount checkout charges"),
};

export const AnimationCard = named("AnimationCard", z.object(animationCardFields));

const animationFields = {
  ...animationCardFields,
  description: z.string(),
  fullVideo: z.string().nullable().describe("null unless the caller may watch it"),
  downloadFile: z.string().nullable().describe("null unless the caller holds a license"),
  hasAccess: z.boolean(),
  canDownload: z.boolean(),
  views: z.number().int(),
  createdAt: isoDate,
  doctors: z.array(DoctorSummary),
};

export const Animation = named("Animation", z.object(animationFields));

export const AnimationList = named(
  "AnimationList",
  z.object({
    animations: z.array(z.union([Animation, AnimationCard])).describe("cards without access fields when light=true"),
    hasMore: z.boolean(),
    total: z.number().int(),
    suggestion: z
      .string()
      .optional()
      .describe(
        "with search: the term with its misspellings corrected, present only when the term as typed matched nothing and these results are for the correction",
      ),
  }),
);

export const AnimationDetail = named(
  "AnimationDetail",
  z.object({
    ...animationFields,
    category: ref.extend({ yearlyPrice: licencePrice, parent: ref.nullable() }).nullable(),
    captions: z.array(z.object({ language: z.string(), label: z.string(), src: z.string() })),
    transcript: z.object({ language: z.string(), label: z.string(), text: z.string() }).nullable(),
    medicalReview: z
      .object({
        doctor: z.object({ id: z.string(), slug: z.string(), name: z.string(), specialty: z.string() }),
        reviewedAt: isoDate,
        nextReviewAt: isoDate,
      })
      .nullable()
      .describe("the current medical review; null when there is none or its next review date has passed"),
    media: z
      .object({ resolution: z.string().nullable().describe('"4K", "1080p (Full HD)", "480p"'), formats: z.string().nullable().describe('"MP4 and WebM"') })
      .describe("what this animation's files are, as probed when they were stored; null where unknown"),
    playback: z
      .object({
        isPreview: z.boolean().describe("true: the public 10-second preview; false: the full video, signed for the caller"),
        hls: z.string().describe("HLS master playlist (H.264/AAC, fMP4 segments)"),
        mp4: z.string().describe("progressive MP4, 720p or the master's size if smaller"),
        storyboard: z.string().nullable().describe("WebVTT of seek thumbnails (sprite#xywh cues); null for the preview"),
        rungs: z
          .array(z.object({ height: z.number().int(), bitrate: z.number().int().describe("bits per second, measured") }))
          .describe("the ladder, lowest first; empty for the preview"),
        width: z.number().int(),
        height: z.number().int(),
      })
      .nullable()
      .describe(
        "what a player plays, from the media pipeline's renditions; signed URLs live at least 30 minutes and are re-checked against the caller's right on every request. null until the animation's first transcode is complete",
      ),
  }),
);

const subcategoryFields = {
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  yearlyPrice: licencePrice,
  animationCount: z.number().int(),
};
export const Subcategory = named("Subcategory", z.object(subcategoryFields));
const categoryFields = { ...subcategoryFields, thumbnail: z.string().nullable(), parentId: z.string().nullable() };
export const Category = named("Category", z.object(categoryFields));
export const CategoryDetail = named("CategoryDetail", z.object({ ...categoryFields, parent: ref.nullable(), subcategories: z.array(Subcategory) }));

const doctorFields = {
  ...DoctorSummary.shape,
  description: z.string().nullable(),
  website: z.string().nullable(),
  instagram: z.string().nullable(),
};
export const Doctor = named("Doctor", z.object(doctorFields));
export const DoctorProfile = named(
  "DoctorProfile",
  z.object({
    ...doctorFields,
    verifiedAnimations: z.array(
      z.object({ id: z.string(), slug: z.string(), title: z.string(), description: z.string(), coverImage: z.string().nullable(), duration: z.number().int() }),
    ),
  }),
);

// ---- content ----

export const Setting = z.object({ key: z.string(), value: z.string() });
export const PageLink = z.object({ id: z.string(), slug: z.string(), title: z.string() });
export const pageType = z.enum(["legal", "company", "other"]);
export const PublicPage = named(
  "Page",
  z.object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    content: z.string().describe("sanitised HTML"),
    metaDescription: z.string().nullable(),
    metaKeywords: z.string().nullable(),
    type: pageType,
    isPublished: z.boolean(),
    updatedAt: isoDate,
  }),
);

export const FaqCategory = z.object({ id: z.string(), name: z.string(), slug: z.string(), description: z.string().nullable(), sortOrder: z.number().int() });
export const Faq = named(
  "Faq",
  z.object({
    id: z.string(),
    question: z.string(),
    answer: z.string().describe("sanitised HTML"),
    categoryId: z.string().nullable(),
    categoryName: z.string().describe('"General" when it has no category'),
    sortOrder: z.number().int(),
    views: z.number().int(),
  }),
);

export const UploadTarget = z.object({ uploadURL: z.string(), path: z.string() });

// ---- licensed embeds ----

export const OEmbed = named(
  "OEmbed",
  z.object({
    version: z.literal("1.0"),
    type: z.literal("video"),
    title: z.string(),
    provider_name: z.string(),
    provider_url: z.string(),
    html: z.string().describe("the iframe snippet in its responsive wrapper"),
    width: z.number().int(),
    height: z.number().int(),
  }),
);

// ---- practices (decision 030) ----

const practiceRole = z.enum(["owner", "manager", "viewer"]);

export const PracticeSummary = named("PracticeSummary", z.object({ id: z.string(), legalName: z.string(), role: practiceRole.describe("The caller's role") }));

export const PracticeInvitation = named(
  "PracticeInvitation",
  z.object({ id: z.string(), email: z.string(), role: practiceRole, expiresAt: isoDate, createdAt: isoDate }),
);

export const Practice = named(
  "Practice",
  z.object({
    id: z.string(),
    legalName: z.string(),
    address: z.string(),
    country: z.string(),
    taxId: z.string().nullable(),
    billingEmail: z.string().nullable(),
    createdAt: isoDate,
    role: practiceRole.describe("The caller's role"),
    members: z.array(z.object({ userId: z.string(), name: z.string(), email: z.string(), role: practiceRole, since: isoDate })),
    invitations: z.array(PracticeInvitation).describe("Open invitations (owners only; empty for other roles)"),
    seats: z.object({
      limit: z.number().int().nullable().describe("People the practice's active licenses cover (the fewest seats of any); null while it holds none"),
      taken: z.number().int().describe("Members and open invitations"),
    }),
    activeLicenses: z.number().int(),
  }),
);
