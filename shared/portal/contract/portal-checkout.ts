/**
 * The answers of the portal's checkout catalogue (`GET /my-account/shipping-method`, `GET /my-account/question/{eventId}`):
 * their schemas live with the domain types they define.
 */
export { QuestionResource, ShippingOptionResource } from '../../selling/domain/portal-checkout.ts';
