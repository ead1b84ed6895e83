import { CancelBody, HoldBody, ShipBody, shipTracking } from "../orders/operator-moves.ts";
import { type HoldReason, type Move, type OrderStatus, releasable, TRANSITIONS } from "../orders/state-machine.ts";

/**
 * The moves an operator makes from the console, in the order their forms appear. The start has its own
 * panel at the top of the order page (start-panel.tsx), where a scan of the work ticket lands.
 */
export const CONSOLE_MOVES = ["start", "ship", "hold", "release", "deliver", "cancel"] as const;
export type ConsoleMove = (typeof CONSOLE_MOVES)[number];

/** Whether a path segment names a console move. */
export function isConsoleMove(candidate: string): candidate is ConsoleMove {
	return (CONSOLE_MOVES as readonly string[]).includes(candidate);
}

/**
 * The moves the transition table lets an operator make from `status`: the forms the Moves panel
 * shows. A release is left out when the hold's reason is one only the partner can fix (the state
 * machine refuses it too), and the start, which has a panel of its own.
 */
export function movesAllowedFrom(status: OrderStatus, holdReason: HoldReason | null = null): ConsoleMove[] {
	return CONSOLE_MOVES.filter((kind) => {
		const rule = TRANSITIONS[kind];
		if (kind === "start") return false;
		if (kind === "release" && !releasable(holdReason)) return false;
		return rule.from.includes(status) && rule.actors.includes("operator");
	});
}

/** What the order page says after a move went through. */
export const DONE_MESSAGES: Readonly<Record<ConsoleMove, string>> = {
	start: "Production started: the partner can no longer change or cancel the order.",
	ship: "Order shipped.",
	hold: "Order put on hold.",
	release: "Hold released: the order is being validated again.",
	deliver: "Order marked delivered.",
	cancel: "Order canceled.",
};

/** Whether a cancel's form is the confirmation (the second step), not the first press. */
export function cancelConfirmed(form: Readonly<Record<string, unknown>>): boolean {
	return form.confirm === "yes";
}

/** The text fields of a move's form, as typed (kept when the form comes back with errors). */
export type MoveFormValues = Readonly<Record<string, string>>;

/** The form's labels by field name, for error messages that name what the operator sees. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
	carrier: "Carrier",
	number: "Tracking number",
	url: "Tracking URL",
	message: "Hold message",
	reason: "Reason",
};

/** A form read into a move, or the problem with each field. */
export type MoveFromForm =
	| { ok: true; move: Move }
	| { ok: false; values: MoveFormValues; fieldErrors: Readonly<Record<string, string>> };

/** A form that came back with errors: which move, what was typed, and what is wrong with each field. */
export type InvalidMoveForm = {
	move: ConsoleMove;
	values: MoveFormValues;
	fieldErrors: Readonly<Record<string, string>>;
};

function textField(form: Readonly<Record<string, unknown>>, name: string): string {
	const value = form[name];
	return typeof value === "string" ? value : "";
}

/**
 * Reads a posted form into the move it asks for, validated by the same schemas as the ops API.
 * A missing field reads as empty, so its message is "must not be empty" rather than a type error.
 */
export function moveFromForm(kind: ConsoleMove, form: Readonly<Record<string, unknown>>): MoveFromForm {
	switch (kind) {
		case "ship": {
			const values = {
				carrier: textField(form, "carrier"),
				number: textField(form, "number"),
				url: textField(form, "url"),
			};
			// An empty URL is left out: the carrier's template then builds it, or the schema asks for it.
			const { url, ...rest } = values;
			const parsed = ShipBody.safeParse(url === "" ? rest : values);
			return parsed.success
				? { ok: true, move: { kind, tracking: shipTracking(parsed.data) } }
				: invalid(values, parsed.error);
		}
		case "hold": {
			const values = { message: textField(form, "message") };
			const parsed = HoldBody.safeParse(values);
			return parsed.success
				? { ok: true, move: { kind, message: parsed.data.message } }
				: invalid(values, parsed.error);
		}
		case "cancel": {
			const values = { reason: textField(form, "reason") };
			const parsed = CancelBody.safeParse(values);
			return parsed.success ? { ok: true, move: { kind, reason: parsed.data.reason } } : invalid(values, parsed.error);
		}
		case "start":
		case "release":
		case "deliver":
			return { ok: true, move: { kind } };
	}
}

function invalid(
	values: MoveFormValues,
	error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
): MoveFromForm {
	const fieldErrors: Record<string, string> = {};
	for (const issue of error.issues) {
		const field = String(issue.path[0] ?? "form");
		// The first problem of a field is the one worth fixing first.
		fieldErrors[field] ??= `${FIELD_LABELS[field] ?? field} ${issue.message}.`;
	}
	return { ok: false, values, fieldErrors };
}
