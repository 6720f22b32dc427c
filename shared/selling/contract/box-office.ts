/** The contract of `POST /orders` (staff sell at the box office, functions/orders/sell.ts): what it accepts. */
export { BoxOfficeSaleBody } from '../domain/box-office-body.ts';
