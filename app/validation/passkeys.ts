import { z } from "zod";

// What the browser sends back from a WebAuthn ceremony (@simplewebauthn/browser's JSON forms).
// Only the shape is checked here, so nothing malformed reaches the database or the verifier;
// the verifier checks the content.

const NOT_VERIFIED = "We could not verify this passkey. Please try again.";
const base64url = z
  .string({ error: NOT_VERIFIED })
  .max(16_384, NOT_VERIFIED)
  .regex(/^[A-Za-z0-9_-]*$/, NOT_VERIFIED);
const credentialId = base64url.min(1, NOT_VERIFIED).max(1_024, NOT_VERIFIED);

const ChallengeTokenSchema = z.string({ error: "This passkey request has expired. Please try again." }).min(1).max(200);

const credential = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key", { error: NOT_VERIFIED }),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

export const RegistrationResponseSchema = z.looseObject({
  ...credential,
  response: z.looseObject(
    {
      clientDataJSON: base64url,
      attestationObject: base64url,
      transports: z.array(z.string().max(32)).max(10).optional(),
    },
    { error: NOT_VERIFIED },
  ),
});

export const AuthenticationResponseSchema = z.looseObject({
  ...credential,
  response: z.looseObject(
    {
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
      userHandle: base64url.optional(),
    },
    { error: NOT_VERIFIED },
  ),
});

export const PasskeyRegistrationSchema = z.object({
  token: ChallengeTokenSchema,
  name: z.string().trim().max(60, "Keep the name under 60 characters").optional(),
  response: RegistrationResponseSchema,
});

/** Where a passkey is used: on its own at sign-in, after a password, or to confirm it's you. */
export const PasskeyPurposeSchema = z.enum(["sign-in", "two-step", "step-up"], { error: "Unknown passkey request" });
export type PasskeyPurpose = z.infer<typeof PasskeyPurposeSchema>;

export const PasskeyOptionsSchema = z.object({ purpose: PasskeyPurposeSchema });

export const PasskeyAuthenticationSchema = z.object({
  purpose: PasskeyPurposeSchema,
  token: ChallengeTokenSchema,
  redirectTo: z.string().max(2_000).optional(),
  response: AuthenticationResponseSchema,
});

export const RemovePasskeySchema = z.object({
  passkeyId: z.string({ error: "Choose a passkey to remove" }).min(1, "Choose a passkey to remove").max(1_024),
});
