import { postalLines } from "../addresses/postal-lines.ts";
import type { ShipTo } from "../addresses/schema.ts";
import type { ShipToWarning } from "../addresses/ship-to-warnings.ts";
import { addressWarningWords } from "./address-words.ts";

/** A postal address in its country's format, one line per line as a carrier reads it. */
export function AddressLines({ address }: { address: ShipTo }) {
	const lines = postalLines(address);
	return (
		<address>
			{lines.map((line, index) => (
				<>
					{index === 0 ? null : <br />}
					{line}
				</>
			))}
		</address>
	);
}

/** An order's address warnings as a list, each its title in bold then its particulars: one wording on every page. */
export function AddressWarningList({ warnings }: { warnings: readonly Pick<ShipToWarning, "code" | "message">[] }) {
	return (
		<ul>
			{warnings.map((warning) => {
				const words = addressWarningWords(warning);
				return (
					<li>
						<strong>{words.title}.</strong> {words.detail}
					</li>
				);
			})}
		</ul>
	);
}
