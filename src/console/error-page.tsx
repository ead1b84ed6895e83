import { Layout } from "./layout.tsx";

/** What an error page says: a heading, the message, and the request id to quote when reporting it. */
export type ErrorPageProps = { title: string; message: string; requestId: string; csrfToken: string | null };

/** A console error as a page (never the API's JSON envelope). */
export function ErrorPage({ title, message, requestId, csrfToken }: ErrorPageProps) {
	return (
		<Layout title={title} csrfToken={csrfToken}>
			<h1>{title}</h1>
			<div role="alert">{message}</div>
			<p class="muted">
				Request id <code>{requestId}</code>
			</p>
			<p>
				<a href="/ops/orders">Back to the production queue</a>
			</p>
		</Layout>
	);
}
