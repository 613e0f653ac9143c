import { z } from "zod";

// Bodies of the buying endpoints (POST /api/subscriptions/global {priceType}, POST
// /api/payments/success {paymentIntentId}).

const id = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, message);

/** Every plan sold is yearly (priceType "yearly"). */
export const GlobalCheckoutSchema = z.object({ priceType: z.literal("yearly", { error: "priceType must be yearly" }) });
export const IndividualCheckoutSchema = z.object({ animationId: id("animationId is required") });
export const CategoryCheckoutSchema = z.object({ categoryId: id("categoryId is required") });
export const PaymentSuccessSchema = z.object({ paymentIntentId: id("paymentIntentId is required") });
export const TestOutcomeSchema = z.object({ outcome: z.enum(["pay", "decline"], { error: "outcome must be pay or decline" }) });
