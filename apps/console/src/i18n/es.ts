import type { Messages } from './en';
import shell from './es/shell';
import auth from './es/auth';
import account from './es/account';
import files from './es/files';
import shares from './es/shares';
import tools from './es/tools';
import activity from './es/activity';
import notifications from './es/notifications';
import admin from './es/admin';
import reports from './es/reports';
import agreements from './es/agreements';
import collections from './es/collections';
import sections from './es/sections';
import requests from './es/requests';
import workspaces from './es/workspaces';

/** Spanish messages, one file per area under es/, typed by the English ones. */
const es: Messages = {
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

export default es;
