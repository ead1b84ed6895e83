/** The order page's history: every move the order made, in order, who made it and the note it left. */
import type { OrderMoveRow } from "../orders/history.ts";
import { formatTime } from "./format.ts";
import { Dash } from "./layout.tsx";

/** A row per move, in the order they were made. */
function HistoryTable({ history }: { history: readonly OrderMoveRow[] }) {
	return (
		<div class="table-wrap">
			<table>
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
							<td>
								<time datetime={row.created_at}>{formatTime(row.created_at, true)}</time>
							</td>
							<td>{row.move.replaceAll("_", " ")}</td>
							<td>{row.actor}</td>
							<td>
								{row.from_status ?? "—"} → {row.to_status}
							</td>
							<td>{row.note ?? <Dash />}</td>
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
