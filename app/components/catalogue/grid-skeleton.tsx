import { useNavigation } from "react-router";
import { AnimationCardSkeleton, CardGrid } from "./animation-card.tsx";

/** True while a client navigation is loading a page under this path prefix. */
export function useLoadingPath(prefix: string) {
  const navigation = useNavigation();
  return navigation.state === "loading" && navigation.location.pathname.startsWith(prefix);
}

export function GridSkeleton({ count = 6 }: { count?: number }) {
  return (
    <CardGrid>
      {Array.from({ length: count }, (_, i) => (
        <AnimationCardSkeleton key={i} />
      ))}
    </CardGrid>
  );
}
