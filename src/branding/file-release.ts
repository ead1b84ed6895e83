/** How brand profiles hold a print file for the retention sweep: a logo is kept while it is the logo. */
import type { FileRelease } from "../print-files/retention-store.ts";

/** Now (`?1`) while the file `print_files.id` is a brand's logo, else NULL; read through brand_profiles_by_logo. */
export function logoReleaseOfFile(): FileRelease {
	return "(SELECT ?1 FROM brand_profiles b WHERE b.logo_print_file_id = print_files.id LIMIT 1)";
}
