// The HLS ladder (decision 017): which rungs a master gets and at what bitrates. Pure, so the
// rules are unit-tested without ffmpeg.

export type LadderRung = { height: number; videoKbps: number };
export type Rung = { name: string; width: number; height: number; videoKbps: number };

/**
 * Heights and H.264 video bitrates (kbit/s). Playback starts on the lowest rung: 360p at 600
 * kbit/s plus 128 kbit/s of sound makes a first 2 s segment of ~180 KB, under a second on a
 * 1.6 Mbit/s phone line, and leaves room to spare for steady play. The upper rungs follow the
 * usual per-title ladders for animation (flat shading compresses well).
 */
export const DEFAULT_LADDER: readonly LadderRung[] = [
  { height: 360, videoKbps: 600 },
  { height: 540, videoKbps: 1400 },
  { height: 720, videoKbps: 2800 },
  { height: 1080, videoKbps: 5000 },
  { height: 1440, videoKbps: 9000 },
  { height: 2160, videoKbps: 16000 },
];

export const AUDIO_KBPS = 128;

/** `MEDIA_LADDER` ("360:800,720:2800,…"): heights and kbit/s; null when malformed. */
export function parseLadder(value: string): LadderRung[] | null {
  const rungs: LadderRung[] = [];
  for (const part of value
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^(\d{3,4}):(\d{2,6})$/.exec(part);
    if (!match) return null;
    const height = Number(match[1]);
    const videoKbps = Number(match[2]);
    if (height < 144 || height > 4320 || height % 2 !== 0) return null;
    rungs.push({ height, videoKbps });
  }
  if (rungs.length === 0) return null;
  rungs.sort((a, b) => a.height - b.height);
  return rungs.some((rung, i) => i > 0 && rung.height === rungs[i - 1]!.height) ? null : rungs;
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The rungs a master gets: every rung up to the master's own height, never above it (an
 * upscale only costs bytes). A master smaller than the lowest rung gets one rung at its own size.
 * The height compared is the frame's shorter side, so a portrait master is not upscaled either.
 */
export function chooseRungs(source: { width: number; height: number }, ladder: readonly LadderRung[] = DEFAULT_LADDER): Rung[] {
  const portrait = source.height > source.width;
  const short = Math.min(source.width, source.height);
  const long = Math.max(source.width, source.height);
  const fitting = ladder.filter((rung) => rung.height <= short);
  const picked = fitting.length > 0 ? fitting : [{ height: even(short), videoKbps: scaledKbps(ladder[0]!, short) }];
  return picked.map((rung) => {
    const other = even((long * rung.height) / short);
    const [width, height] = portrait ? [rung.height, other] : [other, rung.height];
    return { name: `${rung.height}p`, width, height, videoKbps: rung.videoKbps };
  });
}

/** A rung below the ladder's first gets that rung's bitrate scaled by its pixel count. */
function scaledKbps(first: LadderRung, height: number) {
  return Math.max(150, Math.round((first.videoKbps * (height * height)) / (first.height * first.height)));
}

/** The rung the preview and the progressive MP4 are made from: 720p, or the largest below it. */
export function previewRung(rungs: readonly Rung[]): Rung {
  const fitting = rungs.filter((rung) => Math.min(rung.width, rung.height) <= 720);
  return fitting.at(-1) ?? rungs[0]!;
}

/** Storyboard: one thumbnail every `interval` seconds (at least 2 s, at most 100 thumbnails), 10 a row. */
export function storyboardPlan(duration: number, source: { width: number; height: number }) {
  const interval = Math.max(2, Math.ceil(duration / 100));
  const count = Math.max(1, Math.ceil(duration / interval));
  const columns = Math.min(10, count);
  const rows = Math.ceil(count / columns);
  const width = 160;
  const height = even((width * source.height) / source.width);
  return { interval, count, columns, rows, width, height };
}
