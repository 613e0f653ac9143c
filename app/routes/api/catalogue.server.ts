// Cache lifetimes of the catalogue's /api calls: animations and detail
// 5 minutes, main categories 10 minutes.
export const FIVE_MINUTES = 300;
export const TEN_MINUTES = 600;
