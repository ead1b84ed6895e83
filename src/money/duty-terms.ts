/** Delivered duty paid (the service pays at the border and charges the partner) or delivered at place (the buyer pays). */
export const DUTY_TERMS = ["ddp", "dap"] as const;
export type DutyTerms = (typeof DUTY_TERMS)[number];
