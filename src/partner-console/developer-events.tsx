/**
 * The developers' corner's event log: the page's mode's events, newest first and paged, each with its
 * deliveries (the order's callback URL and each endpoint's): status, attempts, the last attempt's time,
 * status code and error excerpt, the next try; and a resend button, the API's redeliverEvent.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { databaseOf } from "../databases.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { formatTime } from "../http/format.ts";
import { page } from "../http/html-pages.ts";
import { redeliverEvent } from "../webhooks/redeliver-event.ts";
import { type DeliveryStatus, type EventRow, listEventPage } from "../webhooks/store.ts";
import { DeveloperFrame, developerPath, doneSentence } from "./developer-frame.tsx";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { ownerOf } from "./scope.ts";
import { requirePartnerCsrf } from "./session-gate.ts";

/** Events per page: each carries its deliveries, so a page stays well under 100 kB. */
const EVENTS_PER_PAGE = 20;

const STATUS_WORDS: Readonly<Record<DeliveryStatus, string>> = {
	pending: "Sending",
	delivered: "Delivered",
	failed: "Failed",
	no_endpoint: "No receiver",
};
const STATUS_BADGES: Readonly<Record<DeliveryStatus, string>> = {
	pending: "badge",
	delivered: "badge done",
	failed: "badge failed",
	no_endpoint: "badge",
};

/** One receiver's delivery of an event, as the table lists it. */
type DeliveryLine = {
	receiver: string;
	status: DeliveryStatus;
	attempts: number;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	next_attempt_at: string | null;
};

function deliveriesOf(event: EventRow): DeliveryLine[] {
	const lines: DeliveryLine[] = [];
	if (event.d_status !== null) {
		lines.push({
			receiver: event.url === null ? "No callback URL" : `Callback: ${event.url}`,
			status: event.d_status,
			attempts: event.attempts ?? 0,
			last_attempt_at: event.last_attempt_at,
			last_status_code: event.last_status_code,
			last_error: event.last_error,
			next_attempt_at: event.next_attempt_at,
		});
	}
	for (const delivery of event.endpoint_deliveries) lines.push({ ...delivery, receiver: `Endpoint: ${delivery.url}` });
	return lines;
}

function EventsPage(props: {
	c: Context<SignedInPartnerEnv>;
	events: EventRow[];
	nextCursor: string | null;
	alert?: string | null;
}) {
	const { c, events, nextCursor } = props;
	const csrfToken = c.var.signedIn.csrfToken;
	return (
		<DeveloperFrame
			c={c}
			title="Event log"
			current="events"
			notice={doneSentence(c)}
			alert={props.alert}
			css={EVENTS_CSS}
		>
			{events.length === 0 ? <p class="panel">No events yet in this mode.</p> : null}
			{events.map((event) => {
				const deliveries = deliveriesOf(event);
				return (
					<section class="panel event" aria-labelledby={`event-${event.id}`}>
						<h2 id={`event-${event.id}`}>
							{event.type} <span class="muted">· {formatTime(event.created_at, true)}</span>
						</h2>
						<p class="muted">
							Event <span class="mono">{event.id}</span> of order <span class="mono">{event.order_id}</span>
						</p>
						{deliveries.length === 0 ? (
							<p>Recorded in the log only: this event is not sent.</p>
						) : (
							<section class="table-wrap" tabindex={0} aria-label={`Deliveries of event ${event.id}`}>
								<table>
									<thead>
										<tr>
											<th scope="col">Receiver</th>
											<th scope="col">Status</th>
											<th scope="col" class="num">
												Attempts
											</th>
											<th scope="col">Last attempt</th>
											<th scope="col">Answer</th>
											<th scope="col">Next try</th>
										</tr>
									</thead>
									<tbody>
										{deliveries.map((delivery) => (
											<tr>
												<td class="mono">{delivery.receiver}</td>
												<td>
													<span class={STATUS_BADGES[delivery.status]}>{STATUS_WORDS[delivery.status]}</span>
												</td>
												<td class="num">{delivery.attempts}</td>
												<td>
													{delivery.last_attempt_at === null ? "None yet" : formatTime(delivery.last_attempt_at, true)}
												</td>
												<td>
													{delivery.last_status_code === null ? null : <div>Status {delivery.last_status_code}</div>}
													{delivery.last_error === null ? null : <div class="excerpt">{delivery.last_error}</div>}
												</td>
												<td>{delivery.next_attempt_at === null ? "—" : formatTime(delivery.next_attempt_at)}</td>
											</tr>
										))}
									</tbody>
								</table>
							</section>
						)}
						{event.d_status === null ? null : (
							<form method="post" action={developerPath(c, `/events/${event.id}/resend`)}>
								<input type="hidden" name="_csrf" value={csrfToken} />
								<button type="submit" class="secondary" aria-label={`Resend ${event.type} event ${event.id}`}>
									Resend
								</button>
							</form>
						)}
					</section>
				);
			})}
			{nextCursor === null ? null : (
				<nav class="pager" aria-label="Pages">
					<a href={developerPath(c, `/events?cursor=${encodeURIComponent(nextCursor)}`)}>Older events</a>
				</nav>
			)}
		</DeveloperFrame>
	);
}

const EVENTS_CSS = `
.event h2 { font-size: 1.1rem; overflow-wrap: anywhere; }
.excerpt { font-size: .9rem; color: var(--muted); overflow-wrap: anywhere; max-width: 28rem; }
`;

/** The event log's page and its resend form, under /partner/developers. */
export const developerEventRoutes = new Hono<SignedInPartnerEnv>();

async function renderEvents(
	c: Context<SignedInPartnerEnv>,
	cursorText: string | undefined,
	alert?: string,
	status: 200 | 409 = 200,
) {
	const owner = ownerOf(c);
	const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText.slice(0, 512));
	const rows = await listEventPage(databaseOf(c.env, owner.accountId), owner, { cursor, limit: EVENTS_PER_PAGE });
	const events = rows.slice(0, EVENTS_PER_PAGE);
	const last = events.at(-1);
	const nextCursor =
		rows.length > EVENTS_PER_PAGE && last !== undefined
			? encodeCursor({ createdAt: last.created_at, id: last.id })
			: null;
	return page(c, <EventsPage c={c} events={events} nextCursor={nextCursor} alert={alert} />, status);
}

developerEventRoutes.get("/events", (c) => renderEvents(c, c.req.query("cursor")));

developerEventRoutes.post("/events/:id/resend", requirePartnerCsrf, async (c) => {
	const resent = await redeliverEvent(c.env, ownerOf(c), c.req.param("id"), new Date());
	if (resent.ok) return c.redirect(developerPath(c, "/events?done=resent"), 303);
	if (resent.code === "event_not_found") {
		const { csrfToken, user } = c.var.signedIn;
		return partnerErrorPage(c, 404, resent.message, { csrfToken, role: user.role });
	}
	return renderEvents(c, undefined, resent.message, 409);
});
