/**
 * The hold a sandbox simulation puts on a test order: for each hold reason, the `hold_details` entry
 * validation (or the floor) would have written for it, on the item the partner named or the order's
 * first. Pure: the words follow the live checks' (src/orders/item-checks.ts), marked as simulated.
 */
import type { HoldReason } from "../error-catalog.ts";
import { cmykFileProblem } from "../orders/cmyk-hold.ts";
import type { HoldDetail } from "../orders/state-machine.ts";

/** What a simulated hold reads of the item it names. */
export type HeldItem = {
	id: string;
	print_file_url: string | null;
	width_in: number;
	height_in: number;
	frame: string | null;
	mat: string | null;
	glazing: string;
	paper: string;
};

/** Every reason a hold can have, with the field its detail names and the words a partner reads. */
function detailOf(reason: HoldReason, item: HeldItem): { field: string; message: string } {
	const fileField = item.print_file_url === null ? "print_file_id" : "print_file_url";
	const size = `${item.width_in} × ${item.height_in} in`;
	switch (reason) {
		case "file_resolution_too_low":
			return { field: fileField, message: `The file prints at 96 DPI at ${size}; at least 150 DPI is needed.` };
		case "file_unreadable":
			return { field: fileField, message: "The print file is not a usable image: its data ends early." };
		case "file_fetch_failed":
			return { field: fileField, message: "The print file could not be fetched: the server answered HTTP 503." };
		case "unsupported_file_format":
			return { field: fileField, message: "The print file is a GIF: send a TIFF, PNG or JPEG file." };
		case "cmyk_file":
			return { field: fileField, message: cmykFileProblem({ id: item.id, fileField }).detail.message };
		case "size_not_offered":
			return { field: "width_in", message: `${item.width_in} in is not offered at this size.` };
		case "frame_not_found":
			return { field: "frame", message: `No frame "${item.frame ?? "none"}" in the catalog.` };
		case "mat_not_found":
			return { field: "mat", message: `No mat "${item.mat ?? "none"}" in the catalog.` };
		case "glazing_not_found":
			return { field: "glazing", message: `No glazing "${item.glazing}" in the catalog.` };
		case "paper_not_found":
			return { field: "paper", message: `No paper "${item.paper}" in the catalog.` };
		case "frame_too_small_for_size":
			return { field: "frame", message: `"${item.frame ?? "none"}" cannot carry a piece of ${size} with its mat.` };
		case "operator_hold":
			return { field: "order", message: "The floor held the order." };
	}
}

/** The one `hold_details` entry of a simulated hold for `reason` on `item`, its words marked as simulated. */
export function simulatedHoldDetail(reason: HoldReason, item: HeldItem): HoldDetail {
	const { field, message } = detailOf(reason, item);
	return {
		item_id: reason === "operator_hold" ? null : item.id,
		field,
		code: reason,
		message: `${message} (Simulated by the sandbox.)`,
	};
}
