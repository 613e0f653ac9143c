import { z } from "zod";
import { isoDate, money, named, pageType, User } from "./api-responses.ts";
import { MISUSE_STATUSES } from "./admin-misuse.ts";

// What the back office's /api calls answer (see api-responses.ts for why these exist).

export const AdminDashboard = named(
  "AdminDashboard",
  z.object({
    stats: z.object({
      totalUsers: z.number().int(),
      activeSubscriptions: z.number().int(),
      totalAnimations: z.number().int(),
      monthlyRevenue: money,
    }),
    popularAnimations: z.array(z.object({ id: z.string(), title: z.string(), categoryName: z.string(), views: z.number().int() })),
    recentSubscriptions: z.array(
      z.object({
        id: z.string(),
        member: z.string(),
        email: z.string(),
        type: z.enum(["global", "category", "individual"]),
        item: z.string(),
        status: z.enum(["active", "canceled", "expired", "pending"]),
        price: money,
        createdAt: isoDate,
      }),
    ),
    revenueByMonth: z.array(z.object({ month: z.string().describe("YYYY-MM"), amount: money, payments: z.number().int() })),
    reviewsDue: z.array(
      z.object({
        id: z.string(),
        slug: z.string(),
        title: z.string(),
        isActive: z.boolean(),
        medicallyReviewedAt: isoDate.nullable(),
        reviewDueAt: isoDate.nullable(),
      }),
    ),
  }),
);

