/**
 * What a work ticket's QR code says: the order and the item, as `<order id>/<item id>`. The pack-out
 * scanner reads it, and a scan typed into the console's queue search opens the order (to start it).
 */

/** The text of the QR code of one item's ticket. */
export function ticketCode(orderId: string, itemId: string): string {
	return `${orderId}/${itemId}`;
}

/** The order a scanned ticket's text names, or null when the text is not a ticket's code. */
export function orderIdOfTicketCode(text: string): string | null {
	const match = /^(ord_[0-9A-Za-z]+)\/itm_[0-9A-Za-z]+$/.exec(text.trim());
	return match?.[1] ?? null;
}
