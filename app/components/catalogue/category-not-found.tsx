import { ErrorScreen, GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ButtonLink } from "~/components/ui/button.tsx";

/** "Category Not Found" with a return-home link. */
export function CategoryNotFound() {
  return (
    <ErrorScreen
      title="Category Not Found"
      message="The category you are looking for does not exist or has been removed."
      action={<ButtonLink to="/">Return Home</ButtonLink>}
    />
  );
}

export function CategoryErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <CategoryNotFound /> }} />;
}
