// The cards' hover preview on a page that does not hydrate (components/catalogue/animation-card.tsx
// has the React one): hovering a card with a preview (`data-preview`) plays it muted over the
// cover, with a button that plays it with sound; nothing video-related is fetched until then.
// Clicks pass through the video to the cover's link, as on the cover it replaces.

export function enhancePreviews() {
  // mouseenter does not bubble: heard in the capture phase, for cards appended later too.
  document.addEventListener(
    "mouseenter",
    (event) => {
      const card = event.target;
      if (card instanceof HTMLElement && card.dataset.preview && !card.querySelector("video")) show(card);
    },
    true,
  );
  document.addEventListener(
    "mouseleave",
    (event) => {
      const card = event.target;
      if (card instanceof HTMLElement && card.dataset.preview) card.querySelector(".card-preview")?.remove();
    },
    true,
  );
}

function show(card: HTMLElement) {
  const frame = card.querySelector(".aspect-video");
  if (!frame) return;
  const preview = document.createElement("div");
  preview.className = "card-preview pointer-events-none absolute inset-0";
  const video = Object.assign(document.createElement("video"), {
    src: card.dataset.preview!,
    muted: true,
    autoplay: true,
    loop: true,
    playsInline: true,
    preload: "metadata",
    className: "pointer-events-none absolute inset-0 h-full w-full object-cover",
  });
  video.setAttribute("aria-label", `Preview of ${card.dataset.title ?? ""}`);
  // Only the round button takes a click: the rest of the picture stays the card's link.
  const overlay = document.createElement("div");
  overlay.className = "pointer-events-none absolute inset-0 flex items-center justify-center bg-black/20";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "pointer-events-auto flex h-12 w-12 items-center justify-center rounded-full bg-white/90 text-brand-700 shadow";
  button.setAttribute("aria-label", `Play preview of ${card.dataset.title ?? ""}`);
  button.innerHTML = '<span aria-hidden="true" class="icon-play h-6 w-6"></span>';
  button.addEventListener("click", () => {
    video.muted = false;
    overlay.hidden = true;
    // A failed play is only logged, and the overlay comes back.
    video.play().catch((error: unknown) => {
      console.warn("Preview playback failed", error);
      overlay.hidden = false;
    });
  });
  video.addEventListener("pause", () => (overlay.hidden = false));
  overlay.append(button);
  preview.append(video, overlay);
  // Before the duration, as the React card renders it.
  const duration = frame.querySelector(":scope > span");
  if (duration) duration.before(preview);
  else frame.append(preview);
}
