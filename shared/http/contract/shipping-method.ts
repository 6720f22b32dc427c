/** The contract of the shipping-method routes (`functions/shipping-method/`): what they accept and answer. */

// The answer schemas of this resource, defined beside the domain objects they describe.
export { NewShippingMethod, ShippingMethodPatch } from '../../domain/shipping-method.ts';
export { ShippingMethodResource } from '../../domain/shipping-method-resource.ts';
