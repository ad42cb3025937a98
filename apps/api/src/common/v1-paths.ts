/** REST routes are mounted twice: `/api/v1` (the prose reference) and `/v1` (the OpenAPI server URL). */
export const V1_PATHS = ['api/v1', 'v1'];
