// React Router's Vite plugin serves the server build as this virtual module (app/server/app.ts
// imports it); its exports are a ServerBuild's fields.
declare module "virtual:react-router/server-build";
