import { useId, useState } from "react";
import { useHydrated } from "~/components/ui/use-hydrated.ts";
import { showToast } from "~/components/ui/show-toast.ts";
import { ErrorList, type ListOfErrors } from "~/components/ui/field.tsx";

// An admin file field (cover, video, download file, doctor photo, thumbnail). Without
// JavaScript it is a file input in a multipart form: the action streams the file to storage,
// and a hidden input keeps the current path when no file is chosen. With JavaScript the file
// goes straight to storage as soon as it is chosen (POST /api/objects/upload, then a PUT to the
// URL it answers), showing idle / uploading with a percentage / success /
// failed, and the hidden input carries the new path.

type UploadState =
  { status: "idle" } | { status: "uploading"; percent: number } | { status: "success"; path: string; fileName: string } | { status: "failed"; message: string };

export type FileFieldProps = {
  label: string;
  name: string;
  /** The upload kind the server checks: cover, video, download, doctor-photo, thumbnail. */
  kind: string;
  accept: string;
  maxMB: number;
  current?: string | null;
  hint?: string;
  errors?: ListOfErrors;
  /** Show the current file as an image. */
  image?: boolean;
};

/** The product's oversize message: "File size must be less than {N}MB." */
const oversize = (maxMB: number) => `File size must be less than ${maxMB}MB.`;

function putWithProgress(url: string, file: File, onProgress: (percent: number) => void) {
  return new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("PUT", url);
    request.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      let message = "Upload failed";
      try {
        message = JSON.parse(request.responseText).message ?? message;
      } catch {
        // Not JSON (an S3 error document): keep the generic text.
      }
      reject(new Error(message));
    };
    request.onerror = () => reject(new Error("Upload failed"));
    request.send(file);
  });
}

async function uploadDirect(kind: string, file: File, onProgress: (percent: number) => void) {
  const response = await fetch("/api/objects/upload", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ kind, fileName: file.name, contentType: file.type, size: file.size }),
  });
  const body = (await response.json().catch(() => ({}))) as { uploadURL?: string; path?: string; message?: string };
  if (!response.ok || !body.uploadURL || !body.path) throw new Error(body.message ?? "Upload failed");
  await putWithProgress(body.uploadURL, file, onProgress);
  return body.path;
}

export function FileField({ label, name, kind, accept, maxMB, current, hint, errors, image }: FileFieldProps) {
  const id = useId();
  const enhanced = useHydrated();
  const [state, setState] = useState<UploadState>({ status: "idle" });
  const [sizeError, setSizeError] = useState<string | null>(null);
  const [remove, setRemove] = useState(false);
  // The server's errors about the file chosen before: a later successful upload answers them, so
  // they leave the screen then (a new refusal of the next save is a new list, and shows).
  const [answered, setAnswered] = useState<ListOfErrors | null>(null);

  const value = state.status === "success" ? state.path : remove ? "" : (current ?? "");
  const shownErrors = [sizeError, ...(errors && errors !== answered ? errors : [])];
  const errorId = shownErrors.some(Boolean) ? `${id}-error` : undefined;

  async function onChange(event: React.ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setSizeError(null);
    if (!file) return setState({ status: "idle" });
    if (file.size > maxMB * 1024 * 1024) {
      event.currentTarget.value = "";
      setState({ status: "idle" });
      return setSizeError(oversize(maxMB));
    }
    setState({ status: "uploading", percent: 0 });
    try {
      const path = await uploadDirect(kind, file, (percent) => setState({ status: "uploading", percent }));
      setState({ status: "success", path, fileName: file.name });
      setAnswered(errors ?? null);
    } catch (error) {
      const message = error instanceof Error ? error.message : "Upload failed";
      setState({ status: "failed", message });
      showToast({ title: "Upload Failed", description: message, type: "error" });
    }
  }

  return (
    <div data-upload-state={state.status}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {current && !remove && state.status !== "success" ? (
        <div className="mb-2 flex items-center gap-3 text-sm text-slate-600">
          {image ? <img src={current} alt="" className="h-14 w-14 rounded-lg object-cover" /> : null}
          <a href={current} className="truncate text-brand-700 hover:underline" target="_blank" rel="noreferrer">
            Current file
          </a>
        </div>
      ) : null}
      {/* The path the write attaches; a file chosen without JavaScript replaces it on the server. */}
      <input type="hidden" name={name} value={value} />
      <input
        id={id}
        type="file"
        // With JavaScript the file is uploaded already: the form sends only its path.
        name={enhanced ? undefined : name}
        accept={accept}
        onChange={enhanced ? onChange : undefined}
        disabled={state.status === "uploading"}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={[errorId, hint ? `${id}-hint` : null, `${id}-status`].filter(Boolean).join(" ")}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold hover:file:bg-slate-200"
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <p id={`${id}-status`} role="status" className="mt-1 text-sm">
        {state.status === "uploading" ? (
          <span className="text-slate-700">
            Uploading... {state.percent}%
            <progress className="ml-2 align-middle" max={100} value={state.percent} aria-label={`${label} upload progress`} />
          </span>
        ) : state.status === "success" ? (
          <span className="text-green-700">Uploaded {state.fileName}</span>
        ) : state.status === "failed" ? (
          <span className="text-red-700">Upload failed: {state.message}</span>
        ) : null}
      </p>
      {current ? (
        <label className="mt-1 flex items-center gap-2 text-sm text-slate-600">
          <input type="checkbox" name={`${name}Remove`} checked={remove} onChange={(e) => setRemove(e.currentTarget.checked)} />
          Remove the current file
        </label>
      ) : null}
      <ErrorList id={errorId} errors={shownErrors} />
    </div>
  );
}
