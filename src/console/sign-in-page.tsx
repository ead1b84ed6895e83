import { CONSOLE_NAME, Layout } from "./layout.tsx";

/** The sign-in form; `error` is shown above it when the last attempt failed. The key is never echoed back. */
export function SignInPage({ error }: { error: string | null }) {
	return (
		<Layout title="Sign in" csrfToken={null}>
			<section class="sign-in panel">
				<h1>Sign in</h1>
				<p class="muted">Sign in to the {CONSOLE_NAME.toLowerCase()} console with your operations API key.</p>
				{error === null ? null : <div role="alert">{error}</div>}
				<form method="post" action="/ops/sign-in">
					<label for="key">API key</label>
					<input id="key" name="key" type="password" autocomplete="off" required />
					<button type="submit">Sign in</button>
				</form>
			</section>
		</Layout>
	);
}
