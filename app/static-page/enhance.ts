import { oneMenuAtATime } from "~/lib/dom/menus.ts";
import { watchPerformance } from "~/lib/dom/performance.ts";
import { enhanceList } from "./list.ts";
import { enhancePreviews } from "./previews.ts";
import { enhanceStandIns } from "./stand-in.ts";
import { enhanceToast } from "./toast.ts";

// What JavaScript adds to a page that does not hydrate (decision 025), in place of React: the
// page is whole without it. Loaded as a module, so it runs once the document is parsed.
const header = document.querySelector<HTMLElement>(".site-header");
if (header) oneMenuAtATime(header);
enhanceToast();
watchPerformance();
enhanceList();
enhancePreviews();
enhanceStandIns();
