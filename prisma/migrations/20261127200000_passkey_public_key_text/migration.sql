-- The passkey's public key as base64url text: the embedded database's Prisma adapter cannot bind
-- a BYTEA parameter (Prisma hands it base64 text), so a passkey could not be stored on PGlite.
ALTER TABLE "Passkey" ALTER COLUMN "publicKey" TYPE TEXT USING translate(trim(trailing '=' from encode("publicKey", 'base64')), E'+/\n', '-_');
