import type { Messages } from './en';
import shell from './fr/shell';
import auth from './fr/auth';
import account from './fr/account';
import files from './fr/files';
import shares from './fr/shares';
import tools from './fr/tools';
import activity from './fr/activity';
import notifications from './fr/notifications';
import admin from './fr/admin';
import reports from './fr/reports';
import agreements from './fr/agreements';
import collections from './fr/collections';
import sections from './fr/sections';
import requests from './fr/requests';
import workspaces from './fr/workspaces';

/** French messages, one file per area under fr/, typed by the English ones. */
const fr: Messages = {
  ...shell,
  ...auth,
  ...account,
  ...files,
  ...shares,
  ...tools,
  ...activity,
  ...notifications,
  ...admin,
  ...reports,
  ...agreements,
  ...collections,
  ...sections,
  ...requests,
  ...workspaces,
};

export default fr;
