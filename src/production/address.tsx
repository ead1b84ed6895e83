import { postalLines } from "../addresses/postal-lines.ts";
import type { ShipTo } from "../addresses/schema.ts";

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
