import { Link } from "react-router";
import { prisma } from "~/lib/db.server.ts";
import type { Route } from "./+types/home";

export async function loader() {
  const animations = await prisma.animation.findMany({
    where: { isActive: true },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 6,
    select: { id: true, slug: true, title: true, coverImage: true, duration: true, category: { select: { name: true } } },
  });
  return { animations };
}

export default function Home({ loaderData: { animations } }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-4xl font-bold tracking-tight">The World's Most Advanced Doctor-Verified Medical Animations</h1>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {animations.map((a) => (
          <li key={a.id} className="overflow-hidden rounded-xl border border-slate-200 bg-white">
            <Link to={`/animations/${a.slug}`}>
              {a.coverImage ? <img src={a.coverImage} alt="" className="aspect-video w-full object-cover" /> : null}
              <div className="p-4">
                <h2 className="font-semibold">{a.title}</h2>
                <p className="text-sm text-slate-600">
                  {a.category?.name} · {a.duration}s
                </p>
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
