/**
 * The names an operation mounted on both doors (SessionOrBearerGuard) carries in the OpenAPI
 * document: `<token>_<method>` on `/v1` and `/api/v1`, `<console>_<method>` on `/api/console`.
 * The contract named each door's operations before they were written once; these keep those ids.
 * A controller without names is known by its class name, its console mount by `<id>_console`.
 */
export interface DoorOperationNames {
  token: string;
  console: string;
}

const byController = new Map<string, DoorOperationNames>();
const consoleByToken = new Map<string, string>();

/**
 * Class decorator: the operation-id prefixes of a controller mounted on both doors, or of a door's own
 * controller that shares its names with one (the token API's file routes are all `Files_*`).
 */
export function DoorOperationNames(names: DoorOperationNames): ClassDecorator {
  return (target) => {
    byController.set(target.name.replace(/Controller$/, ''), names);
    consoleByToken.set(names.token, names.console);
  };
}

/** The prefix Nest's operation ids take for `controllerKey` (the class name without `Controller`). */
export function tokenOperationPrefix(controllerKey: string): string {
  return byController.get(controllerKey)?.token ?? controllerKey;
}

/** The console mount's operation id for a shared operation's id (without Nest's mount index). */
export function consoleOperationId(baseId: string): string {
  const split = baseId.indexOf('_');
  const consolePrefix = split > 0 ? consoleByToken.get(baseId.slice(0, split)) : undefined;
  return consolePrefix ? `${consolePrefix}${baseId.slice(split)}` : `${baseId}_console`;
}
