/**
 * Where the API lives on every origin: the route table's paths are below it, the OIDC
 * callback URL and the deployed routes are built with it. A module of its own at the
 * bottom, so the identity-provider helpers in auth/ need not import the route table.
 */
export const API_PREFIX = '/api/v2';