export const AdminUserList = z.object({
  users: z.array(User),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

export const AdminSubscription = named(
  "AdminSubscription",
  z.object({
    id: z.string(),
    userId: z.string(),
    username: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    userEmail: z.string(),
    type: z.enum(["global", "category", "individual"]),
    categoryName: z.string().nullable(),
    animationTitle: z.string().nullable(),
    status: z.enum(["active", "canceled", "expired", "pending"]),
    price: money,
    startDate: isoDate.nullable(),
    endDate: isoDate.nullable(),
    paymentRetryAt: isoDate.nullable().describe("While a failed renewal payment is retried: when the next try is (access continues until then)"),
    endedAfterFailedPayments: z.boolean().describe("Ended because the renewal's last payment retry failed"),
  }),
);

export const SubscriptionChange = z.object({
  id: z.string(),
  status: z.enum(["active", "canceled", "expired", "pending"]),
  endDate: isoDate.nullable(),
});

const refundStatus = z.enum(["pending", "approved", "rejected", "processed"]);

export const AdminRefundRequest = named(
  "AdminRefundRequest",
  z.object({
    id: z.string(),
    userId: z.string(),
    userName: z.string(),
    userEmail: z.string(),
    paymentId: z.string(),
    paymentAmount: money,
    paymentDescription: z.string(),
    paymentStatus: z.enum(["pending", "completed", "failed", "refunded"]),
    paidAt: isoDate,
    reason: z.string(),
    description: z.string().nullable(),
    status: refundStatus,
    adminNotes: z.string().nullable(),
    processedAt: isoDate.nullable(),
    createdAt: isoDate,
  }),
);

/** A refund request with what its refund would take back (GET /api/admin/refund-requests/{id}). */
export const AdminRefundCase = named(
  "AdminRefundCase",
  z.object({
    request: AdminRefundRequest,
    evidence: z.object({
      window: z
        .object({
          days: z.number().int(),
          paidAt: isoDate,
          endsAt: isoDate,
          requestedAt: isoDate,
          requestedWithin: z.boolean().describe("Whether the request was filed inside the refund window"),
          openNow: z.boolean(),
        })
        .describe("The refund window (30 days from the payment)"),
      licence: z
        .object({
          id: z.string(),
          label: z.string(),
          type: z.enum(["global", "category", "individual"]),
          status: z.enum(["active", "canceled", "expired", "pending"]),
          startDate: isoDate.nullable(),
          endDate: isoDate.nullable(),
          practiceName: z.string().nullable(),
          seats: z.number().int(),
        })
        .nullable()
        .describe("The subscription or licence the payment bought; null when it bought none (and no other evidence follows)"),
      downloads: z
        .object({
          since: isoDate,
          files: z.number().int().describe("Different files downloaded (a whole package counts as one): what an approval confirms with `confirmDownloads`"),
          downloads: z.number().int(),
          listed: z.array(
            z.object({
              animationTitle: z.string(),
              file: z.string().describe('"package" for the ZIP, else the file\'s name'),
              times: z.number().int(),
              bytes: z.number().int(),
              complete: z.boolean(),
              firstAt: isoDate,
              lastAt: isoDate,
            }),
          ),
        })
        .optional()
        .describe("Downloads under the licence since the payment, newest first (at most 50 files listed)"),
      plays: z
        .object({ fromDay: z.string().describe("YYYY-MM-DD"), site: z.number().int(), link: z.number().int(), total: z.number().int() })
        .optional()
        .describe("Plays on the clinic's sites (embeds) and patient links since the payment's day"),
      embeds: z
        .object({ sites: z.array(z.object({ host: z.string(), allowed: z.boolean(), plays: z.number().int() })), plays: z.number().int() })
        .optional()
        .describe("Embed sites with their plays (all time); `allowed: false` for a host no longer on the licence's list"),
      patientLinks: z
        .object({ created: z.number().int(), sent: z.number().int(), opened: z.number().int(), completed: z.number().int() })
        .optional()
        .describe("Patient links created since the payment"),
    }),
  }),
);

export const RefundDecision = z.object({
  id: z.string(),
  paymentId: z.string(),
  status: refundStatus,
  adminNotes: z.string().nullable(),
  processedById: z.string().nullable(),
  processedAt: isoDate.nullable(),
});

export const AdminSetting = z.object({
  key: z.string(),
  value: z.string(),
  description: z.string().nullable(),
  updatedAt: isoDate.nullable(),
});

export const AdminAnimation = named(
  "AdminAnimation",
  z.object({
    id: z.string(),
    title: z.string(),
    slug: z.string(),
    description: z.string(),
    coverImage: z.string().nullable(),
    previewVideo: z.string().nullable(),
    fullVideo: z.string().nullable(),
    downloadFile: z.string().nullable(),
    individualPrice: money,
    duration: z.number().int(),
    categoryId: z.string().nullable(),
    views: z.number().int(),
    isActive: z.boolean(),
    /** Published by the system once its ladder and review are done (decision 032). */
    publishWhenReady: z.boolean(),
    /** The duration was read from the full video (ffprobe), not typed. */
    durationProbed: z.boolean(),
    videoWidth: z.number().int().nullable(),
    videoHeight: z.number().int().nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
    doctorIds: z.array(z.string()),
    doctors: z.array(z.object({ id: z.string() })),
  }),
);

export const AdminCategory = named(
  "AdminCategory",
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    thumbnail: z.string().nullable(),
    yearlyPrice: money.nullable(),
    parentId: z.string().nullable(),
    parentName: z.string().nullable(),
    sortOrder: z.number().int(),
    isActive: z.boolean(),
    animationCount: z.number().int().describe("published animations"),
    totalAnimations: z.number().int().describe("every animation in it, published or not"),
    subcategoryCount: z.number().int(),
    createdAt: isoDate,
    updatedAt: isoDate,
  }),
);

export const AdminDoctor = named(
  "AdminDoctor",
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    specialty: z.string(),
    description: z.string().nullable(),
    photo: z.string().nullable(),
    website: z.string().nullable(),
    instagram: z.string().nullable(),
    isActive: z.boolean(),
    animationCount: z.number().int(),
    createdAt: isoDate,
    updatedAt: isoDate,
  }),
);

export const AdminPageRow = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  type: pageType,
  isPublished: z.boolean(),
  updatedAt: isoDate,
});

