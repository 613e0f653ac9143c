import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "~/components/ui/form.tsx";
import { AccountPage } from "~/components/account/account-screen.tsx";
import { PartyDetailsForm } from "~/components/account/invoices-section.tsx";
import { GeneralErrorBoundary } from "~/components/error-boundary.tsx";
import { ErrorList, Field, SelectField } from "~/components/ui/field.tsx";
import { Section } from "~/components/ui/section.tsx";
import { SubmitButton } from "~/components/ui/submit-button.tsx";
import { TextLink } from "~/components/ui/text-link.tsx";
import { ServiceError } from "~/lib/errors.server.ts";
import { formatDate } from "~/lib/format.ts";
import { formError } from "~/lib/form.server.ts";
import { discardUploads, readUploadForm } from "~/lib/upload-form.server.ts";
import { NOINDEX } from "~/lib/seo.ts";
import { redirectWithToast } from "~/lib/toast.server.ts";
import { requireUser } from "~/services/auth/guards.server.ts";
import {
  changeRole,
  createPractice,
  getMembership,
  getPractice,
  inviteMember,
  removeMember,
  revokeInvitation,
  setPracticeLogo,
  transferOwnership,
  updatePractice,
} from "~/services/practices/practices.server.ts";
import {
  INCLUDED_SEATS,
  INVITATION_DAYS,
  InvitationSchema,
  PRACTICE_ROLES,
  PracticeSchema,
  ROLE_DESCRIPTION,
  ROLE_LABEL,
  RoleChangeSchema,
  TransferSchema,
} from "~/validation/practices.ts";
import type { Route } from "./+types/practice";

// /practice: a member's practice (decision 030). Without one: the form that founds it. With one:
// its details (owners and managers edit them), its members and seats, and for owners the
// invitations, roles, removal and the transfer of ownership. Every form is a plain POST with an
// intent; each answers with a toast or its own errors beside its fields.

export const meta: Route.MetaFunction = () => [{ title: "Practice | Medanim" }, NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const membership = await getMembership(user.id);
  if (!membership) return { userId: user.id, practice: null };
  return { userId: user.id, ...(await getPractice(user, membership.practiceId)) };
}

const NOT_A_MEMBER = "You do not belong to a practice.";
const ROLE_OPTIONS = PRACTICE_ROLES.map((role) => ({ value: role, label: ROLE_LABEL[role] }));

