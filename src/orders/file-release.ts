/**
 * How orders hold a print file for the retention sweep: every order with an item using the file keeps it
 * until it is delivered or canceled (a reprint is an order too), and past that while `orderRelease` (the
 * order's open claims) says so.
 */
import type { FileRelease } from "../print-files/retention-store.ts";

/**
 * The latest release of the file `print_files.id` by the orders using it: now (`?1`) for an order still
 * on its way (received to shipped), else when it was delivered or canceled, or `orderRelease` of the
 * order (an SQL expression of its id) when later. Read through order_items_by_print_file.
 */
export function ordersReleaseOfFile(orderRelease: (orderIdSql: string) => string): FileRelease {
	return `(SELECT MAX(MAX(
	           CASE o.status
	             WHEN 'delivered' THEN COALESCE(o.delivered_at, o.updated_at)
	             WHEN 'canceled' THEN COALESCE(o.canceled_at, o.updated_at)
	             ELSE ?1
	           END,
	           COALESCE(${orderRelease("o.id")}, '')))
	         FROM order_items i JOIN orders o ON o.id = i.order_id
	        WHERE i.print_file_id = print_files.id)`;
}
