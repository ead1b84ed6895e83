/** The order page's history: every move the order made, in order, who made it and the note it left. */

import { formatTime } from "../http/format.ts";
import type { OrderMoveRow } from "../orders/history.ts";
import { Dash } from "./layout.tsx";

/** A row per move, in the order they were made. */
function HistoryTable({ history }: { history: readonly OrderMoveRow[] }) {
	return (
		<div class="table-wrap">
			{/* Cards under 40rem, like the queue and the items, so a long note never runs off a phone's screen. */}
			<table class="cards history">
				<thead>
					<tr>
						<th scope="col">Time</th>
						<th scope="col">Move</th>
						<th scope="col">Actor</th>
						<th scope="col">From → to</th>
						<th scope="col">Note</th>
					</tr>
				</thead>
				<tbody>
					{history.map((row) => (
						<tr>
							<td data-label="Time">
								<div>
									<time datetime={row.created_at}>{formatTime(row.created_at, true)}</time>
								</div>
							</td>
							<td data-label="Move">
								<div>{row.move.replaceAll("_", " ")}</div>
							</td>
							<td data-label="Actor">
								<div>{row.actor}</div>
							</td>
							<td data-label="From → to">
								<div>
									{row.from_status ?? "—"} → {row.to_status}
								</div>
							</td>
							<td data-label="Note" class="note">
								<div>{row.note ?? <Dash />}</div>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** The history section of the order page. */
export function HistoryPanel({ history }: { history: readonly OrderMoveRow[] }) {
	return (
		<section aria-labelledby="history-heading" class="panel">
			<h2 id="history-heading">History</h2>
			<HistoryTable history={history} />
		</section>
	);
}
