import { z } from "zod";

// Bodies of the buying endpoints (POST /api/subscriptions/global {priceType}, POST
// /api/payments/success {paymentIntentId}).

const id = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, message);

/** Every plan sold is yearly (priceType "yearly"). */
export const GlobalCheckoutSchema = z.object({ priceType: z.literal("yearly", { error: "priceType must be yearly" }) });
/** A licence bought for the caller's practice (decision 030): true, or absent for the caller's own. */
const forPractice = z
  .preprocess((v) => (v === "true" || v === "on" ? true : v === "false" ? false : v), z.boolean({ error: "forPractice must be true or false" }))
  .optional()
  .describe("Buy for the practice the caller owns or manages (its members use it; at least 3 seats)");
export const IndividualCheckoutSchema = z.object({ animationId: id("animationId is required"), forPractice });
export const CategoryCheckoutSchema = z.object({ categoryId: id("categoryId is required"), forPractice });
export const PaymentSuccessSchema = z.object({ paymentIntentId: id("paymentIntentId is required") });
export const TestOutcomeSchema = z.object({ outcome: z.enum(["pay", "decline"], { error: "outcome must be pay or decline" }) });
