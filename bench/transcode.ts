import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Transcoding benchmark: a 1920×1080 testsrc2 source with a sine tone, made here, run
// through the media pipeline's real steps (runStep for every step stepsFor gives that source, the default
// ladder's rungs for that source) in a temporary folder; no database, no queue. Reports each
// step's seconds, the whole set and the ladder alone as × realtime (source seconds / elapsed),
// and the preview's time from upload to playable: from the start (probe included) to the
// preview file existing, the ladder, progressive and preview steps, which run in that order.
//
//   npx tsx bench/transcode.ts [--quick]   (a 20 s source instead of 60 s; or through
//                                          bench/run.ts, which calls runTranscodeBench)

/** `cpuSeconds`: ffmpeg's own CPU time (user + system), steadier than wall time on a shared machine. */
export type TranscodeStep = { step: string; label: string; seconds: number; cpuSeconds: number | null };
export type TranscodeBenchResult = {
  sourceSeconds: number;
  sourceSize: string;
  frameRate: number;
  rungs: Array<{ name: string; width: number; height: number; kbps: number | null }>;
  /** Making the source (not part of the figures). */
  sourceMadeSeconds: number;
  probeSeconds: number;
  steps: TranscodeStep[];
  totalSeconds: number;
  previewSeconds: number;
  /**
   * The licence package's part: its download steps (MP4 at the master's size and the smaller
   * ones, WebM) and the checksums of their files, per minute of master; its files and bytes.
   */
  package: { seconds: number; secondsPerMinute: number; files: Array<{ file: string; height: number | null; bytes: number }>; bytes: number };
  /** Load averages (1 min) before and after: the machine is shared, the figures move with it. */
  load: [number, number];
  cpus: number;
};

const SOURCE = { width: 1920, height: 1080, fps: 25 };

