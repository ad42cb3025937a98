import type { Provider } from '@nestjs/common';
import { RUNTIME, type Runtime } from '../../common/runtime.js';

/** What decides whether an account is an administrator. */
export interface AdministratorCandidate {
  email: string;
  emailVerified: boolean;
  /** `users.role` is `admin`: the instance's first account. */
  adminRole: boolean;
}

/**
 * Who is an administrator. ADMIN_EMAILS names addresses, and anyone can register any address, so a
 * named address counts only once it is proven (an e-mail code, or a provider's verified claim).
 * The instance's first account is one by its row; with e-mail configured it too waits for its
 * address to be proven, since its registration may have come from anyone; without e-mail nothing
 * can be proven, and the first account keeps its rights as it always had.
 *
 * `AdminUsersRepository.countActiveAdministrators` says the same in SQL.
 */
export class Administrators {
  /** The addresses ADMIN_EMAILS names, in lower case. */
  readonly addresses: readonly string[];
  private readonly named: ReadonlySet<string>;

  constructor(
    addresses: Iterable<string>,
    /** E-mail is configured: the first account's rights also wait for its address to be proven. */
    readonly founderNeedsProof: boolean,
  ) {
    this.addresses = [...new Set([...addresses].map((address) => address.toLowerCase()))];
    this.named = new Set(this.addresses);
  }

  isAdmin(account: AdministratorCandidate): boolean {
    if (!account.emailVerified) return account.adminRole && !this.founderNeedsProof;
    return account.adminRole || this.named.has(account.email.toLowerCase());
  }
}

export const administratorsProvider: Provider = {
  provide: Administrators,
  useFactory: (runtime: Runtime): Administrators => new Administrators(runtime.env.ADMIN_EMAILS, Boolean(runtime.env.SMTP_URL)),
  inject: [RUNTIME],
};
