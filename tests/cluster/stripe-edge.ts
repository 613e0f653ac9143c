import { setupServer } from "msw/node";
import { createStripeMock } from "../mocks/stripe.ts";

// Preloaded (`node --import`) into each instance the two-instance test starts: Stripe's HTTP
// edge answered by msw with tests/mocks/stripe.ts's handlers, as the in-process tests do, so
// the instances run in Stripe mode without the network. Every other request (the instances'
// own database, s3rver, the SMTP sink) goes through untouched.
const server = setupServer(...createStripeMock().handlers);
server.listen({ onUnhandledRequest: "bypass" });
