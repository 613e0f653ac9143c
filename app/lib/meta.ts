// Page titles carry the platform name the root loader read from settings (platform_name).
type Match = { id: string; data: unknown } | undefined;

export function pageTitle(matches: ReadonlyArray<Match>, title: string) {
  const root = matches.find((m) => m?.id === "root")?.data as { platformName?: string } | undefined;
  return `${title} | ${root?.platformName ?? "Medanim"}`;
}
