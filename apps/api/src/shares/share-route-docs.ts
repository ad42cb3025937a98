/** What the console's and the token's share routes say alike in the OpenAPI document: one rule, one text. */
export const SHARE_EDIT_DESCRIPTION =
  'Absent fields stay, null removes (expiry, password, caps, watermark text), validated like creation, and each change is ' +
  "recorded in the share's change history. The link, its counts and its history stay; a total cap at or below the visit " +
  'count consumes the link, a higher one opens it again; the next visit is judged by the new policies. ' +
  'A revoked share cannot be changed (409). Edits of one share take turns on its row lock.';

export const SHARE_ANALYTICS_DESCRIPTION =
  'Logged visits per day (human and automated), engagement, top referrers and devices over the last `days` days, ' +
  'and reading by section: for each h1–h3 section of a Markdown or HTML document (of a collection: of every document ' +
  'read), how many visits had it on screen for at least a second and their median seconds.';

export const SHARE_ACCEPTANCES_DESCRIPTION =
  "One row per visitor and agreement text: the name typed (agreements with requireName), the signed-in visitor's proven " +
  'e-mail, the time, the masked IP prefix, the User-Agent and the SHA-256 of the text accepted. An acceptance holds for ' +
  'that visitor until the owner changes the text. Pages follow nextCursor; kept as long as visits (VISIT_RETENTION_DAYS).';

export const SHARE_ACCEPTANCES_CSV_DESCRIPTION =
  'The same rows as the acceptance list (columns id, at, name, email, ipPrefix, userAgent, agreementSha256), newest first, ' +
  'with a header line; at most 100000 rows.';
