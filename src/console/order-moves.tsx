/**
 * The order page's moves: a form for each move the order's status allows, posting with the
 * session's form token, and above them why the last one did not go through. A form that came
 * back with errors keeps what was typed and shows each field's problem.
 */
import { KNOWN_CARRIER_NAMES } from "../orders/carrier-tracking.ts";
import { type HoldReason, type OrderStatus, releasable } from "../orders/state-machine.ts";
import { CsrfField } from "./layout.tsx";
import { type ConsoleMove, type InvalidMoveForm, movesAllowedFrom } from "./move-forms.ts";

/** What a refused or invalid move is called in the alert. */
const NOT_DONE: Readonly<Record<ConsoleMove, string>> = {
	start: "Production was not started",
	ship: "The order was not shipped",
	hold: "The order was not put on hold",
	release: "The hold was not released",
	deliver: "The order was not marked delivered",
	cancel: "The order was not canceled",
};

/** What a form that came back holds: what was typed, and each field's problem. */
export type ReturnedForm = {
	values: Readonly<Record<string, string>>;
	fieldErrors: Readonly<Record<string, string>>;
};

/** One text field of a form, its id `<idPrefix>-<name>`, and the form if it came back with errors. */
type FieldProps = {
	idPrefix: string;
	name: string;
	label: string;
	form: ReturnedForm | null;
	type?: "text" | "url";
	maxLength?: number;
};

/** A labelled input that keeps what was typed and shows its error when its form came back. */
export function Field({ idPrefix, name, label, form, type = "text", maxLength }: FieldProps) {
	const id = `${idPrefix}-${name}`;
	const value = form?.values[name] ?? "";
	const error = form?.fieldErrors[name];
	const errorId = `${id}-error`;
	const described = error === undefined ? {} : { "aria-invalid": "true", "aria-describedby": errorId };
	return (
		<>
			<label for={id}>{label}</label>
			<input id={id} name={name} type={type} value={value} maxlength={maxLength} {...described} />
			{error === undefined ? null : (
				<p class="field-error" id={errorId}>
					{error}
				</p>
			)}
		</>
	);
}

/** A label's fields: carrier, tracking number and the tracking page (optional where the number gives it). */
export function LabelFields({ idPrefix, form }: { idPrefix: string; form: ReturnedForm | null }) {
	return (
		<>
			<Field idPrefix={idPrefix} name="carrier" label="Carrier" form={form} />
			<Field idPrefix={idPrefix} name="number" label="Tracking number" form={form} />
			<Field
				idPrefix={idPrefix}
				name="url"
				label={`Tracking URL (optional for ${KNOWN_CARRIER_NAMES})`}
				type="url"
				form={form}
			/>
		</>
	);
}

/** The start's form: one button, posting to `/ops/orders/<id>/start` with the session's form token. */
export function StartForm({ orderId, csrfToken }: { orderId: string; csrfToken: string }) {
	return (
		<form method="post" action={`/ops/orders/${orderId}/start`}>
			<CsrfField token={csrfToken} />
			<button type="submit" data-testid="start-production">
				Start production
			</button>
		</form>
	);
}

