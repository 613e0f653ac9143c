/** Shown on every checkout screen while the local test mode takes the payments. */
export function TestModeBanner({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <p role="note" className="mb-6 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-center font-semibold text-amber-950">
      Test mode — no real payments
    </p>
  );
}
