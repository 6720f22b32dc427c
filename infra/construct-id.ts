/**
 * `shipping-method/bulk-read` → `ShippingMethodBulkRead`: a name as a construct id or an
 * output's name, which take letters and digits only (route groups, functions, alarms, outputs).
 */
export function constructId(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
