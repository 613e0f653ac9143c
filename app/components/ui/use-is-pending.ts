import { useFormAction, useNavigation } from "react-router";

type FormMethod = "POST" | "GET" | "PUT" | "PATCH" | "DELETE";

/**
 * True while a form of this route (or the given `formAction`) is on its way: "submitting" only
 * while the request is in flight, "non-idle" also while the page reloads after it. With
 * `intent`, only the submission that carries `intent=<value>` counts (multi-form screens).
 */
export function useIsPending({
  formAction,
  formMethod = "POST",
  intent,
  state = "non-idle",
}: {
  formAction?: string;
  formMethod?: FormMethod;
  intent?: string;
  state?: "submitting" | "non-idle";
} = {}) {
  const routeAction = useFormAction();
  const navigation = useNavigation();
  const inState = state === "non-idle" ? navigation.state !== "idle" : navigation.state === "submitting";
  return (
    inState &&
    navigation.formAction === (formAction ?? routeAction) &&
    navigation.formMethod === formMethod &&
    (intent === undefined || navigation.formData?.get("intent") === intent)
  );
}