/** The form of one move, posting to `/ops/orders/<id>/<move>` with the session's form token. */
function MoveForm({
	orderId,
	move,
	csrfToken,
	invalid,
}: {
	orderId: string;
	move: ConsoleMove;
	csrfToken: string;
	invalid: InvalidMoveForm | null;
}) {
	const action = `/ops/orders/${orderId}/${move}`;
	switch (move) {
		case "start":
			return <StartForm orderId={orderId} csrfToken={csrfToken} />;
		case "ship":
			return (
				<form method="post" action={action}>
					<h3>Ship</h3>
					<CsrfField token={csrfToken} />
					<LabelFields idPrefix="ship" form={invalid?.move === "ship" ? invalid : null} />
					<button type="submit">Mark shipped</button>
				</form>
			);
		case "hold":
			return (
				<form method="post" action={action}>
					<h3>Hold</h3>
					<CsrfField token={csrfToken} />
					{/* One line, like every operator text (it goes into the partner's webhook): an input, not a textarea. */}
					<Field
						idPrefix="hold"
						name="message"
						label="Hold message"
						maxLength={1000}
						form={invalid?.move === "hold" ? invalid : null}
					/>
					<button type="submit">Put on hold</button>
				</form>
			);
		case "release":
			return (
				<form method="post" action={action}>
					<h3>Release</h3>
					<p class="muted">The order is validated again, then goes back into production.</p>
					<CsrfField token={csrfToken} />
					<button type="submit">Release hold</button>
				</form>
			);
		case "deliver":
			return (
				<form method="post" action={action}>
					<h3>Deliver</h3>
					<p class="muted">The carrier reports the package delivered.</p>
					<CsrfField token={csrfToken} />
					<button type="submit">Mark delivered</button>
				</form>
			);
		case "cancel":
			// The first press asks to confirm (ConfirmCancel); nothing is canceled from here in one click. The
			// fragment brings the confirmation, at the top of the page, into view however far down this form is.
			return (
				<form method="post" action={`${action}#confirm-cancel`} class="danger">
					<h3>Cancel</h3>
					<p class="muted">The partner is told at once. This cannot be undone. You are asked to confirm.</p>
					<CsrfField token={csrfToken} />
					<Field
						idPrefix="cancel"
						name="reason"
						label="Reason (kept in the order's history)"
						maxLength={1000}
						form={invalid?.move === "cancel" ? invalid : null}
					/>
					<button type="submit" class="danger">
						Cancel order…
					</button>
				</form>
			);
	}
}

/**
 * The second step of a cancel: the reason given, and a button that cancels, or a way back. Shown at the
 * top of the order page, so the operator sees it without scrolling; only when the status allows a cancel.
 */
export function ConfirmCancel({
	orderId,
	externalId,
	status,
	reason,
	csrfToken,
}: {
	orderId: string;
	externalId: string;
	status: OrderStatus;
	reason: string;
	csrfToken: string;
}) {
	if (!movesAllowedFrom(status).includes("cancel")) {
		return <div role="alert">This order can no longer be canceled: it is {status.replaceAll("_", " ")}.</div>;
	}
	return (
		<section
			class="panel confirm-cancel"
			id="confirm-cancel"
			aria-labelledby="confirm-cancel-heading"
			data-testid="confirm-cancel"
		>
			<h2 id="confirm-cancel-heading">Cancel order {externalId}?</h2>
			<p>
				The partner is told at once, and it cannot be undone. Reason: <strong>{reason}</strong>
			</p>
			<form method="post" action={`/ops/orders/${orderId}/cancel`} class="confirm-actions">
				<CsrfField token={csrfToken} />
				<input type="hidden" name="reason" value={reason} />
				<input type="hidden" name="confirm" value="yes" />
				<button type="submit" class="danger">
					Yes, cancel the order
				</button>
				<a href={`/ops/orders/${orderId}`}>No, keep the order</a>
			</form>
		</section>
	);
}

/** The alert above the forms: a refused move, or a summary of the fields to fix. */
function MoveAlert({ refusal, invalid }: { refusal: string | null; invalid: InvalidMoveForm | null }) {
	if (refusal !== null) return <div role="alert">{refusal}</div>;
	if (invalid === null) return null;
	return (
		<div role="alert">
			{NOT_DONE[invalid.move]}: {Object.values(invalid.fieldErrors).join(" ")}
		</div>
	);
}

/** The moves section of the order page; `refusal` is a move the status refused, `invalid` a form with errors. */
export function MovesPanel({
	orderId,
	status,
	holdReason,
	csrfToken,
	refusal,
	invalid,
}: {
	orderId: string;
	status: OrderStatus;
	holdReason: HoldReason | null;
	csrfToken: string;
	refusal: string | null;
	invalid: InvalidMoveForm | null;
}) {
	const moves = movesAllowedFrom(status, holdReason);
	return (
		<section aria-labelledby="actions-heading" class="panel">
			<h2 id="actions-heading">Moves</h2>
			<MoveAlert refusal={refusal} invalid={invalid} />
			{status === "on_hold" && !releasable(holdReason) ? (
				<p class="needs-partner" data-testid="no-release">
					No release: the floor cannot fix this hold. See "What has to happen" above.
				</p>
			) : null}
			{moves.length === 0 ? (
				<p class="muted">No operator move is possible from {status}.</p>
			) : (
				<div class="actions">
					{moves.map((move) => (
						<MoveForm orderId={orderId} move={move} csrfToken={csrfToken} invalid={invalid} />
					))}
				</div>
			)}
		</section>
	);
}
