import type { Messages } from './en';
import shell from './zh/shell';
import auth from './zh/auth';
import account from './zh/account';
import files from './zh/files';
import shares from './zh/shares';
import tools from './zh/tools';
import activity from './zh/activity';
import notifications from './zh/notifications';
import admin from './zh/admin';
import reports from './zh/reports';
import agreements from './zh/agreements';
import collections from './zh/collections';
import sections from './zh/sections';
import requests from './zh/requests';
import workspaces from './zh/workspaces';

/** Chinese messages, one file per area under zh/, typed by the English ones. */
const zh: Messages = {
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

export default zh;
