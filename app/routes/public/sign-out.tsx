import { redirect } from "react-router";
import { destroySession } from "~/lib/session.server.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import type { Route } from "./+types/sign-out";

// Sign-out is a POST only: a GET (a link, a prefetch, an image tag) must not end a session.
export async function loader() {
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  return redirectWithToast(
    "/",
    { title: "Logged Out", description: "You have been successfully logged out." },
    { headers: { "Set-Cookie": await destroySession(request) } },
  );
}
