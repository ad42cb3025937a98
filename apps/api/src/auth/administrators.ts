import type { Provider } from '@nestjs/common';
import { RUNTIME, type Runtime } from '../common/runtime.js';

/**
 * The addresses ADMIN_EMAILS names, in lower case: their accounts are administrators whatever
 * their row says, for as long as the configuration names them. The first account of an instance
 * is one by its row (`users.role`).
 */
export const ADMINISTRATORS = Symbol('ADMINISTRATORS');

export const administratorsProvider: Provider = {
  provide: ADMINISTRATORS,
  useFactory: (runtime: Runtime): ReadonlySet<string> => new Set(runtime.env.ADMIN_EMAILS),
  inject: [RUNTIME],
};
