import { createContext, useContext } from "react";
import { Link as RouterLink, type LinkProps } from "react-router";

/** True while the server renders a page that does not hydrate (entry.server.tsx provides it; decision 025). */
export const StaticPageContext = createContext(false);

/**
 * React Router's `<Link>`, except on a page that does not hydrate: nothing follows a link there
 * client-side, so a site path renders as the plain `<a>` it becomes anyway, without the router
 * resolving it (the ~60 links of a member's animation page were 5 % of its server CPU,
 * bench/README.md). Other targets (relative paths, objects) still go through the router.
 */
export function Link(props: LinkProps) {
  const isStatic = useContext(StaticPageContext);
  const { to } = props;
  // A site path, or a place on this page: the same in the router's hands and the browser's.
  const plain = typeof to === "string" && ((to.startsWith("/") && !to.startsWith("//")) || to.startsWith("#"));
  if (!isStatic || !plain) return <RouterLink {...props} />;
  const {
    prefetch: _prefetch,
    replace: _replace,
    state: _state,
    preventScrollReset: _scroll,
    relative: _relative,
    reloadDocument: _reload,
    viewTransition: _transition,
    discover: _discover,
    to: _to,
    children,
    ...anchor
  } = props;
  return (
    <a href={to} {...anchor}>
      {children}
    </a>
  );
}
