import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import { GeneralErrorBoundary } from "./components/error-boundary.tsx";
import { SiteFooter, SiteHeader } from "./components/layout.tsx";
import { useNonce } from "./components/nonce.tsx";
import { PerformanceReporter } from "./components/performance-reporter.tsx";
import { Toaster } from "./components/ui/toast.tsx";
import { getLayoutData } from "./services/content.server.ts";
import { getUser } from "./services/auth/guards.server.ts";
import { getToast } from "./lib/toast.server.ts";
import stylesheet from "./app.css?url";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

export async function loader({ request }: Route.LoaderArgs) {
  const [user, { toast, headers }, layout] = await Promise.all([getUser(request), getToast(request), getLayoutData()]);
  return data(
    {
      user: user && { id: user.id, username: user.username, email: user.email, role: user.role, accountType: user.accountType },
      toast,
      ...layout,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col font-sans antialiased">
        <SiteHeader user={rootData?.user ?? null} platformName={rootData?.platformName ?? "Medanim"} />
        <div className="flex-1">{children}</div>
        <SiteFooter legalPages={rootData?.legalPages ?? []} platformName={rootData?.platformName ?? "Medanim"} />
        <Toaster toast={rootData?.toast ?? null} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      <PerformanceReporter />
    </>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data?.platformName ?? "Medanim" },
  { name: "description", content: "Doctor-verified medical and plastic-surgery animations." },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
