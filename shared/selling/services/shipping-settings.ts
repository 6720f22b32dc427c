import { requireSection } from '../../config.ts';
import { COUNTRY_CODE_MESSAGE, isCountryCode } from '../../domain/countries.ts';
import * as z from '../../schema.ts';

/**
 * The stage's home country (the stage file's `shipping.homeCountry`, SHIPPING_HOME_COUNTRY): a shipping method
 * whose `allowInternational` is false posts within it only. Read by the checkout, checked when first read.
 */
const Settings = z.lazy(() =>
  z.object({
    SHIPPING_HOME_COUNTRY: z.string().check(z.refine(isCountryCode, COUNTRY_CODE_MESSAGE)),
  }),
);

export const homeCountry = (): string => requireSection('the shipping settings', Settings).SHIPPING_HOME_COUNTRY;
