/** A value as one single-quoted POSIX shell word: safe to `eval` or source whatever it holds. */
export function shellWord(value: string): string {
	return `'${value.replaceAll("'", `'\\''`)}'`;
}