/** Null when ffmpeg (or ffprobe) is not installed: the caller prints a note instead. */
export async function runTranscodeBench({ seconds = 60 } = {}): Promise<TranscodeBenchResult | null> {
  const { ffmpegPath, ffprobePath, probeMedia } = await import("../app/lib/ffmpeg.server.ts");
  const installed = (tool: string) => !spawnSync(tool, ["-version"], { stdio: "ignore" }).error;
  if (!installed(ffmpegPath()) || !installed(ffprobePath())) return null;
  const { chooseRungs, DEFAULT_LADDER } = await import("../app/lib/media-ladder.ts");
  const { measureRenditions, runStep, stepLabels, stepsFor } = await import("../app/services/media/transcode.server.ts");

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "medanim-bench-transcode-"));
  try {
    const input = path.join(dir, "master.mp4");
    const made = performance.now();
    makeSource(ffmpegPath(), input, seconds);
    const sourceMadeSeconds = (performance.now() - made) / 1000;
    const out = path.join(dir, "set");
    fs.mkdirSync(out);
    const loadBefore = os.loadavg()[0]!;

    const began = performance.now();
    const probe = await probeMedia(input);
    const probeSeconds = (performance.now() - began) / 1000;
    const rungs = chooseRungs(probe, DEFAULT_LADDER);
    const labels = stepLabels(rungs);
    const steps: TranscodeStep[] = [];
    let previewSeconds = 0;
    for (const step of stepsFor(probe)) {
      const stepBegan = performance.now();
      const cpuBefore = childrenCpuSeconds();
      await runStep(step, { input, dir: out, probe, rungs, onProgress: () => undefined });
      const cpuAfter = childrenCpuSeconds();
      steps.push({
        step,
        label: labels[step],
        seconds: (performance.now() - stepBegan) / 1000,
        cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
      });
      if (step === "preview") previewSeconds = (performance.now() - began) / 1000;
    }
    const totalSeconds = (performance.now() - began) / 1000;
    const measuring = performance.now();
    const measured = await measureRenditions(out, rungs);
    // Measuring reads every download file once for its checksums, the package's part of it.
    const measureSeconds = (performance.now() - measuring) / 1000;
    const downloads = measured.filter((r) => r.kind === "download");
    const packageSeconds = steps.filter((s) => s.step.startsWith("download-")).reduce((sum, s) => sum + s.seconds, 0) + measureSeconds;
    return {
      sourceSeconds: probe.duration,
      sourceSize: `${probe.width}x${probe.height}`,
      frameRate: probe.frameRate,
      rungs: rungs.map((rung) => {
        const row = measured.find((r) => r.kind === "hls" && r.height === rung.height);
        return { name: rung.name, width: rung.width, height: rung.height, kbps: row?.bitrate ? Math.round(row.bitrate / 1000) : null };
      }),
      sourceMadeSeconds,
      probeSeconds,
      steps,
      totalSeconds,
      previewSeconds,
      package: {
        seconds: packageSeconds,
        secondsPerMinute: packageSeconds / (probe.duration / 60),
        files: downloads.map((r) => ({ file: r.file, height: r.height, bytes: r.bytes })),
        bytes: downloads.reduce((sum, r) => sum + r.bytes, 0),
      },
      load: [loadBefore, os.loadavg()[0]!],
      cpus: os.cpus().length,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The master: testsrc2 (moving patterns and a counter, harder to encode than flat animation)
 * with a 440 Hz tone, H.264 at a high quality so the pipeline decodes a master-like stream.
 * Ten seconds of picture are encoded and repeated by stream copy (making the whole minute at
 * 1080p took longer than some of the steps measured); the tone is made whole, so the sound
 * has no seam and the file is exactly `seconds` long.
 */
function makeSource(ffmpeg: string, file: string, seconds: number) {
  const { width, height, fps } = SOURCE;
  const clipSeconds = Math.min(10, seconds);
  const clip = `${file}.clip.mp4`;
  const run = (args: string[]) => {
    const made = spawnSync(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args]);
    if (made.status !== 0) throw new Error(`Could not make the benchmark's source: ${made.stderr.toString().trim()}`);
  };
  // prettier-ignore
  run([
    "-f", "lavfi",
    "-i", `testsrc2=duration=${clipSeconds}:size=${width}x${height}:rate=${fps}`,
    "-c:v", "libx264",
    "-preset", "ultrafast",
    "-crf", "18",
    "-pix_fmt", "yuv420p",
    clip,
  ]);
  run([
    "-stream_loop",
    String(Math.ceil(seconds / clipSeconds) - 1),
    "-i",
    clip,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:duration=${seconds}`,
    "-map",
    "0:v",
    "-map",
    "1:a",
    "-c:v",
    "copy",
    "-c:a",
    "aac",
    "-t",
    String(seconds),
    file,
  ]);
  fs.rmSync(clip);
}

/** CPU time of this process's finished children (ffmpeg runs), from /proc; null elsewhere. */
function childrenCpuSeconds() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ ticks
  } catch {
    return null;
  }
}

const realtime = (sourceSeconds: number, seconds: number) => `${(sourceSeconds / seconds).toFixed(2)}× realtime`;

export function formatTranscodeBench(r: TranscodeBenchResult) {
  const ladder = r.steps.find((s) => s.step === "hls")!;
  const width = Math.max(...r.steps.map((s) => s.label.length));
  const cpu = (s: TranscodeStep) => (s.cpuSeconds === null ? "" : `   ffmpeg CPU ${s.cpuSeconds.toFixed(1).padStart(6)} s`);
  const cpuTotal = r.steps.every((s) => s.cpuSeconds !== null) ? r.steps.reduce((sum, s) => sum + s.cpuSeconds!, 0) : null;
  return [
    `Transcoding a ${r.sourceSeconds.toFixed(0)} s ${r.sourceSize} ${r.frameRate} fps master with sound (testsrc2) into the default ladder's ` +
      `${r.rungs.map((rung) => rung.name).join(", ")} (${r.cpus} CPUs, load ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}; source made in ${r.sourceMadeSeconds.toFixed(1)} s)`,
    `  ${"probe".padEnd(width)}  ${r.probeSeconds.toFixed(1).padStart(6)} s`,
    ...r.steps.map((s) => `  ${s.label.padEnd(width)}  ${s.seconds.toFixed(1).padStart(6)} s  ${realtime(r.sourceSeconds, s.seconds).padStart(18)}${cpu(s)}`),
    `  whole set: ${r.totalSeconds.toFixed(1)} s, ${realtime(r.sourceSeconds, r.totalSeconds)}; the ladder alone ${realtime(r.sourceSeconds, ladder.seconds)}` +
      (cpuTotal === null
        ? ""
        : `; ffmpeg CPU ${cpuTotal.toFixed(1)} s in all (${realtime(r.sourceSeconds, cpuTotal / r.cpus)} if it had every core to itself)`),
    `  preview made (ladder, progressive MP4, preview) ${r.previewSeconds.toFixed(1)} s after the upload; ` +
      `viewers get it when the set is published, after the last step (${r.totalSeconds.toFixed(1)} s)`,
    `  rungs: ${r.rungs.map((rung) => `${rung.name} ${rung.width}x${rung.height} ${rung.kbps ?? "?"} kbit/s`).join(", ")} (measured, sound included)`,
    `  licence package: ${r.package.seconds.toFixed(1)} s (${r.package.secondsPerMinute.toFixed(1)} s per minute of ${r.sourceSize} master: its download encodes and checksums), ` +
      `${(r.package.bytes / 1024 / 1024).toFixed(1)} MB of video in ${r.package.files.map((f) => `${f.file} ${(f.bytes / 1024 / 1024).toFixed(1)} MB`).join(", ")}`,
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await runTranscodeBench({ seconds: process.argv.includes("--quick") ? 20 : 60 });
  if (!result) {
    const { FFMPEG_MISSING } = await import("../app/lib/ffmpeg.server.ts");
    console.log(`${FFMPEG_MISSING}: transcoding benchmark skipped`);
  } else {
    console.log(formatTranscodeBench(result));
    console.log(JSON.stringify(result));
  }
}
