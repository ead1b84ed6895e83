/**
 * How an account's print files are printed: for now, what a CMYK file does to its order. One setting per
 * account (a column of `accounts`), the same for live and test keys, as the account's billing is.
 */

/**
 * What an order with a CMYK print file does: `convert`, it prints with the file converted to RGB (the
 * item warns of it); `hold`, validation holds it until an RGB file replaces the CMYK one.
 */
export const CMYK_FILE_CHOICES = ["convert", "hold"] as const;
/** One of CMYK_FILE_CHOICES. */
export type CmykFiles = (typeof CMYK_FILE_CHOICES)[number];

/** The account's print settings as the API answers them. */
export type PrintSettings = { cmyk_files: CmykFiles };

/** The account's print settings, or null when there is no such account. */
export function printSettingsOf(db: D1Database, accountId: string): Promise<PrintSettings | null> {
	return db.prepare("SELECT cmyk_files FROM accounts WHERE id = ?1").bind(accountId).first<PrintSettings>();
}

/**
 * Applies `change` to the account's print settings (a field left out is kept) and returns them as they
 * are now, or null when there is no such account.
 */
export function changePrintSettings(
	db: D1Database,
	accountId: string,
	change: Partial<PrintSettings>,
): Promise<PrintSettings | null> {
	return db
		.prepare("UPDATE accounts SET cmyk_files = COALESCE(?2, cmyk_files) WHERE id = ?1 RETURNING cmyk_files")
		.bind(accountId, change.cmyk_files ?? null)
		.first<PrintSettings>();
}
