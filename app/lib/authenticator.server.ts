import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type PublicUser, verifyLogin } from "~/services/auth.server.ts";

export const authenticator = new Authenticator<PublicUser>();

authenticator.use(
  new FormStrategy(async ({ form }) => verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? ""))),
  "form",
);
