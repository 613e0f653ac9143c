import { useHydrated } from "~/components/ui/use-hydrated.ts";

// The page editor's formatting toolbar (h1, h2, h3, bold, italic, bullet list, numbered
// list, quote, link, wrapping the selected text in markup). It needs JavaScript, so it appears
// only once the page is hydrated; without it the textarea takes HTML typed by hand. Each
// button's name contains its visible label (WCAG 2.5.3), so "click H1" works by voice too.

type Wrap = { label: string; title: string; before: string; after: string; lines?: boolean };

const TOOLS: Wrap[] = [
  { label: "H1", title: "H1 heading", before: "<h1>", after: "</h1>" },
  { label: "H2", title: "H2 heading", before: "<h2>", after: "</h2>" },
  { label: "H3", title: "H3 heading", before: "<h3>", after: "</h3>" },
  { label: "B", title: "Bold", before: "<strong>", after: "</strong>" },
  { label: "I", title: "Italic", before: "<em>", after: "</em>" },
  { label: "• List", title: "Bullet list", before: "<ul>\n", after: "\n</ul>", lines: true },
  { label: "1. List", title: "1. List (numbered)", before: "<ol>\n", after: "\n</ol>", lines: true },
  { label: "Quote", title: "Quote", before: "<blockquote>", after: "</blockquote>" },
];

function replaceSelection(textarea: HTMLTextAreaElement, make: (selected: string) => string) {
  const { selectionStart: start, selectionEnd: end, value } = textarea;
  const inserted = make(value.slice(start, end));
  textarea.focus();
  textarea.setRangeText(inserted, start, end, "end");
  // Tell React and conform the value changed.
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
}

export function RichTextToolbar({ textareaId }: { textareaId: string }) {
  const ready = useHydrated();
  if (!ready) return null;
  const target = () => document.getElementById(textareaId) as HTMLTextAreaElement | null;
  return (
    <div role="toolbar" aria-label="Formatting" aria-controls={textareaId} className="mb-2 flex flex-wrap gap-1">
      {TOOLS.map((tool) => (
        <button
          key={tool.title}
          type="button"
          title={tool.title}
          aria-label={tool.title}
          className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-semibold hover:bg-slate-50"
          onClick={() => {
            const textarea = target();
            if (!textarea) return;
            replaceSelection(textarea, (selected) => {
              const body = tool.lines
                ? (selected || "Item")
                    .split("\n")
                    .map((line) => `  <li>${line}</li>`)
                    .join("\n")
                : selected || tool.title;
              return `${tool.before}${body}${tool.after}`;
            });
          }}
        >
          {tool.label}
        </button>
      ))}
      <button
        type="button"
        title="Link"
        aria-label="Link"
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-semibold hover:bg-slate-50"
        onClick={() => {
          const textarea = target();
          if (!textarea) return;
          const href = window.prompt("Link address (https://…)", "https://");
          if (!href) return;
          const safe = href.replaceAll('"', "%22");
          replaceSelection(textarea, (selected) => `<a href="${safe}">${selected || href}</a>`);
        }}
      >
        Link
      </button>
    </div>
  );
}
