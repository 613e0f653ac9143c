/** Account type and e-mail status (free or premium, verified or unverified). */
export function AccountStatusBadges({ accountType, isEmailVerified }: { accountType: "free" | "premium"; isEmailVerified: boolean }) {
  return (
    <p className="flex flex-wrap gap-2 text-sm">
      <span className={`rounded-full px-2.5 py-0.5 font-medium ${accountType === "premium" ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-700"}`}>
        {accountType === "premium" ? "Premium account" : "Free account"}
      </span>
      <span className={`rounded-full px-2.5 py-0.5 font-medium ${isEmailVerified ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"}`}>
        {isEmailVerified ? "Email verified" : "Email unverified"}
      </span>
    </p>
  );
}
