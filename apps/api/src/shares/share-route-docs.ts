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
