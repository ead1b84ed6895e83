/**
 * The names of the events webhooks stores and sends. Webhooks never reads a body, so it does not name
 * the events itself: the app hands their names over, gathered from the capabilities that own them
 * (orders, claims), for the event log's filter and an endpoint's subscriptions.
 */
export type EventTypes = {
	/** Every type the event log lists, whether sent or only recorded. */
	listed: readonly string[];
	/** The types sent as webhooks, in the order an endpoint's subscriptions are listed. */
	sent: readonly string[];
};
