import { raw } from "hono/html";

/** The `<head>` of every HTML page the worker serves: UTF-8, a mobile viewport, kept out of search engines, one inline stylesheet. */
export function PageHead({ title, css }: { title: string; css: string }) {
	return (
		<head>
			<meta charset="utf-8" />
			<meta name="viewport" content="width=device-width, initial-scale=1" />
			<meta name="robots" content="noindex" />
			<title>{title}</title>
			<style>{raw(css)}</style>
		</head>
	);
}
