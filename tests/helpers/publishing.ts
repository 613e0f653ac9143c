import crypto from "node:crypto";
import { prisma } from "~/lib/db.server.ts";

/**
 * Records a finished media ladder for the animation's current master, as the transcode job's
 * last transaction does, without running ffmpeg: for tests about publishing, not about media
 * (tests/integration/publishing.test.ts runs the real job).
 */
export async function finishLadder(animationId: string) {
  const { fullVideo } = await prisma.animation.findUniqueOrThrow({ where: { id: animationId }, select: { fullVideo: true } });
  if (!fullVideo) throw new Error("finishLadder: the animation has no full video");
  const id = crypto.randomUUID();
  await prisma.mediaSet.create({
    data: { id, animationId, sourcePath: fullVideo, sourceWidth: 1280, sourceHeight: 720, duration: 30, frameRate: 25, hasAudio: false },
  });
  await prisma.animation.update({ where: { id: animationId }, data: { mediaSetId: id } });
}

/** Ready to publish: a finished ladder and a current medical review by `doctorId`. */
export async function makeReady(animationId: string, doctorId: string) {
  await finishLadder(animationId);
  const day = 86_400_000;
  await prisma.animation.update({
    where: { id: animationId },
    data: { medicalReviewerId: doctorId, medicallyReviewedAt: new Date(Date.now() - day), reviewDueAt: new Date(Date.now() + 300 * day) },
  });
}
