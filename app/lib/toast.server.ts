import { createCookie, redirect } from "react-router";
import { z } from "zod";
import { getEnv } from "./env.server.ts";

const ToastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(["success", "error", "info"]).default("success"),
});

export type Toast = z.input<typeof ToastSchema>;

// A flash cookie: set on the redirect, read and cleared by the next page's root loader, so a
// toast shows with JavaScript off too.
function toastCookie() {
  return createCookie("medanim_toast", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: getEnv().NODE_ENV === "production" && Boolean(getEnv().APP_URL?.startsWith("https:")),
    secrets: [getEnv().SESSION_SECRET],
    maxAge: 60,
  });
}

export async function toastHeader(toast: Toast): Promise<string> {
  return toastCookie().serialize(ToastSchema.parse(toast));
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

export async function getToast(request: Request) {
  const header = request.headers.get("Cookie");
  if (!header?.includes("medanim_toast=")) return { toast: null, headers: new Headers() };
  const value = await toastCookie().parse(header);
  const parsed = ToastSchema.safeParse(value);
  const toast = parsed.success ? parsed.data : null;
  const headers = new Headers();
  if (value !== null && value !== undefined) {
    headers.append("Set-Cookie", await toastCookie().serialize("", { maxAge: 0 }));
  }
  return { toast, headers };
}
