import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { getEnv } from "./env.server.ts";

// ffmpeg and ffprobe as child processes: the media pipeline's only tools. Output is bounded
// (stdout 64 KiB, the last 16 KiB of stderr, where ffmpeg puts its reason for failing), a run
// that hangs is killed, and an abort signal (a shutdown) stops it.

export const FFMPEG_MISSING = "ffmpeg not found: install ffmpeg (or set FFMPEG_PATH) to make previews and renditions";

export class ToolMissing extends Error {}

/** A transcode of a long 4K master may take an hour on two cores; anything longer is stuck. */
const DEFAULT_TIMEOUT_MS = 2 * 60 * 60_000;

export function ffmpegPath() {
  return getEnv().FFMPEG_PATH;
}

/** ffprobe beside ffmpeg (same directory, same naming). */
export function ffprobePath() {
  const ffmpeg = ffmpegPath();
  const base = path.basename(ffmpeg);
  if (!/^ffmpeg(\.exe)?$/i.test(base)) return "ffprobe";
  const probe = base.replace(/ffmpeg/i, "ffprobe");
  return ffmpeg === base ? probe : path.join(path.dirname(ffmpeg), probe);
}

/**
 * Transcodes run at a lower CPU priority (nice 10) than the process that serves requests: on an
 * instance that does both (APP_ROLE=all) a page never waits behind an encode; the encode takes
 * what the requests leave. A worker-only process gives them everything anyway.
 */
const TOOL_NICENESS = 10;

type RunOptions = {
  signal?: AbortSignal;
  allowFailure?: boolean;
  timeoutMs?: number;
  /** Called with ffmpeg's position in the output, in seconds (needs `-progress pipe:1` in the arguments). */
  onProgress?: (seconds: number) => void;
};

export function runTool(command: string, args: string[], { signal, allowFailure = false, timeoutMs = DEFAULT_TIMEOUT_MS, onProgress }: RunOptions = {}) {
  return new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], signal, timeout: timeoutMs, killSignal: "SIGKILL" });
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, TOOL_NICENESS);
      } catch {
        // Not permitted here (or already gone): it runs at the server's own priority.
      }
    }
    let stdout = "";
    let stderr = "";
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      if (onProgress) {
        // -progress writes key=value lines; out_time_us is the output's position.
        pending += text;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const match = /^out_time_us=(\d+)/.exec(line);
          if (match) onProgress(Number(match[1]) / 1e6);
        }
        return;
      }
      if (stdout.length < 64 * 1024) stdout += text;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-16 * 1024);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        const name = path.basename(command);
        reject(new ToolMissing(name.startsWith("ffprobe") ? "ffprobe not found" : FFMPEG_MISSING));
      } else reject(error);
    });
    child.on("close", (code, killedBy) => {
      if (code === 0 || allowFailure) return resolve({ stdout, stderr });
      const reason = stderr.trim().split("\n").slice(-3).join(" ").trim();
      reject(new Error(`${path.basename(command)} failed (${killedBy ?? `exit ${code}`}): ${reason}`));
    });
  });
}

/** Runs ffmpeg quietly, reporting progress when asked. */
export function runFfmpeg(args: string[], options: RunOptions = {}) {
  const progress = options.onProgress ? ["-progress", "pipe:1", "-nostats"] : [];
  return runTool(ffmpegPath(), ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", ...progress, ...args], options);
}

export type MediaProbe = { width: number; height: number; duration: number; frameRate: number; hasAudio: boolean };

/** What the pipeline needs to know of a master: its first video stream, duration, and whether it has sound. */
export async function probeMedia(input: string, signal?: AbortSignal): Promise<MediaProbe> {
  const { stdout } = await runTool(
    ffprobePath(),
    ["-v", "error", "-show_entries", "stream=codec_type,width,height,avg_frame_rate,r_frame_rate:format=duration", "-of", "json", input],
    { signal, timeoutMs: 60_000 },
  );
  const parsed = JSON.parse(stdout) as {
    streams?: { codec_type?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string }[];
    format?: { duration?: string };
  };
  const video = parsed.streams?.find((stream) => stream.codec_type === "video" && stream.width && stream.height);
  if (!video) throw new Error("ffprobe found no video stream");
  const duration = Number.parseFloat(parsed.format?.duration ?? "");
  if (!(duration > 0)) throw new Error("ffprobe could not tell the video's duration");
  return {
    width: video.width!,
    height: video.height!,
    duration,
    frameRate: rate(video.avg_frame_rate) || rate(video.r_frame_rate) || 25,
    hasAudio: parsed.streams!.some((stream) => stream.codec_type === "audio"),
  };
}

/** "30000/1001" → 29.97; "0/0" → 0. */
function rate(fraction: string | undefined) {
  const [num, den] = (fraction ?? "").split("/").map(Number);
  return num && den ? num / den : 0;
}

/** A media file's duration in seconds: ffprobe when present, else ffmpeg's own report. */
export async function measureDuration(file: string, signal?: AbortSignal): Promise<number> {
  try {
    const { stdout } = await runTool(ffprobePath(), ["-v", "error", "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", file], {
      signal,
      timeoutMs: 60_000,
    });
    const seconds = Number.parseFloat(stdout.trim());
    if (Number.isFinite(seconds)) return seconds;
  } catch (error) {
    if (!(error instanceof ToolMissing)) throw error;
  }
  // `ffmpeg -i file` prints "Duration: 00:00:10.00" and exits 1 (no output named).
  const { stderr } = await runTool(ffmpegPath(), ["-hide_banner", "-nostdin", "-i", file], { signal, allowFailure: true, timeoutMs: 60_000 });
  const match = /Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (!match) throw new Error("Could not measure the file's duration");
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** The first video stream's frame size, as ffprobe reports it. */
export async function probeVideoSize(file: string, signal?: AbortSignal): Promise<{ width: number; height: number }> {
  const { stdout } = await runTool(
    ffprobePath(),
    ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=s=x:p=0", file],
    { signal, timeoutMs: 60_000 },
  );
  const match = /^(\d+)x(\d+)/.exec(stdout.trim());
  if (!match) throw new Error("ffprobe found no video stream");
  return { width: Number(match[1]), height: Number(match[2]) };
}