export const AdminPage = named(
  "AdminPage",
  z.object({
    id: z.string(),
    title: z.string(),
    slug: z.string(),
    content: z.string(),
    metaDescription: z.string().nullable(),
    metaKeywords: z.string().nullable(),
    type: pageType,
    isPublished: z.boolean(),
    showInFooter: z.boolean(),
    createdAt: isoDate,
    updatedAt: isoDate,
  }),
);

export const AdminFaq = named(
  "AdminFaq",
  z.object({
    id: z.string(),
    question: z.string(),
    answer: z.string(),
    categoryId: z.string().nullable(),
    categoryName: z.string().nullable(),
    sortOrder: z.number().int(),
    isActive: z.boolean(),
    views: z.number().int(),
  }),
);

export const EmailTemplate = named(
  "EmailTemplate",
  z.object({
    id: z.string(),
    name: z.string(),
    subject: z.string(),
    htmlContent: z.string(),
    textContent: z.string().nullable(),
    variables: z.array(z.string()),
    isActive: z.boolean(),
    version: z.number().int(),
    createdAt: isoDate,
    updatedAt: isoDate,
  }),
);

export const EmailLogPage = z.object({
  logs: z.array(
    z.object({
      id: z.string(),
      userId: z.string().nullable(),
      toEmail: z.string(),
      subject: z.string(),
      status: z.string().describe("sent, failed, pending or sending"),
      errorMessage: z.string().nullable(),
      sentAt: isoDate.nullable(),
      templateName: z.string().nullable(),
      campaignId: z.string().nullable(),
    }),
  ),
  page: z.number().int(),
  limit: z.number().int(),
  hasNext: z.boolean(),
});

const campaignStatus = z.enum(["queued", "sending", "finished", "canceled"]);

export const EmailCampaign = named(
  "EmailCampaign",
  z.object({
    id: z.string(),
    subject: z.string(),
    audience: z.string(),
    /** The filters ANDed with the audience, with their items' names; null when none. */
    audienceFilters: z
      .object({
        categoryId: z.string().optional(),
        categoryName: z.string().optional(),
        animationId: z.string().optional(),
        animationTitle: z.string().optional(),
        licenceStatus: z.enum(["active", "expired", "any"]),
        signedUpFrom: z.string().optional(),
        signedUpTo: z.string().optional(),
      })
      .nullable(),
    kind: z.string(),
    status: campaignStatus,
    total: z.number().int(),
    sent: z.number().int(),
    failed: z.number().int(),
    left: z.number().int(),
    skipped: z.number().int(),
    createdByEmail: z.string().nullable(),
    createdAt: isoDate,
    startedAt: isoDate.nullable(),
    finishedAt: isoDate.nullable(),
  }),
);

export const BulkTestResult = z.object({ sent: z.number().int(), failed: z.number().int() });
/** POST /api/emails/bulk with countOnly: whom a campaign would reach now, nothing sent. */
export const CampaignRecipientCount = z.object({ recipients: z.number().int(), skipped: z.number().int(), audience: z.string() });
export const BulkTestFailed = z.object({ message: z.string(), sent: z.number().int(), failed: z.number().int() });
export const CampaignStarted = z.object({
  campaignId: z.string(),
  status: campaignStatus,
  total: z.number().int(),
  skipped: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  statusUrl: z.string(),
});

const misuseStatus = z.enum(MISUSE_STATUSES);

export const AdminMisuseReport = named(
  "AdminMisuseReport",
  z.object({
    id: z.string(),
    animationId: z.string().nullable(),
    animationTitle: z.string().nullable(),
    animationSlug: z.string().nullable(),
    reporterEmail: z.string(),
    message: z.string(),
    link: z.string().nullable(),
    linkKey: z.string().nullable().describe("The link as reports are grouped by it: no scheme, www., fragment or trailing slash, lower case"),
    status: misuseStatus,
    sameLinkCount: z.number().int().describe("Reports of the same link, this one included"),
    createdAt: isoDate,
    updatedAt: isoDate,
  }),
);

export const AdminMisuseReportList = z.object({
  reports: z.array(AdminMisuseReport),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
