/**
 * The people page (owners only): the account's users with their role, standing and last sign-in, the
 * invitation form (whose link is shown once, on the answer to the invitation), and a revoke form with
 * its confirmation for each user who may be revoked.
 */
import { formatTime } from "../http/format.ts";
import { PARTNER_ROLES, type PartnerUserRow, type PartnerUserStanding } from "../partner-users/users.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { ROLE_WORDS } from "./permissions.ts";
import { type ConsoleMode, withMode } from "./scope.ts";

/** What a done word says after a people form: fixed sentences, never text from the address. */
export const PEOPLE_DONE = {
	revoked: "The user is revoked: they cannot sign in any more, and every session of theirs has ended.",
} as const;

/** A user as the page lists them. */
export type PersonLine = { user: PartnerUserRow; standing: PartnerUserStanding; lastSignIn: string | null };

/** An invitation just made: who, and the link shown this once. */
export type NewInvitation = { name: string; email: string; url: string; expiresAt: string };

/** What the invitation form held, shown again when it is refused. */
export type InviteValues = { email: string; name: string; role: string };

export type PeoplePageProps = {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	/** The signed-in owner's id: they cannot revoke themself. */
	selfId: string;
	people: PersonLine[];
	invited: NewInvitation | null;
	done: string | null;
	refusal: string | null;
	/** Which form the refusal is about: the invitation's (shown beside it), or a revocation. */
	refusedForm?: "invite" | "revoke";
	inviteValues: InviteValues;
};

const STANDING_WORDS: Readonly<Record<PartnerUserStanding, string>> = {
	invited: "Invited",
	active: "Active",
	locked: "Locked for now",
	revoked: "Revoked",
};

const PEOPLE_CSS = `
.check { display: flex; gap: .5rem; align-items: flex-start; font-weight: 600; margin: 0; }
.check input { margin-top: .3rem; }
td form button { margin-top: .4rem; padding: .35rem .8rem; }
.badge.revoked { background: #fee4e2; color: #7a271a; }
.badge.active { background: #dcfce7; color: #14532d; }
.badge.locked { background: #fef3c7; color: #78350f; }
.link-box { font-weight: 400; }
.roles { margin: .5rem 0 0; padding-left: 1.2rem; color: var(--muted); }
`;

const ROLE_LABELS: Readonly<Record<(typeof PARTNER_ROLES)[number], string>> = {
	owner: "Owner",
	developer: "Developer",
	support: "Support",
	viewer: "Viewer",
};

function RevokeForm({ line, viewer, mode }: { line: PersonLine; viewer: LayoutViewer; mode: ConsoleMode }) {
	const id = `confirm-${line.user.id}`;
	return (
		<form method="post" action={withMode(`/partner/people/${line.user.id}/revoke`, mode)}>
			<input type="hidden" name="_csrf" value={viewer.csrfToken} />
			<label class="check" for={id}>
				<input id={id} name="confirm" type="checkbox" value="yes" required />
				Yes, revoke {line.user.name}
			</label>
			<button type="submit" class="danger">
				Revoke
			</button>
		</form>
	);
}

function PeopleTable({ people, selfId, viewer, mode }: Pick<PeoplePageProps, "people" | "selfId" | "viewer" | "mode">) {
	return (
		<div class="table-wrap">
			<table>
				<caption class="muted">The account's console users, oldest first</caption>
				<thead>
					<tr>
						<th scope="col">Name</th>
						<th scope="col">Email</th>
						<th scope="col">Role</th>
						<th scope="col">Status</th>
						<th scope="col">Last sign-in</th>
						<th scope="col">Revoke</th>
					</tr>
				</thead>
				<tbody>
					{people.map((line) => (
						<tr>
							<td>{line.user.name}</td>
							<td class="mono">{line.user.email}</td>
							<td>{ROLE_LABELS[line.user.role]}</td>
							<td>
								<span class={`badge ${line.standing}`}>{STANDING_WORDS[line.standing]}</span>
							</td>
							<td>{line.lastSignIn === null ? "Not known" : formatTime(line.lastSignIn)}</td>
							<td>
								{line.user.id === selfId ? (
									"You"
								) : line.standing === "revoked" ? (
									"Revoked"
								) : (
									<RevokeForm line={line} viewer={viewer} mode={mode} />
								)}
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

function InviteForm({ viewer, mode, values }: { viewer: LayoutViewer; mode: ConsoleMode; values: InviteValues }) {
	return (
		<form method="post" action={withMode("/partner/people/invite", mode)}>
			<input type="hidden" name="_csrf" value={viewer.csrfToken} />
			<div class="grid">
				<div>
					<label for="invite-email">Email</label>
					<input id="invite-email" name="email" type="email" maxlength={254} value={values.email} required />
				</div>
				<div>
					<label for="invite-name">Name</label>
					<input id="invite-name" name="name" type="text" maxlength={200} value={values.name} required />
				</div>
				<div>
					<label for="invite-role">Role</label>
					<select id="invite-role" name="role" aria-describedby="role-words">
						{PARTNER_ROLES.map((role) => (
							<option value={role} selected={values.role === role}>
								{ROLE_LABELS[role]}
							</option>
						))}
					</select>
				</div>
			</div>
			<ul class="roles" id="role-words">
				{PARTNER_ROLES.map((role) => (
					<li>{ROLE_WORDS[role]}</li>
				))}
			</ul>
			<button type="submit">Invite</button>
		</form>
	);
}

function InvitationLink({ invited }: { invited: NewInvitation }) {
	return (
		<div role="status">
			<p>
				{invited.name} ({invited.email}) is invited. Send them this link: it sets their password once, until{" "}
				{formatTime(invited.expiresAt)}. It is shown only now.
			</p>
			<label class="link-box" for="invitation-link">
				Invitation link
			</label>
			<input id="invitation-link" type="text" readonly value={invited.url} class="mono" />
		</div>
	);
}

/** The people page. */
export function PeoplePage(props: PeoplePageProps) {
	const { viewer, mode, refusal, refusedForm } = props;
	return (
		<PartnerLayout title="People" viewer={viewer} mode={mode} section="people" css={PEOPLE_CSS}>
			<h1>People</h1>
			<p class="muted">Who can sign in to this account's console, in live and test alike. Only owners see this page.</p>
			{props.done === null ? null : <p role="status">{props.done}</p>}
			{props.invited === null ? null : <InvitationLink invited={props.invited} />}
			{refusal === null || refusedForm === "invite" ? null : <div role="alert">{refusal}</div>}
			<section class="panel" aria-labelledby="people-heading">
				<h2 id="people-heading">Users</h2>
				<PeopleTable people={props.people} selfId={props.selfId} viewer={viewer} mode={mode} />
			</section>
			<section class="panel" aria-labelledby="invite-heading">
				<h2 id="invite-heading">Invite someone</h2>
				{refusal === null || refusedForm !== "invite" ? null : <div role="alert">{refusal}</div>}
				<InviteForm viewer={viewer} mode={mode} values={props.inviteValues} />
			</section>
		</PartnerLayout>
	);
}
