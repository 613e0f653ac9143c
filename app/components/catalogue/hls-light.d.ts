// hls.js ships its light build (no alternate audio, subtitles, DRM or CMCD) without a
// declaration file of its own; its API is the full build's.
declare module "hls.js/light" {
  export * from "hls.js";
  export { default } from "hls.js";
}
