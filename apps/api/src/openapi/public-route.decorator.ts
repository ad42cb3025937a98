import { ApiExtension } from '@nestjs/swagger';

/** The mark PublicRoute leaves on an operation; the document states `security: []` in its place. */
export const PUBLIC_ROUTE_EXTENSION = 'x-public-route';

/**
 * Documents a route that anyone may call without credentials (the viewer, sign-in, health).
 * Every other operation declares its bearer token or session cookie, so a route that forgets
 * both fails the OpenAPI lint instead of passing as public.
 */
export const PublicRoute = (): MethodDecorator & ClassDecorator => ApiExtension(PUBLIC_ROUTE_EXTENSION, true);
