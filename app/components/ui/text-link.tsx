import type { ComponentProps } from "react";
import { Link } from "~/components/ui/link.tsx";

/** A link that stands on its own ("View all", "Next", "Request Refund"): brand colour, underline on hover. */
export function TextLink({ className = "", ...props }: ComponentProps<typeof Link>) {
  return <Link className={`font-semibold text-brand-700 hover:underline ${className}`} {...props} />;
}
