import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { VideoPlayer } from "~/components/catalogue/video-player.tsx";
import { playerWords } from "~/lib/i18n/player.ts";
import type { PlaybackDto } from "~/services/catalogue/types.ts";

// The player's markup for the pages that pass the props the embed and patient links use
// (issue 46); without them it renders as the animation page and /watch always had it.

const playback: PlaybackDto = {
  isPreview: false,
  hls: "/media/a/s/master.m3u8?sig",
  mp4: "/media/a/s/progressive.mp4?sig",
  storyboard: "/media/a/s/storyboard.vtt?sig",
  rungs: [{ height: 360, bitrate: 800_000 }],
  width: 1280,
  height: 720,
};
const tracks = [
  { language: "en", label: "English", src: "/captions/en.vtt" },
  { language: "es", label: "Español", src: "/captions/es.vtt" },
];
const words = playerWords("en", { title: "Open Rhinoplasty", isPreview: false, previewSeconds: 10 });
const base = { videoId: "v1", src: null, playback, poster: null, words, isPreview: false, previewSeconds: 10, tracks };
const render = (props: Partial<Parameters<typeof VideoPlayer>[0]> = {}) => renderToStaticMarkup(createElement(VideoPlayer, { ...base, ...props }));

describe("VideoPlayer", () => {
  it("renders as before without the new props: English, the first track on, rounded, no overlay or transcript", () => {
    const html = render();
    expect(html).toMatch(/^<div class="relative" data-player="true">/);
    expect(html).toContain('aria-label="Open Rhinoplasty"');
    expect(html).toMatch(/<track kind="captions" srcLang="en" label="English" src="\/captions\/en.vtt" default=""\/>/);
    expect(html).toMatch(/<track kind="captions" srcLang="es" label="Español" src="\/captions\/es.vtt"\/>/);
    expect(html).toMatch(/<label hidden="" data-quality="true"[^>]*>Quality<select[^>]*><option value="-1" selected="">Auto<\/option>/);
    expect(html).toContain("Your browser does not play this video.");
    expect(html).toContain("rounded-xl");
    expect(html).not.toContain("data-player-overlay");
    expect(html).not.toContain("data-transcripts");
    expect(html).not.toContain("data-analytics");
  });

  it("speaks the viewer's language: its words, its lang and its caption track on by default", () => {
    const spanish = playerWords("es", { title: "Open Rhinoplasty", isPreview: false, previewSeconds: 10 });
    const html = render({ lang: "es", words: spanish });
    expect(html).toMatch(/^<div lang="es" class="relative" data-player="true">/);
    expect(html).toMatch(/<track kind="captions" srcLang="en" label="English" src="\/captions\/en.vtt"\/>/);
    expect(html).toMatch(/<track kind="captions" srcLang="es" label="Español" src="\/captions\/es.vtt" default=""\/>/);
    expect(html).toMatch(/>Calidad<select[^>]*><option value="-1" selected="">Automática<\/option>/);
    expect(html).toContain("Su navegador no puede reproducir este video.");
    // A preview's label and badge too.
    const previewWords = playerWords("es", { title: "Open Rhinoplasty", isPreview: true, previewSeconds: 10 });
    const preview = render({ lang: "es", words: previewWords, isPreview: true, playback: { ...playback, isPreview: true, storyboard: null } });
    expect(preview).toContain('aria-label="Vista previa de Open Rhinoplasty"');
    expect(preview).toContain("Vista previa de 10 segundos");
  });

  it("falls back to the first track when none is in the viewer's language", () => {
    const html = render({ lang: "es", tracks: [tracks[0]!] });
    expect(html).toMatch(/srcLang="en"[^>]*default=""/);
  });

  it("lays the overlay over the picture, hidden from assistive technology, its review line the video's description", () => {
    const html = render({ overlay: { title: "Open Rhinoplasty", detail: "Medically reviewed by Dr. Mitchell" } });
    const id = /aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toMatch(/<div aria-hidden="true" data-player-overlay="true" class="player-overlay pointer-events-none /);
    expect(html).toContain(`<p id="${id}" class="line-clamp-2 text-xs text-slate-200">Medically reviewed by Dr. Mitchell</p>`);
    // Without a detail, nothing describes the video.
    expect(render({ overlay: { title: "Open Rhinoplasty" } })).not.toContain("aria-describedby");
  });

  it("lists the transcripts as disclosures, the viewer's language first, each in its language", () => {
    const html = render({
      lang: "es",
      words: playerWords("es", { title: "Open Rhinoplasty", isPreview: false, previewSeconds: 10 }),
      transcripts: [
        { language: "en", label: "English", text: "Open rhinoplasty gives the surgeon a direct view." },
        { language: "es", label: "Español", text: "La rinoplastia abierta ofrece al cirujano una vista directa." },
      ],
    });
    expect(html).toMatch(/<section aria-label="Transcripción" class="mt-3" data-transcripts="true">/);
    const order = [...html.matchAll(/<div lang="(\w+)" class="overflow-y-auto /g)].map((m) => m[1]);
    expect(order).toEqual(["es", "en"]);
    expect(html).toMatch(/<summary[^>]*><span[^>]*>Mostrar la transcripción<\/span><span[^>]*>Ocultar la transcripción<\/span> \(Español\)<\/summary>/);
  });

  it("writes the analytics key on the video and fills its frame on request", () => {
    const html = render({ analytics: "licence:abc", fill: true });
    expect(html).toContain('data-analytics="licence:abc"');
    expect(html).toMatch(/^<div class="relative flex h-full flex-col" data-player="true">/);
    expect(html).toContain('class="h-full w-full object-contain"');
    expect(html).not.toContain("rounded-xl");
  });

  it("says the video is unavailable in the viewer's language", () => {
    expect(render({ playback: null, lang: "es", words: playerWords("es", { title: "x", isPreview: false, previewSeconds: 10 }) })).toContain(
      "Video no disponible",
    );
    expect(render({ playback: null, isPreview: true, words: playerWords("en", { title: "x", isPreview: true, previewSeconds: 10 }) })).toContain(
      "Preview unavailable",
    );
  });
});
