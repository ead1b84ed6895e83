import type { ShipTo } from "../addresses/schema.ts";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** The English name of an ISO 3166-1 alpha-2 code, or the code when the runtime has no name for it. */
export function countryName(code: string): string {
	try {
		return regionNames.of(code) ?? code;
	} catch {
		return code;
	}
}

/** A postal address, one line per line as a carrier reads it. */
export function AddressLines({ address }: { address: ShipTo }) {
	const locality = [address.city, [address.state, address.zip].filter((part) => part !== undefined).join(" ")]
		.filter((part) => part !== "")
		.join(", ");
	return (
		<address>
			{address.name}
			<br />
			{address.address1}
			<br />
			{address.address2 === undefined ? null : (
				<>
					{address.address2}
					<br />
				</>
			)}
			{locality}
			<br />
			{countryName(address.country)}
		</address>
	);
}
