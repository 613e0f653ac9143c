import { Router } from "express";

// Object storage routes (/objects/uploads/{id}, signed upload PUTs) are mounted here.
export function mediaRouter() {
  return Router();
}