async function practiceIdOf(userId: string) {
  const membership = await getMembership(userId);
  if (!membership) throw new ServiceError(NOT_A_MEMBER, 404);
  return membership.practiceId;
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  // The logo's form is multipart (its file streams to storage); the others are plain forms.
  const upload = await readUploadForm(request, { logo: "thumbnail" });
  const formData = upload.formData;
  const intent = String(formData.get("intent") ?? "");
  const back = (toast: Parameters<typeof redirectWithToast>[1], anchor = "") => redirectWithToast(`/practice${anchor}`, toast);

  if (intent === "create" || intent === "details") {
    const submission = parseWithZod(formData, { schema: PracticeSchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent });
    try {
      if (intent === "create") {
        await createPractice(user, submission.value);
        return back({ title: "Practice created", description: `You are the owner of ${submission.value.legalName}. Invite your colleagues below.` });
      }
      await updatePractice(user, await practiceIdOf(user.id), submission.value);
      return back({ title: "Practice details saved", description: "Invoices issued from now on are made out to them." });
    } catch (error) {
      return formError(submission, error, { intent });
    }
  }

  if (intent === "invite") {
    const submission = parseWithZod(formData, { schema: InvitationSchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent });
    try {
      const invitation = await inviteMember(user, await practiceIdOf(user.id), submission.value);
      return back(
        { title: "Invitation sent", description: `We e-mailed ${invitation.email} a link to join. It works for ${INVITATION_DAYS} days.` },
        "#members",
      );
    } catch (error) {
      return formError(submission, error, { intent });
    }
  }

  if (intent === "logo") {
    const logo = String(formData.get("logo") ?? "");
    const uploaded = upload.stored.includes(logo);
    const error = upload.errors.logo?.[0] ?? (!uploaded && formData.get("logoRemove") !== "on" ? "Choose an image (JPG or PNG)" : null);
    if (error) {
      await discardUploads(upload.stored);
      return back({ title: "Error", description: error, type: "error" }, "#practice-logo");
    }
    try {
      const replaced = await setPracticeLogo(user, await practiceIdOf(user.id), uploaded ? logo : null);
      if (replaced) await discardUploads([replaced]);
    } catch (caught) {
      await discardUploads(upload.stored);
      if (!(caught instanceof ServiceError)) throw caught;
      return back({ title: "Error", description: caught.message, type: "error" }, "#practice-logo");
    }
    return back(
      uploaded
        ? { title: "Logo saved", description: "Your patient links show it beside the practice's name." }
        : { title: "Logo removed", description: "Your patient links show the practice's name alone." },
      "#practice-logo",
    );
  }

  if (intent === "transfer") {
    const submission = parseWithZod(formData, { schema: TransferSchema });
    if (submission.status !== "success") return formError(submission, undefined, { intent });
    try {
      await transferOwnership(user, await practiceIdOf(user.id), submission.value.userId);
      return back({ title: "Ownership transferred", description: "You are now a manager of the practice." });
    } catch (error) {
      return formError(submission, error, { intent });
    }
  }

  // The row buttons: a failure comes back as a toast on the same page.
  try {
    const practiceId = await practiceIdOf(user.id);
    const memberId = String(formData.get("userId") ?? "");
    if (intent === "role") {
      const parsed = RoleChangeSchema.safeParse({ role: formData.get("role") });
      if (!parsed.success) return back({ title: "Error", description: parsed.error.issues[0]!.message, type: "error" }, "#members");
      await changeRole(user, practiceId, memberId, parsed.data.role);
      return back({ title: "Role changed", description: `Now ${ROLE_LABEL[parsed.data.role].toLowerCase()}.` }, "#members");
    }
    if (intent === "remove") {
      await removeMember(user, practiceId, memberId);
      if (memberId === user.id)
        return redirectWithToast("/practice", { title: "You left the practice", description: "Its licenses are no longer yours to use." });
      return back({ title: "Member removed", description: "They no longer have access to the practice's licenses." }, "#members");
    }
    if (intent === "revoke") {
      await revokeInvitation(user, practiceId, String(formData.get("invitationId") ?? ""));
      return back({ title: "Invitation withdrawn", description: "Its link no longer works." }, "#members");
    }
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return back({ title: "Error", description: error.message, type: "error" }, "#members");
  }
  return back({ title: "Error", description: "Unknown action", type: "error" });
}

type ActionData = { intent?: string; result?: SubmissionResult<string[]> } | undefined;
const resultFor = (actionData: ActionData, intent: string) => (actionData?.intent === intent ? actionData.result : undefined);

