// The brand colours outside CSS (the web manifest, <meta name="theme-color">): app.css's
// --color-brand-700, the favicon's tile, and the pages' white.
export const THEME_COLOR = "#0f4f8a";
export const BACKGROUND_COLOR = "#ffffff";
