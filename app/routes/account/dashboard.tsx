import { Link } from "react-router";
import { requireUser } from "~/services/auth.server.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | Medanim" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { user };
}

export default function Dashboard({ loaderData: { user } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold">Dashboard</h1>
      <section aria-labelledby="profile-card" className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="profile-card" className="text-lg font-semibold">
          {user.firstName} {user.lastName}
        </h2>
        <p className="text-slate-600">@{user.username}</p>
        <p className="text-slate-600">{user.email}</p>
        <p className="mt-2 text-sm">
          <span className="rounded-full bg-slate-100 px-2 py-0.5 capitalize">{user.accountType}</span>{" "}
          <span className="rounded-full bg-slate-100 px-2 py-0.5">{user.isEmailVerified ? "Email verified" : "Email unverified"}</span>
        </p>
        <Link to="/profile" className="mt-4 inline-block text-sm font-semibold text-brand-700 hover:underline">
          Profile Settings
        </Link>
      </section>
    </main>
  );
}