export default function PracticePage({ loaderData, actionData }: Route.ComponentProps) {
  const data = actionData as ActionData;
  if (!loaderData.practice) {
    return (
      <AccountPage title="Practice">
        <Section id="create-practice" title="Create a practice" className="mt-6">
          <p className="mt-2 text-sm text-slate-700">
            Buy licenses as your clinic, not as yourself. The practice's licenses are used by everyone you invite (each includes {INCLUDED_SEATS} seats), and
            its invoices and certificates name the practice, its address and its VAT or tax ID. You become its owner.
          </p>
          <PartyDetailsForm
            id="create-practice-form"
            intent="create"
            details={null}
            lastResult={resultFor(data, "create")}
            legalNameHint="The practice's registered name, as invoices should print it"
            submitLabel="Create practice"
          />
        </Section>
        <p className="mt-6 text-sm text-slate-600">Invited by a colleague? Open the link in the invitation e-mail to join their practice.</p>
      </AccountPage>
    );
  }
  const { practice, role, members, invitations, seats, activeLicences, userId } = loaderData;
  const isOwner = role === "owner";
  const manages = role === "owner" || role === "manager";
  // The last owner can neither leave nor step down: the controls that would be refused are not offered.
  const soleOwner = isOwner && members.filter((m) => m.role === "owner").length === 1;
  return (
    <AccountPage title={practice.legalName} wide>
      <p className="mt-2 text-slate-700" data-testid="practice-role">
        You are {role === "owner" ? "an owner" : `a ${ROLE_LABEL[role].toLowerCase()}`} of this practice: {ROLE_DESCRIPTION[role].toLowerCase()}.
      </p>
      <p className="mt-2 text-sm text-slate-700" data-testid="practice-seats">
        {seats.limit === null
          ? `${members.length} ${members.length === 1 ? "member" : "members"}. No active license yet: each license bought for the practice includes ${INCLUDED_SEATS} seats.`
          : `${seats.taken} of ${seats.limit} seats taken (members and open invitations), across ${activeLicences} active ${activeLicences === 1 ? "license" : "licenses"}.`}{" "}
        <TextLink to="/my-animations">The practice's animations</TextLink>
        {manages ? (
          <>
            {" · "}
            <TextLink to="/billing#practice-billing">Its billing</TextLink>
          </>
        ) : null}
      </p>

      <Section id="members" title="Members" className="mt-8">
        <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {members.map((member) => (
            <li key={member.userId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="practice-member">
              <span>
                <span className="font-medium">{member.name}</span>
                <span className="text-slate-600">{` · ${member.email} · since ${formatDate(member.since)}`}</span>
              </span>
              <span className="flex flex-wrap items-center gap-2">
                {isOwner && !(soleOwner && member.userId === userId) ? (
                  <Form method="post" className="flex items-center gap-2">
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="userId" value={member.userId} />
                    <label className="sr-only" htmlFor={`role-${member.userId}`}>{`Role of ${member.name}`}</label>
                    <select id={`role-${member.userId}`} name="role" defaultValue={member.role} className="rounded-lg border border-slate-300 px-2 py-1">
                      {ROLE_OPTIONS.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                    <SubmitButton variant="secondary" size="sm" pendingText="Saving...">
                      Save role
                    </SubmitButton>
                  </Form>
                ) : (
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{ROLE_LABEL[member.role]}</span>
                )}
                {(isOwner || member.userId === userId) && !(soleOwner && member.userId === userId) ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="userId" value={member.userId} />
                    <SubmitButton variant="danger" size="sm" pendingText="Removing...">
                      {member.userId === userId ? (
                        "Leave practice"
                      ) : (
                        <>
                          Remove<span className="sr-only">{` ${member.name}`}</span>
                        </>
                      )}
                    </SubmitButton>
                  </Form>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
        {isOwner && invitations.length ? (
          <>
            <h3 className="mt-6 font-semibold">Open invitations</h3>
            <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
              {invitations.map((invitation) => (
                <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-testid="practice-invitation">
                  <span>{`${invitation.email} · ${ROLE_LABEL[invitation.role]} · until ${formatDate(invitation.expiresAt)}`}</span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="revoke" />
                    <input type="hidden" name="invitationId" value={invitation.id} />
                    <SubmitButton variant="secondary" size="sm" pendingText="Withdrawing...">
                      Withdraw<span className="sr-only">{` the invitation of ${invitation.email}`}</span>
                    </SubmitButton>
                  </Form>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {soleOwner && members.length > 1 ? (
          <p className="mt-2 text-sm text-slate-600">You are the practice&apos;s only owner: make another member an owner before you leave.</p>
        ) : null}
        {/* Keyed by the invitations: after one is sent the form starts empty again (with JavaScript the page stays mounted). */}
        {isOwner ? <InviteForm key={invitations.length} lastResult={resultFor(data, "invite")} /> : null}
      </Section>

      {manages ? (
        <Section id="practice-details" title="Practice details" className="mt-10">
          <p className="mt-2 text-sm text-slate-700">
            The practice's invoices and certificates are made out to these details. Changes apply to documents issued from now on.
          </p>
          <PartyDetailsForm
            id="practice-details-form"
            intent="details"
            details={practice}
            lastResult={resultFor(data, "details")}
            legalNameHint="The practice's registered name, as invoices should print it"
            submitLabel="Save practice details"
          />
        </Section>
      ) : (
        <Section id="practice-details" title="Practice details" className="mt-10">
          <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="text-slate-600">Address</dt>
            <dd className="whitespace-pre-line">{`${practice.address}\n${practice.country}`}</dd>
            {practice.taxId ? (
              <>
                <dt className="text-slate-600">VAT / Tax ID</dt>
                <dd>{practice.taxId}</dd>
              </>
            ) : null}
          </dl>
        </Section>
      )}

      {manages ? <LogoForm logo={practice.logo} /> : null}

      {isOwner && members.length > 1 ? <TransferForm members={members.filter((m) => m.userId !== userId)} lastResult={resultFor(data, "transfer")} /> : null}
    </AccountPage>
  );
}

/** The logo patients see on the practice's links: a plain multipart form, the same with or without JavaScript. */
function LogoForm({ logo }: { logo: string | null }) {
  return (
    <Section id="practice-logo" title="Logo" className="mt-10">
      <p className="mt-2 text-sm text-slate-700">Shown beside the practice's name on the links you send patients. JPG or PNG, up to 10 MB.</p>
      <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-4">
        {logo ? (
          <img src={logo} alt="The practice's current logo" className="h-16 w-auto max-w-48 rounded border border-slate-200 bg-white object-contain p-1" />
        ) : null}
        <label className="text-sm">
          <span className="block font-medium">{logo ? "Replace the logo" : "Logo image"}</span>
          <input type="file" name="logo" accept="image/jpeg,image/png" className="mt-1 block text-sm" />
        </label>
        {logo ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="logoRemove" className="h-4 w-4 rounded border-slate-300" />
            Remove the logo
          </label>
        ) : null}
        <SubmitButton name="intent" value="logo" variant="secondary" pendingText="Saving...">
          Save logo
        </SubmitButton>
      </Form>
    </Section>
  );
}

function InviteForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "invite-form",
    lastResult,
    defaultValue: { role: "viewer" },
    constraint: getZodConstraint(InvitationSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InvitationSchema }),
  });
  return (
    <div className="mt-6 rounded-xl border border-slate-200 bg-white p-4">
      <h3 className="font-semibold">Invite a colleague</h3>
      <p className="mt-1 text-sm text-slate-600">{`They get an e-mail with a link that works for ${INVITATION_DAYS} days, and need an account with that address to accept.`}</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid gap-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
        <input type="hidden" name="intent" value="invite" />
        <Field label="Email" {...getInputProps(fields.email, { type: "email" })} errors={fields.email.errors} />
        <SelectField label="Role" options={ROLE_OPTIONS} {...getSelectProps(fields.role)} errors={fields.role.errors} />
        <div>
          <SubmitButton pendingText="Sending...">Send invitation</SubmitButton>
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
      </Form>
      <ul className="mt-3 text-xs text-slate-600">
        {PRACTICE_ROLES.map((role) => (
          <li key={role}>{`${ROLE_LABEL[role]}: ${ROLE_DESCRIPTION[role]}.`}</li>
        ))}
      </ul>
    </div>
  );
}

function TransferForm({
  members,
  lastResult,
}: {
  members: Array<{ userId: string; name: string; email: string }>;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "transfer-form",
    lastResult,
    constraint: getZodConstraint(TransferSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TransferSchema }),
  });
  return (
    <Section id="transfer" title="Transfer ownership" className="mt-10">
      <p className="mt-2 text-sm text-slate-700">The member you choose becomes an owner; you stay on as a manager.</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 grid max-w-xl gap-4">
        <input type="hidden" name="intent" value="transfer" />
        <SelectField
          label="New owner"
          placeholder="Choose a member"
          options={members.map((m) => ({ value: m.userId, label: `${m.name} (${m.email})` }))}
          {...getSelectProps(fields.userId)}
          errors={fields.userId.errors}
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div>
          <SubmitButton variant="secondary" pendingText="Transferring...">
            Transfer ownership
          </SubmitButton>
        </div>
      </Form>
    </Section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
